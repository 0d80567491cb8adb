"""Without the Send Messages permission (403 50013) the results are not lost.

Discord still lets the bot answer interactions and edit its own messages; it refuses new channel
messages. A round's result then goes to the person whose move ended it (privately, with the
`dc-no-access` explanation and the rematch button when there is one) and to the creator by DM;
the game goes on, its table edited in place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.game import Game
from core.rules import Rules
from tests.discord.test_discord_bot import RENDERER, ROBOT, table_factory


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


@pytest.mark.parametrize("target", [500, 100])
async def test_results_reach_the_actor_and_the_creator(
    make_table: Callable[..., Any], target: int
) -> None:
    async with make_table() as t:
        anya, borya = t.users[:2]
        table = await t.lobby(borya, anya)  # Borya opens the lobby
        await t.click(borya, table, label=RENDERER.t(t.lang, "btn-addbot"))
        await t.click(borya, table, label=RENDERER.t(t.lang, "btn-start"))
        players = [t.uid(anya), t.uid(borya), ROBOT]
        await t.install(
            Game.from_position(
                players=players,
                hands=dict(zip(players, ["r5", "wild4 wild4 wild", "g2 g3"], strict=True)),
                discard="r1",
                draw="y3 y4 y5 y6 y7 y8 b1 b2 b3 b4 b5 b6 b7 b8 b9 g4 g5 g6 g7 g8 g9 r2 r3",
                rules=dataclasses.replace(Rules.preset("classic"), target=target),
                current=t.uid(anya),
            )
        )
        hand = await t.my_cards(anya)
        public_before = {m.id for m in t.fake.messages.values() if m.is_public}
        t.world.channel.bot_can_send = False
        move = await t.press(anya, hand, "play r5")
        await t.fake.settle()
        refused = [c for c in t.fake.calls if c.status == 403]
        assert refused and all(c.response["code"] == 50013 for c in refused)
        assert {m.id for m in t.fake.messages.values() if m.is_public} <= public_before
        # Anya, who acted, is told privately: why, and what happened.
        (told,) = [m for m in move.followups if m.is_ephemeral]
        assert told.ephemeral_to == anya.id
        assert RENDERER.t(t.lang, "dc-no-access") in told.text
        assert anya.name in told.text
        rematch = [b for b in t.fake.buttons(told) if b.get("custom_id") == "r:1"]
        assert bool(rematch) == (target == 100)  # a match's result keeps its rematch button
        # Borya, the creator, by DM.
        (dm,) = t.fake.dm_messages(borya)
        assert borya.mention in dm.text and t.world.channel.mention in dm.text
        assert anya.name in dm.text
        # The game goes on: the table (an edit, still allowed) shows the new round or the end.
        rec = await t.storage.get_game(1)
        assert rec is not None
        assert rec.status == ("running" if target == 500 else "finished")
        if target == 500:
            assert (await t.game()).round_no == 2
            assert "2" in table.text.split("\n")[0]
        else:
            # The rematch button of her private copy opens the lobby as a public followup.
            pressed = await t.click(anya, told, "r:1")
            (lobby,) = [m for m in pressed.followups if m.is_public]
            assert RENDERER.t(t.lang, "lobby-title") in lobby.content
            assert await t.table_message() is lobby
            assert t.fake.buttons(told) == []
        t.assert_clean()
