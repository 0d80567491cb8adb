"""`python -m bot cards --out DIR` writes every picture and says how many."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.art import picture_name, sticker_png
from core.cards import ALL_CARDS, Card
from tests.art.pictures import decode


def test_cards_command_writes_every_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "--out", str(tmp_path), "--lang", "uk"]) == 0
    expected = {f"{picture_name(c, d)}.png" for c in ALL_CARDS for d in (False, True)}
    expected |= {"back.png", "sheet.png"}
    assert {"r7.png", "r7_dimmed.png", "yplus2.png", "wild4_dimmed.png"} <= expected
    written = {p.name for p in (tmp_path / "uk").iterdir()}
    assert written == expected
    assert capsys.readouterr().out.strip() == f"wrote {len(expected)} files to {tmp_path}"
    assert (tmp_path / "uk" / "r7.png").read_bytes() == sticker_png(Card.parse("r7"), lang="uk")
    assert (tmp_path / "uk" / "r7_dimmed.png").read_bytes() != sticker_png(Card.parse("r7"))
    sheet = decode((tmp_path / "uk" / "sheet.png").read_bytes())
    assert sheet.width > sheet.height > 500
    assert (tmp_path / "uk" / "sheet.png").stat().st_size < 300 * 1024


def test_cards_command_needs_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["cards"])
    assert exit_.value.code == 2
    assert "--out" in capsys.readouterr().err


def test_the_readme_shows_a_small_contact_sheet() -> None:
    root = Path(__file__).resolve().parents[2]
    sheet = root / "docs" / "cards.png"
    assert "![cards](docs/cards.png)" in (root / "README.md").read_text(encoding="utf-8")
    assert sheet.stat().st_size < 300 * 1024
    image = decode(sheet.read_bytes())
    assert image.format == "PNG" and image.width > image.height > 500
