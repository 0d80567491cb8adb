"""The page's files: small, named by their content, and the whole deck in one sheet."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from bot.web.assets import CARD_HEIGHT, SHEET_COLUMNS, assets, deck, sheet
from tests.web.tables import rig

FIRST_LOAD = 100_000  # bytes of HTML, CSS and JavaScript, without the card images
DECK = 300_000  # bytes of the card images of a whole deck


async def test_first_load_and_deck_sizes_and_caching(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        page = await r.session.get(r.url)
        assert page.status == 200 and page.headers["Cache-Control"] == "no-cache"
        html = await page.text()
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        names = re.findall(r"/static/([\w-]+\.[0-9a-f]{12}\.\w+)", html)  # hashed names only
        assert {n.split(".")[-1] for n in names} == {"css", "js"}
        first, deck_bytes = len(html.encode()), 0
        for name in set(names):
            got = await r.session.get(r.server.make_url(f"/static/{name}"))
            assert got.status == 200 and "immutable" in got.headers["Cache-Control"]
            body = await got.read()
            first += len(body)
            if name.startswith("cards."):  # the sheet each language's page loads
                sheets = re.findall(r"/static/(cards-\w+\.\w+\.webp)", body.decode())
                assert len(sheets) == 2
                for sheet_name in sheets:
                    image = await r.session.get(r.server.make_url(f"/static/{sheet_name}"))
                    deck_bytes = max(deck_bytes, len(await image.read()))
        assert first < FIRST_LOAD, first
        assert 0 < deck_bytes < DECK, deck_bytes
        assert (await r.session.get(r.server.make_url("/static/nope.js"))).status == 404


def test_a_file_is_named_by_its_content() -> None:
    files = assets().files
    for name, asset in files.items():
        assert asset.name == name
        digest = name.split(".")[-2]
        assert re.fullmatch(r"[0-9a-f]{12}", digest)
    assert len(files) == len(set(files))


def test_the_sheet_holds_every_card_and_the_back() -> None:
    image = Image.open(io.BytesIO(sheet("uk")))
    rows = -(-len(deck()) // SHEET_COLUMNS)
    assert image.height == CARD_HEIGHT * rows
    assert len(deck()) == 56  # 55 faces (creeper included) and the back
