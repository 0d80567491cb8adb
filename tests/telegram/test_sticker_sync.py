"""The sticker sets are made in the background: the bot answers from its first second (inline
results as text), and its results turn into stickers once the sets are ready; a failure is
retried, and logged once. The pictures are drawn off the event loop, which they would stop."""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.telegram import sticker_sync, stickers
from bot.telegram.sticker_sync import StickerSync
from bot.telegram.stickers import StickerBook, set_name
from core.cards import Card
from core.game import Game
from core.rules import Rules
from tests.telegram.conftest import SETTLE_TIMEOUT, Harness
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.test_inline import offered


def kinds(h: Harness, query: str) -> set[str]:
    """The types of the card results (a card's act: play, pick, hold)."""
    answer = h.api.inline_answer(query)
    assert answer is not None
    cards = [r for r in answer.results if r["id"].split(":")[-1].split()[0] in CARD_ACTS]
    assert cards
    return {str(r["type"]) for r in cards}


CARD_ACTS = ("play", "pick", "hold")


@pytest.fixture(autouse=True)
def stand_in_pictures(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """These tests are about the sync, not the art: a plain picture per sticker instead of the
    222 drawn ones (15 s of CPU, minutes on busy cores, beside a bound for a hung bot)."""

    def png(card: Card | None = None, dimmed: bool = False, lang: str = "") -> bytes:
        shade = (hash((card, dimmed, lang)) & 0xFF,) * 3
        out = io.BytesIO()
        Image.new("RGB", (360, 512), shade).save(out, "PNG")
        return out.getvalue()

    monkeypatch.setattr(stickers, "sticker_png", png)
    monkeypatch.setattr(stickers, "back_png", png)
    stickers.pictures.cache_clear()
    yield
    stickers.pictures.cache_clear()  # the drawn ones again for every other test


async def a_game(h: Harness) -> None:
    await h.new_game(players=2)
    players = [str(u.id) for u in h.users]
    await h.install(
        Game.from_position(
            players=players,
            hands={players[0]: "r5 r7 g2 wild", players[1]: "b5 y1 y2"},
            discard="r1",
            draw="y3 y4 y5 y6 y7 y8 y9",
            rules=Rules.preset("classic"),
            current=players[0],
        )
    )


async def test_the_bot_plays_while_its_sets_are_made(api: FakeBotAPI, tmp_path: Path) -> None:
    api.inline_mode = True
    owner = api.new_user("Owner")
    arrived = api.hold(["createNewStickerSet"])  # the first set's creation does not come back
    h = Harness(
        api,
        tmp_path / "uno.sqlite3",
        players=2,
        app_options={"sticker_owner": owner.id},
        wait_stickers=False,
    )
    await h.start()
    try:
        assert h.app is not None and h.app.sticker_sync.task is not None
        await asyncio.wait_for(arrived.wait(), SETTLE_TIMEOUT)
        # Polling, and answering: a game is set up and a hand offered, as text results.
        await a_game(h)
        query, acts = await offered(h, h.users[0])
        assert "play r5" in acts and kinds(h, query) == {"article"}
        assert not h.app.sticker_sync.task.done() and api.sticker_sets == {}
        # The network is back: the sets are made, and the same hand comes as stickers.
        api.resume_holds()
        await asyncio.wait_for(h.app.sticker_sync.wait(), SETTLE_TIMEOUT)
        for lang in ("ru", "uk"):
            assert len(api.sticker_sets[set_name(lang, "uno_test_bot")].stickers) == 111
        query, acts = await offered(h, h.users[0])
        assert "play r5" in acts and kinds(h, query) == {"sticker"}
    finally:
        await h.stop()


async def test_a_failed_sync_is_retried_and_logged_once(
    api: FakeBotAPI, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    api.inline_mode = True
    owner = api.new_user("Owner")
    refusal = "Bad Request: STICKERSET_OWNER_ANONYMOUS"
    api.fail_next("createNewStickerSet", status=400, description=refusal, count=3)
    h = Harness(
        api,
        tmp_path / "uno.sqlite3",
        players=2,
        app_options={"sticker_owner": owner.id, "sticker_wait": 0},
        wait_stickers=False,
    )
    caplog.set_level(logging.INFO, logger="bot.telegram.sticker_sync")
    await h.start()
    try:
        assert h.app is not None
        await asyncio.wait_for(h.app.sticker_sync.wait(), SETTLE_TIMEOUT)
        creates = [c.ok for c in api.calls("createNewStickerSet")]
        assert creates == [False, False, False, True, True]  # Russian three times, then both
        assert h.app.inline.stickers.ready("ru") and h.app.inline.stickers.ready("uk")
        records = [r for r in caplog.records if r.name == "bot.telegram.sticker_sync"]
        warnings = [r for r in records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and "STICKERSET_OWNER_ANONYMOUS" in warnings[0].getMessage()
        assert any("after 4 tries" in r.getMessage() for r in records)
        # Meanwhile, and after, the bot plays.
        await a_game(h)
        query, _ = await offered(h, h.users[0])
        assert kinds(h, query) == {"sticker"}
    finally:
        await h.stop()


async def test_a_language_is_drawn_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A language's pictures take seconds of CPU (half a minute on busy cores): drawn on the
    event loop, they held up the bot's start and every answer until they were done."""
    drawn_on: list[int] = []

    def pictures(lang: str) -> None:
        drawn_on.append(threading.get_ident())
        raise LookupError(lang)  # nothing more to see

    monkeypatch.setattr(sticker_sync, "pictures", pictures)
    sync = StickerSync(StickerBook())
    unused: Any = None
    sync.start(unused, unused, unused, owner=None, username="uno_test_bot")
    assert sync.task is not None
    with pytest.raises(LookupError):
        await sync.task
    assert drawn_on and threading.get_ident() not in drawn_on
