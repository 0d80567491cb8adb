"""`python -m bot cards --out DIR`: every card picture as files, for a look or a manual upload.

For each language (the color letters differ): every face as a sticker and dimmed, the back and
the contact sheet, in `DIR/<lang>/` named by the engine's card notation (`r7.png`,
`r7-dimmed.png`, `wild4.png`, `back.png`, `sheet.png`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.art.export import back_png, contact_sheet_png, sticker_png
from bot.i18n import LANGS
from core.cards import ALL_CARDS


def write_cards(out: Path, langs: tuple[str, ...] = LANGS) -> int:
    """Write the pictures under `out`; the number of files written."""
    files: dict[Path, bytes] = {}
    for lang in langs:
        folder = out / lang
        for card in ALL_CARDS:
            files[folder / f"{card.text}.png"] = sticker_png(card, lang=lang)
            files[folder / f"{card.text}-dimmed.png"] = sticker_png(card, dimmed=True, lang=lang)
        files[folder / "back.png"] = back_png()
        files[folder / "sheet.png"] = contact_sheet_png(lang)
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return len(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot cards", description=__doc__)
    parser.add_argument("--out", type=Path, required=True, help="folder to write into")
    parser.add_argument(
        "--lang", choices=LANGS, action="append", help="only this language (default: all)"
    )
    args = parser.parse_args(argv)
    count = write_cards(args.out, tuple(args.lang or LANGS))
    print(f"wrote {count} files to {args.out}")
    return 0
