"""The page's files, each served under a name that carries a hash of its content.

A name that changes with the bytes lets a browser keep a file forever and never ask again; only
the page itself (`index.html`, which names the others) is looked at anew. The card art of
`bot.art` is drawn once per process and language into one sprite sheet (WebP; the red card's
letter differs between the languages), with a style sheet of positions, so a page loads the whole
deck as two files instead of one request per card. A dimmed card is the same face with a CSS
filter. JavaScript modules find each other through an import map, so no build step is needed.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
from dataclasses import dataclass
from importlib import resources

from PIL import Image

from bot.art import card_image, picture_name
from bot.presentation.i18n import LANGS
from core.cards import ALL_CARDS, Card

CARD_HEIGHT = 150  # pixels of one card in the sheet: sharp at 75 CSS px on a 2x screen
SHEET_COLUMNS = 14
WEBP_QUALITY = 80
FOREVER = "public, max-age=31536000, immutable"
MODULES = ("app.js", "socket.js", "view.js")  # app.js is the entry point
TYPES = {".js": "text/javascript", ".css": "text/css", ".webp": "image/webp"}


@dataclass(frozen=True)
class Asset:
    name: str  # the name it is served under (with its hash)
    body: bytes
    content_type: str


def hashed(name: str, body: bytes) -> Asset:
    stem, dot, ext = name.rpartition(".")
    digest = hashlib.sha256(body).hexdigest()[:12]
    return Asset(f"{stem}.{digest}{dot}{ext}", body, TYPES["." + ext])


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


def deck() -> list[Card | None]:
    """Every face in the sheet's order, then the back (None)."""
    return [*ALL_CARDS, None]


@functools.cache
def sheet(lang: str) -> bytes:
    """The whole deck in one WebP image, `SHEET_COLUMNS` cards to a row."""
    images = [card_image(card, size=CARD_HEIGHT, lang=lang) for card in deck()]
    width, height = images[0].size
    rows = -(-len(images) // SHEET_COLUMNS)
    out = Image.new("RGBA", (width * SHEET_COLUMNS, height * rows), (0, 0, 0, 0))
    for i, image in enumerate(images):
        out.paste(image, ((i % SHEET_COLUMNS) * width, (i // SHEET_COLUMNS) * height))
    buffer = io.BytesIO()
    out.save(buffer, format="WEBP", quality=WEBP_QUALITY, method=4)
    return buffer.getvalue()


def cards_css(sheets: dict[str, str]) -> bytes:
    """Each card's place in the sheet, in percent so that a card may be drawn at any size;
    `sheets` names each language's sheet file."""
    cards = deck()
    rows = -(-len(cards) // SHEET_COLUMNS)
    lines = [
        f".card{{background-size:{SHEET_COLUMNS * 100}% {rows * 100}%}}",
        *(
            f'html[lang="{lang}"] .card{{background-image:url("/static/{name}")}}'
            for lang, name in sheets.items()
        ),
    ]
    for i, card in enumerate(cards):
        x = (i % SHEET_COLUMNS) * 100 / (SHEET_COLUMNS - 1)
        y = (i // SHEET_COLUMNS) * 100 / (rows - 1)
        lines.append(f".c-{picture_name(card)}{{background-position:{x:.4f}% {y:.4f}%}}")
    return "\n".join(lines).encode()


@dataclass(frozen=True)
class Assets:
    index: bytes  # the page, naming the hashed files
    import_map: str  # its one inline script, allowed by hash in the page's CSP
    files: dict[str, Asset]  # by served name

    def get(self, name: str) -> Asset | None:
        return self.files.get(name)


@functools.cache
def assets() -> Assets:
    """Everything the page loads, built once per process (drawing the deck takes seconds)."""
    sheets = {lang: hashed(f"cards-{lang}.webp", sheet(lang)) for lang in LANGS}
    files = list(sheets.values())
    files.append(hashed("cards.css", cards_css({k: a.name for k, a in sheets.items()})))
    files.append(hashed("style.css", _static("style.css")))
    modules = [hashed(name, _static(name)) for name in MODULES]
    files.extend(modules)
    by_plain = {f"{a.name.split('.')[0]}.{a.name.rsplit('.', 1)[1]}": a.name for a in files}
    imports = ",".join(f'"/static/{m}":"/static/{by_plain[m]}"' for m in MODULES)
    import_map = '{"imports": {' + imports + "}}"
    index = (
        _static("index.html")
        .decode()
        .replace("{{style}}", by_plain["style.css"])
        .replace("{{cards}}", by_plain["cards.css"])
        .replace("{{app}}", by_plain["app.js"])
        .replace("{{import_map}}", import_map)
    )
    return Assets(index.encode(), import_map, {a.name: a for a in files})


def script_hash(script: str) -> str:
    """A CSP source that allows exactly this inline script."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
