"""The README and docs/ hold together: every relative link and anchor resolves, the README stays
short, and its configuration table lists exactly the settings the bot reads, with their defaults.

Anchors follow GitHub's rule for a heading's id: the heading's text lowercased, everything but
letters, digits, spaces, hyphens and underscores dropped, each space a hyphen, and a repeated id
numbered (`-1`, `-2`, ...).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
README_LIMIT = 12_000  # bytes: the README is for the people who run the bot, not a manual

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"`+[^`]*`+")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # https:, mailto:, ...


def prose(text: str) -> list[str]:
    """The lines outside fenced code blocks (a link or heading inside one is only text)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's id for a heading's text (before numbering repeats)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link counts by its text
    text = text.replace("`", "").replace("*", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    ids: set[str] = set()
    seen: Counter[str] = Counter()
    for line in prose(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match is None:
            continue
        base = slug(match.group(2))
        ids.add(base if not seen[base] else f"{base}-{seen[base]}")
        seen[base] += 1
    return ids


def links(path: Path) -> list[str]:
    found = []
    for line in prose(path.read_text(encoding="utf-8")):
        found += LINK.findall(CODE_SPAN.sub("", line))
    return found


def broken_links(path: Path) -> list[str]:
    """Each relative link of `path` whose file or heading does not exist, with the reason."""
    broken = []
    for target in links(path):
        if EXTERNAL.match(target):
            continue
        name, _, anchor = target.partition("#")
        file = (path.parent / name).resolve() if name else path
        if not file.exists():
            broken.append(f"{target}: no file {file}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    return broken


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path: Path) -> None:
    assert broken_links(path) == []


def test_the_check_finds_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## `bench/a_b.py`: one, two\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Page\n\n"
        "[ok](other.md#bencha_bpy-one-two) [ok](#page-1) [ok](https://example.org/x)\n"
        "`[in code](gone.md)`\n```\n[in a block](gone.md)\n```\n"
        "[gone](gone.md) [no heading](other.md#two) [not here](#nowhere)\n"
    )
    assert [line.split(":")[0] for line in broken_links(page)] == [
        "gone.md",
        "other.md#two",
        "#nowhere",
    ]


def test_the_readme_is_short() -> None:
    assert README.stat().st_size < README_LIMIT


def configuration_table() -> dict[str, str]:
    """The README's configuration table: variable -> its default as written."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Configuration")
    rows: dict[str, str] = {}
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or set(cells[0]) <= {"-"}:
            continue
        name = re.fullmatch(r"`([A-Z0-9_]+)`", cells[0])
        if name is not None:
            rows[name.group(1)] = cells[1].strip("`")
    return rows


def test_the_configuration_table_lists_exactly_the_settings() -> None:
    assert sorted(configuration_table()) == sorted(n.upper() for n in Settings.model_fields)


def test_the_configuration_table_gives_the_defaults_the_code_has() -> None:
    table = configuration_table()
    for name, field in Settings.model_fields.items():
        written, default = table[name.upper()], field.default
        if default is None:
            assert written == "–", name
        elif isinstance(default, int | float):
            assert float(written) == float(default), name
        else:
            assert written == str(default), name
