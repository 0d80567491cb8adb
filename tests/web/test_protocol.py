"""The web table's protocol over a real socket: who may open a page, what it is sent, what its
presses do, and that nothing a refused page sends changes the game."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from aiohttp import WSMsgType

from bot.presentation.i18n import get_i18n
from bot.service.views import is_bot
from bot.web import socket
from bot.web.hub import CLOSE_REPLACED, CLOSE_RESTART
from core.game import Game
from core.rules import Rules
from tests.web.tables import (
    ANNA,
    BORIS,
    GROUP,
    OTHER_TOKEN,
    VERA,
    closed,
    group_game,
    init_data,
    install,
    receive,
    rig,
    state_at,
)

T = get_i18n().t


def position(**kwargs: object) -> Game:
    defaults: dict[str, object] = dict(
        players=[ANNA.id, BORIS.id],
        hands={ANNA.id: "r5 r7 wild g2", BORIS.id: "b5 y1 y2"},
        discard="r1",
        draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
        rules=Rules.preset("classic"),
        current=ANNA.id,
    )
    defaults.update(kwargs)
    return Game.from_position(**defaults)  # type: ignore[arg-type]


async def test_a_page_sees_the_table_and_only_its_own_cards(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position())
        anna = await r.open({"init_data": init_data(ANNA, start_param=str(game))})
        frame = await receive(anna, "state")
        assert frame["me"] == ANNA.id and frame["game"] == game
        assert [c["pic"] for c in frame["hand"]["cards"]] == ["r5", "r7", "g2", "wild"]
        playable = {c["pic"] for c in frame["hand"]["cards"] if c["key"]}
        assert playable == {"r5", "r7", "wild"}
        seats = {s["id"]: s["cards"] for s in frame["table"]["seats"]}
        assert seats == {ANNA.id: 4, BORIS.id: 3}
        assert frame["table"]["top"] == "r1" and frame["table"]["color"] == "r"
        # Nothing of Boris's hand anywhere in what Anna's page got.
        assert "b5" not in json.dumps(frame) and "y1" not in json.dumps(frame)
        await anna.close()


async def test_a_move_on_one_page_reaches_every_page_of_the_game(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position())
        anna = await r.open({"init_data": init_data(ANNA), "game": str(game)})
        boris = await r.open({"init_data": init_data(BORIS), "game": str(game)})
        mine = await receive(anna, "state")
        await receive(boris, "state")
        r7 = next(c["key"] for c in mine["hand"]["cards"] if c["pic"] == "r7")
        await anna.send_json({"t": "press", "key": r7})
        version = mine["table"]["version"] + 1
        seen = await state_at(boris, version)
        assert seen["table"]["top"] == "r7"
        assert [c["pic"] for c in seen["hand"]["cards"]] == ["y1", "y2", "b5"]
        assert {c["pic"] for c in seen["hand"]["cards"] if c["key"]} == set()  # nothing matches
        assert (await state_at(anna, version))["table"]["seats"][0]["cards"] == 3
        # A move made elsewhere (a chat command) is pushed too.
        assert (await r.service.play.act(BORIS, "draw", chat_key=GROUP)).ok
        after = await state_at(anna, version + 1)
        assert after["table"]["seats"][1]["cards"] == 4
        await anna.close()
        await boris.close()
        # Every frame a page was sent holds its own player's cards only: as many as its seat.
        for player, frame in r.frames:
            if frame["t"] == "state" and frame["hand"]:
                seat = next(s for s in frame["table"]["seats"] if s["id"] == player)
                assert len(frame["hand"]["cards"]) == seat["cards"]


async def test_a_wild_opens_its_colors_then_plays_the_chosen_one(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position())
        anna = await r.open({"init_data": init_data(ANNA), "game": str(game)})
        frame = await receive(anna, "state")
        wild = next(c["key"] for c in frame["hand"]["cards"] if c["pic"] == "wild")
        assert wild.endswith(":pick play wild")
        await anna.send_json({"t": "press", "key": wild})
        step = (await receive(anna, "state"))["hand"]["step"]
        assert [o["color"] for o in step["options"]] == ["r", "y", "g", "b"]
        await anna.send_json({"t": "press", "key": step["options"][2]["key"]})
        after = await state_at(anna, frame["table"]["version"] + 1)
        assert after["table"]["top"] == "wild" and after["table"]["color"] == "g"
        assert "step" not in after["hand"]


async def test_a_stale_press_is_refused_with_the_current_state(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position())
        anna = await r.open({"init_data": init_data(ANNA), "game": str(game)})
        frame = await receive(anna, "state")
        old = next(c["key"] for c in frame["hand"]["cards"] if c["pic"] == "r5")
        assert (await r.service.play.act(ANNA, "play r7", chat_key=GROUP)).ok  # from the chat
        assert (await r.service.play.act(BORIS, "draw", chat_key=GROUP)).ok
        before = await r.storage.active_game(GROUP)
        await anna.send_json({"t": "press", "key": old})
        refusal = await receive(anna, "notice")
        assert refusal["error"] and refusal["text"] == T("ru", "error-stale")
        assert await r.storage.active_game(GROUP) == before
        fresh = await receive(anna, "state")
        assert fresh["table"]["version"] == before.version if before else False
        # A key of another game is refused alike, without reaching the game.
        await anna.send_json({"t": "press", "key": f"h:{game + 5}:1:draw"})
        assert (await receive(anna, "notice"))["text"] == T("ru", "error-stale")
        assert await r.storage.active_game(GROUP) == before


@pytest.mark.parametrize(
    ("hello", "key"),
    [
        ({}, "web-refused-auth"),
        ({"init_data": ""}, "web-refused-auth"),
        ({"init_data": "user=%7B%22id%22%3A111%7D&auth_date=1&hash=00"}, "web-refused-auth"),
        ({"init_data": init_data(ANNA, token=OTHER_TOKEN)}, "web-refused-auth"),
        ({"init_data": init_data(ANNA, auth_date=time.time() - 7200)}, "web-refused-expired"),
        ({"local": "not-a-secret"}, "web-refused-auth"),
        ({"init_data": init_data(VERA)}, "web-refused-not-in-game"),
        ({"init_data": init_data(ANNA, start_param="999")}, "web-refused-no-game"),
        ({"init_data": init_data(ANNA, start_param="-1")}, "web-refused-no-game"),
    ],
)
async def test_refused_pages_are_told_why_and_change_nothing(
    tmp_path: Path, hello: dict[str, str], key: str
) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        before = await r.storage.active_game(GROUP)
        hello = {"game": str(game), "lang": "uk", **hello}
        ws = await r.open(hello)
        text, code = await closed(ws)
        # Before Telegram vouches for the user, the page's hint; after, their own language.
        vouched = key in ("web-refused-not-in-game", "web-refused-no-game")
        assert text == T("ru" if vouched else "uk", key)
        assert code is not None and 4400 <= code < 4500
        assert await r.storage.active_game(GROUP) == before
        assert r.hub.pages == 0


async def test_a_telegram_page_cannot_open_another_platforms_game(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        assert (await r.service.lobby.new_game("dc:42", ANNA)).ok
        table = (await r.service.queries.table("dc:42")).table
        assert table is not None
        ws = await r.open({"init_data": init_data(ANNA), "game": str(table.game_id)})
        text, code = await closed(ws)
        assert (text, code) == (T("ru", "web-refused-no-game"), socket.CLOSE_NO_GAME)


async def test_bad_messages(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        before = await r.storage.active_game(GROUP)
        ws = await r.open({"init_data": init_data(ANNA), "game": str(game)})
        await receive(ws, "state")
        for bad in ("not json", "[1, 2]", '{"t": "dance"}', '{"t": "press", "key": 7}'):
            await ws.send_str(bad)
            assert (await receive(ws, "notice"))["text"] == T("ru", "web-bad-message")
        await ws.send_bytes(b"\x00\x01")
        assert (await receive(ws, "notice"))["text"] == T("ru", "web-bad-message")
        await ws.send_str('{"t": "press", "key": "' + "x" * 5000 + '"}')
        assert await closed(ws) == (T("ru", "web-closed-too-big"), socket.CLOSE_TOO_BIG)
        assert await r.storage.active_game(GROUP) == before


async def test_a_flood_closes_the_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        ws = await r.open({"init_data": init_data(ANNA), "game": str(game)})
        await receive(ws, "state")
        for _ in range(socket.RATE + 5):
            await ws.send_str('{"t": "dance"}')
        assert await closed(ws) == (T("ru", "web-closed-flood"), socket.CLOSE_FLOOD)


async def test_a_second_tab_takes_the_place_of_the_first(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        first = await r.open({"init_data": init_data(ANNA), "game": str(game)})
        await receive(first, "state")
        second = await r.open({"init_data": init_data(ANNA), "game": str(game)})
        await receive(second, "state")
        assert await closed(first) == (T("ru", "web-closed-other-tab"), CLOSE_REPLACED)
        assert r.hub.pages == 1


async def test_a_dropped_page_reconnects_and_catches_up(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position(current=BORIS.id))  # not a deal's wild to name
        hello = {"init_data": init_data(ANNA), "game": str(game)}
        ws = await r.open(hello)
        version = (await receive(ws, "state"))["table"]["version"]
        await r.hub.drop_all()
        msg = await ws.receive()
        assert msg.type is WSMsgType.CLOSE and msg.data == CLOSE_RESTART
        assert (await r.service.play.act(BORIS, "draw", chat_key=GROUP)).ok  # while it was away
        again = await r.open(hello)
        assert (await receive(again, "state"))["table"]["version"] > version


async def test_leave_from_the_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS, VERA)
        ws = await r.open({"init_data": init_data(VERA), "game": str(game)})
        first = await receive(ws, "state")
        await ws.send_json({"t": "leave"})
        after = await state_at(ws, first["table"]["version"] + 1)
        assert after["hand"]["status"] == [T("ru", "hand-left")]
        assert VERA.id not in {s["id"] for s in after["table"]["seats"] if s["cards"]}


async def test_pages_of_one_game_are_read_once_per_change(tmp_path: Path) -> None:
    """Many changes in a burst become at most a few reads, never one per change and page."""
    async with rig(tmp_path) as r:
        game = await group_game(r.service, ANNA, BORIS, bots=2)
        pages = [
            await r.open({"init_data": init_data(p), "game": str(game)}) for p in (ANNA, BORIS)
        ]
        for ws in pages:
            await receive(ws, "state")
        reads = 0
        live = r.service.live.views

        async def counted(game_id: int, players: object) -> object:
            nonlocal reads
            reads += 1
            return await live(game_id, players)  # type: ignore[arg-type]

        r.service.live.views = counted  # type: ignore[method-assign]
        version = await r.version()
        for _ in range(5):
            r.service.changes.publish(game, version + 1)
        await asyncio.gather(*(state_at(ws, 0) for ws in pages))
        assert reads == 1
        assert all(not is_bot(p) for p, _ in r.frames)
