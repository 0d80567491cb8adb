"""The sticker sets are made in the background: the bot answers from its first second (inline
results as text), and its results turn into stickers once the sets are ready; a failure is
retried, and logged once."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.telegram.stickers import set_name
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
