"""`python -m bot cards --out DIR`: every card picture as files, for a look or a manual upload.

For each language (the color letters differ): every face as a sticker and dimmed, the back and
the contact sheet, in `DIR/<lang>/` named by `picture_name` (`r7.png`, `r7_dimmed.png`,
`yplus2.png`, `wild4.png`, `back.png`) and `sheet.png`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.art.export import back_png, contact_sheet_png, picture_name, sticker_png
from bot.presentation.i18n import LANGS
from core.cards import ALL_CARDS


def write_cards(out: Path, langs: tuple[str, ...] = LANGS) -> int:
    """Write the pictures under `out`; the number of files written."""
    files: dict[Path, bytes] = {}
    for lang in langs:
        folder = out / lang
        for card in ALL_CARDS:
            for dimmed in (False, True):
                name = picture_name(card, dimmed)
                files[folder / f"{name}.png"] = sticker_png(card, dimmed=dimmed, lang=lang)
        files[folder / f"{picture_name(None)}.png"] = back_png()
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
