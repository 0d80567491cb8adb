"""Every move a player can make on the page, pressed as the page presses it: the key the server
sent, whose act is the engine's notation (draw, pass, UNO, catch, challenge, accept, a jump-in, a
7's partner). The page offers only what the hand view lists; what it holds is checked against
the game the service then reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse

from bot.presentation.i18n import get_i18n
from core.game import Game
from core.rules import Rules
from tests.web.tables import (
    ANNA,
    BORIS,
    GROUP,
    VERA,
    Rig,
    group_game,
    init_data,
    install,
    receive,
    rig,
    state_at,
)

T = get_i18n().t


def acts(frame: dict[str, Any]) -> dict[str, str]:
    """The page's move buttons by the act their key ends in (`draw`, `uno`, `catch`...)."""
    return {a["key"].split(":", 3)[3]: a["key"] for a in frame["hand"]["actions"]}


def card_key(frame: dict[str, Any], pic: str) -> str:
    key = next(c["key"] for c in frame["hand"]["cards"] if c["pic"] == pic)
    assert key, f"{pic} is not playable on this page"
    return str(key)


def counts(frame: dict[str, Any]) -> dict[str, int]:
    return {s["id"]: s["cards"] for s in frame["table"]["seats"]}


async def table(r: Rig, position: Game, *people: Any) -> list[ClientWebSocketResponse]:
    """A running group game set to `position`, a page open for each of `people`."""
    game = await group_game(r.service, *people)
    await install(r.storage, GROUP, position)
    return [await r.open({"init_data": init_data(p), "game": str(game)}) for p in people]


async def game_now(r: Rig) -> Game:
    rec = await r.storage.active_game(GROUP)
    assert rec is not None
    return Game.from_dict(rec.state)


def dealt(hands: dict[str, str], rules: Rules | None = None) -> Game:
    """Anna's turn on a red 1, the others in the order of `hands`."""
    return Game.from_position(
        players=list(hands),
        hands=hands,
        discard="r1",
        draw="r9 y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",  # the first card drawn fits the red 1
        rules=rules or Rules.preset("classic"),
        current=ANNA.id,
    )


async def test_draw_then_pass(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        anna, _boris = await table(r, dealt({ANNA.id: "b5 g2", BORIS.id: "y1 y2"}), ANNA, BORIS)
        first = await receive(anna, "state")
        assert set(acts(first)) == {"draw"}  # nothing to play: draw is the one move
        await anna.send_json({"t": "press", "key": acts(first)["draw"]})
        drawn = await state_at(anna, first["table"]["version"] + 1)
        assert counts(drawn)[ANNA.id] == 3 and "pass" in acts(drawn)
        await anna.send_json({"t": "press", "key": acts(drawn)["pass"]})
        passed = await state_at(anna, drawn["table"]["version"] + 1)
        assert counts(passed)[ANNA.id] == 3
        assert not acts(passed) and (await game_now(r)).current_player == BORIS.id


async def test_uno_called_on_the_page_keeps_the_last_card_safe(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        anna, boris = await table(r, dealt({ANNA.id: "r5 r7", BORIS.id: "y1 y2"}), ANNA, BORIS)
        first = await receive(anna, "state")
        await anna.send_json({"t": "press", "key": acts(first)["uno"]})
        called = await state_at(anna, first["table"]["version"] + 1)
        await anna.send_json({"t": "press", "key": card_key(called, "r7")})
        played = await state_at(boris, called["table"]["version"] + 1)
        mine = next(s for s in played["table"]["seats"] if s["id"] == ANNA.id)
        assert mine["cards"] == 1 and mine["uno"]
        assert "catch" not in acts(played)  # nobody can catch a called UNO


async def test_a_forgotten_uno_is_caught_from_the_other_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        anna, boris = await table(r, dealt({ANNA.id: "r5 r7", BORIS.id: "y1 y2"}), ANNA, BORIS)
        first = await receive(anna, "state")
        await anna.send_json({"t": "press", "key": card_key(first, "r7")})  # no UNO called
        seen = await state_at(boris, first["table"]["version"] + 1)
        assert counts(seen)[ANNA.id] == 1
        await boris.send_json({"t": "press", "key": acts(seen)["catch"]})
        caught = await state_at(boris, seen["table"]["version"] + 1)
        assert counts(caught)[ANNA.id] == 3  # two cards of penalty
        assert "catch" not in acts(caught)


@pytest.mark.parametrize(
    ("answer", "anna_has", "boris_has"),
    [
        ("accept", 2, 6),  # Boris takes the four
        # Anna held a red card that matched the red 1: her Wild Draw Four was a bluff.
        ("challenge", 6, 2),
    ],
)
async def test_a_wild_draw_four_accepted_or_challenged(
    tmp_path: Path, answer: str, anna_has: int, boris_has: int
) -> None:
    async with rig(tmp_path) as r:
        position = dealt({ANNA.id: "wild4 r5 g2", BORIS.id: "y1 y2"})
        anna, boris = await table(r, position, ANNA, BORIS)
        first = await receive(anna, "state")
        await anna.send_json({"t": "press", "key": card_key(first, "wild4")})
        step = (await receive(anna, "state"))["hand"]["step"]
        await anna.send_json({"t": "press", "key": step["options"][3]["key"]})
        pending = await state_at(boris, first["table"]["version"] + 1)
        assert {"accept", "challenge"} <= set(acts(pending))
        await boris.send_json({"t": "press", "key": acts(pending)[answer]})
        after = await state_at(boris, pending["table"]["version"] + 1)
        assert (counts(after)[ANNA.id], counts(after)[BORIS.id]) == (anna_has, boris_has)


async def test_a_jump_in_from_the_page_of_a_player_out_of_turn(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        hands = {ANNA.id: "y5 g3", BORIS.id: "g4 b6", VERA.id: "r1 y8 b2"}
        position = dealt(hands, Rules.preset("house"))
        anna, _boris, vera = await table(r, position, ANNA, BORIS, VERA)
        first = await receive(vera, "state")
        assert first["table"]["seats"][0]["current"]  # Anna's turn, not Vera's
        await vera.send_json({"t": "press", "key": card_key(first, "r1")})
        after = await state_at(anna, first["table"]["version"] + 1)
        assert after["table"]["top"] == "r1" and counts(after)[VERA.id] == 2


async def test_a_sevens_partner_chosen_on_the_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        hands = {ANNA.id: "r7 g3 b3", BORIS.id: "g4", VERA.id: "r2 y8 b2 y1 y2"}
        position = dealt(hands, Rules(seven_zero=True))
        anna, _boris, _vera = await table(r, position, ANNA, BORIS, VERA)
        first = await receive(anna, "state")
        seven = card_key(first, "r7")
        assert seven.endswith(":pick play r7")
        await anna.send_json({"t": "press", "key": seven})
        step = (await receive(anna, "state"))["hand"]["step"]
        by_name = {o["label"]: o["key"] for o in step["options"]}
        assert set(by_name) == {"Boris", "Vera"}
        await anna.send_json({"t": "press", "key": by_name["Vera"]})
        after = await state_at(anna, first["table"]["version"] + 1)
        # Anna's two cards left went to Vera; Vera's five are Anna's now.
        assert counts(after)[ANNA.id] == 5 and counts(after)[VERA.id] == 2
        assert {c["pic"] for c in after["hand"]["cards"]} == {"r2", "y8", "b2", "y1", "y2"}


async def test_a_move_no_longer_offered_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A catch pressed after the window closed: refused in the page's language, nothing stored."""
    async with rig(tmp_path) as r:
        anna, boris = await table(r, dealt({ANNA.id: "r5 r7", BORIS.id: "y1 y2 r3"}), ANNA, BORIS)
        first = await receive(anna, "state")
        await anna.send_json({"t": "press", "key": card_key(first, "r7")})
        seen = await state_at(boris, first["table"]["version"] + 1)
        catch = acts(seen)["catch"]
        await boris.send_json({"t": "press", "key": card_key(seen, "r3")})  # the window closes
        await state_at(boris, seen["table"]["version"] + 1)
        before = await r.storage.active_game(GROUP)
        await boris.send_json({"t": "press", "key": catch})
        refusal = await receive(boris, "notice")
        assert refusal["error"] and refusal["text"]
        assert await r.storage.active_game(GROUP) == before
