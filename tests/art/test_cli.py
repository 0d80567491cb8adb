"""`python -m bot cards --out DIR` writes every picture and says how many."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.art import back_png, cli, sticker_png
from bot.presentation.i18n import LANGS
from core.cards import Card
from tests.art.pictures import decode


def test_cards_command_writes_every_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Three faces instead of all 55 keep the test quick; every face is drawn by the other tests.
    faces = tuple(Card.parse(text) for text in ("r7", "y+2", "wild4"))
    monkeypatch.setattr(cli, "ALL_CARDS", faces)
    assert main(["cards", "--out", str(tmp_path), "--lang", "uk"]) == 0
    expected = {
        "r7.png",
        "r7_dimmed.png",
        "yplus2.png",
        "yplus2_dimmed.png",
        "wild4.png",
        "wild4_dimmed.png",
        "back.png",
        "sheet.png",
    }
    assert {p.name for p in (tmp_path / "uk").iterdir()} == expected
    assert capsys.readouterr().out.strip() == f"wrote {len(expected)} files to {tmp_path}"
    assert (tmp_path / "uk" / "r7.png").read_bytes() == sticker_png(faces[0], lang="uk")
    assert (tmp_path / "uk" / "r7_dimmed.png").read_bytes() == sticker_png(
        faces[0], dimmed=True, lang="uk"
    )
    assert (tmp_path / "uk" / "back.png").read_bytes() == back_png()
    sheet = decode((tmp_path / "uk" / "sheet.png").read_bytes())
    assert sheet.width > sheet.height > 500


def test_cards_command_writes_every_language_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "ALL_CARDS", (Card.parse("r1"),))
    monkeypatch.setattr(cli, "contact_sheet_png", lambda lang: b"sheet " + lang.encode())
    assert main(["cards", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(LANGS)
    assert capsys.readouterr().out.startswith(f"wrote {4 * len(LANGS)} files")
    # Red's letter differs between the languages, so do the pictures.
    assert len({(tmp_path / lang / "r1.png").read_bytes() for lang in LANGS}) == len(LANGS)


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
