"""After a match, end to end through the fake Bot API: the rematch button under the result and
/rematch, their refusals, and the notice when a timeout takes out the last person."""

from __future__ import annotations

import dataclasses
import math

import pytest

from bot.telegram.common import chat_key
from core.game import Game
from core.rules import Rules
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import StoredMessage

ROBOT = "ai:1"
# The robot never moves on its own here: the tests install the match's last position.
LANGS = [{"lang": lang, "players": 3, "bot_delay": 30.0} for lang in ("ru", "uk")]


async def finish_match(h: Harness) -> int:
    """The first two users and a robot play; the first wins the match with her last card."""
    a, b = h.users[:2]
    await h.say(a, "/new")
    await h.say(b, "/join")
    await h.say(a, "/addbot")
    await h.say(a, "/start")
    game_id = await h.game_id()
    players = [str(a.id), str(b.id), ROBOT]
    game = Game.from_position(
        players=players,
        hands=dict(zip(players, ["r5", "wild4 wild4 wild", "g2 g3"], strict=True)),
        discard="r1",
        draw="y3 y4 y5 y6 y7 y8",
        rules=dataclasses.replace(Rules.preset("classic"), target=100),
        current=str(a.id),
    )
    await h.install(game)
    assert (await h.play(a, "r5")).text is None
    await h.settle()
    return game_id


def result_message(h: Harness, game_id: int) -> StoredMessage:
    """The group message announcing the match's result, with its rematch button."""
    found = [m for m in h.api.messages(h.group.id) if m.from_bot and _rematch(m) == game_id]
    assert len(found) == 1, [m.plain_text for m in h.api.messages(h.group.id)]
    return found[0]


def _rematch(message: StoredMessage) -> int | None:
    for button in message.buttons:
        data = button.get("callback_data", "")
        if data.startswith("r:"):
            return int(data[2:])
    return None


@pytest.mark.parametrize("harness", LANGS, indirect=True)
async def test_the_rematch_button_under_the_result(harness: Harness) -> None:
    h = harness
    h.check_language = True
    lang = h.lang
    a, b, d = h.users
    game_id = await finish_match(h)
    result = result_message(h, game_id)
    won = h.r.t(lang, "event-game-ended", count=1, winners=a.first_name, scores="")
    assert won.split("!")[0] in result.plain_text
    assert result.buttons == [{"text": h.r.t(lang, "btn-rematch"), "callback_data": f"r:{game_id}"}]
    assert h.api.message(h.group.id, (await _table_of(h, game_id))).buttons == []
    # Boris asks for a rematch: a new lobby with him and the robot; Alice is named, not joined.
    data = f"r:{game_id}"
    answer = await h.press(b, h.group, result.message_id, data)
    assert (answer.text, answer.show_alert) == (h.r.t(lang, "info-rematch"), False)
    await h.settle()
    lobby = h.api.last_message(h.group.id)
    assert lobby.plain_text.startswith(h.r.t(lang, "lobby-title"))
    invited = h.r.t(lang, "lobby-invited", names=a.first_name, count=1)
    assert invited in lobby.plain_text
    assert h.r.t(lang, "bot-name", number=1) in lobby.plain_text
    assert [btn["text"] for btn in lobby.buttons] == [
        *(h.r.t(lang, f"btn-{x}") for x in ("join", "addbot", "start")),
        h.r.t(lang, "btn-bot-level", level="easy"),  # the level the match was played at
    ]
    rec = await h.svc.storage.active_game(chat_key(h.group.id))
    assert rec is not None and rec.status == "lobby" and rec.meta["players"] == [str(b.id), ROBOT]
    assert h.api.message(h.group.id, result.message_id).buttons == []  # used: the button goes
    # The same button again (a client still showing it), and /rematch: a lobby is open.
    sent = len(h.api.calls("sendMessage", chat_id=h.group.id))
    again = await h.press(d, h.group, result.message_id, data, strict=False)
    assert (again.text, again.show_alert) == (h.r.t(lang, "error-game-exists"), True)
    assert await h.svc.storage.active_game(chat_key(h.group.id)) == rec
    assert len(h.api.calls("sendMessage", chat_id=h.group.id)) == sent
    await h.say(d, "/rematch")
    assert h.api.last_message(h.group.id).plain_text == h.r.t(lang, "error-game-exists")
    # Alice joins: the lobby stops waiting for her.
    await h.press(a, h.group, lobby.message_id, f"l:{rec.id}:join")
    await h.settle()
    assert invited not in h.api.message(h.group.id, lobby.message_id).plain_text
    # The lobby is cancelled: no finished match to repeat, and the old button is stale.
    await h.say(b, "/kill")
    await h.say(d, "/rematch")
    assert h.api.last_message(h.group.id).plain_text == h.r.t(lang, "error-no-rematch")
    stale = await h.press(d, h.group, result.message_id, data, strict=False)
    assert (stale.text, stale.show_alert) == (h.r.t(lang, "error-rematch-stale"), True)
    assert await h.svc.storage.active_game(chat_key(h.group.id)) is None


@pytest.mark.parametrize("harness", LANGS, indirect=True)
async def test_the_rematch_command(harness: Harness) -> None:
    h = harness
    h.check_language = True
    lang = h.lang
    a, b, d = h.users
    game_id = await finish_match(h)
    await h.say(d, "/rematch")  # Dina watched: she may ask too, and plays with the robot
    lobby = h.api.last_message(h.group.id)
    names = h.r.i18n.join(lang, [a.first_name, b.first_name])
    assert h.r.t(lang, "lobby-invited", names=names, count=2) in lobby.plain_text
    rec = await h.svc.storage.active_game(chat_key(h.group.id))
    assert rec is not None and rec.meta["players"] == [str(d.id), ROBOT]
    # The result's button stays, but only answers that a lobby is open.
    result = result_message(h, game_id)
    refused = await h.press(b, h.group, result.message_id, f"r:{game_id}")
    assert (refused.text, refused.show_alert) == (h.r.t(lang, "error-game-exists"), True)


@pytest.mark.parametrize(
    "harness", [{"lang": "ru", "players": 1}, {"lang": "uk", "players": 1}], indirect=True
)
async def test_the_group_is_told_when_a_timeout_takes_out_the_last_person(
    harness: Harness,
) -> None:
    h = harness
    h.check_language = True
    (a,) = h.users
    await h.say(a, "/new")
    await h.say(a, "/addbot")
    await h.say(a, "/addbot")
    await h.say(a, "/start")  # the turn timer is on (90 s by default)
    key = chat_key(h.group.id)
    assert h.app is not None and h.app.ui is not None
    for _ in range(100):  # her turns time out at once; the robots move in between
        if await h.svc.storage.active_game(key) is None:
            break
        for out in await h.svc.clock.run_due(math.inf):
            await h.app.ui.publish(out)
        await h.settle()
    else:
        raise AssertionError("the game did not stop")
    await h.settle()
    notice = h.r.t(h.lang, "info-no-humans-left")
    told = [m for m in h.api.messages(h.group.id) if m.from_bot and notice in m.plain_text]
    assert len(told) == 1 and told[0].buttons == []  # stopped, not won: no rematch button
    assert h.r.t(h.lang, "event-player-left", player=a.first_name, count=0) in told[0].plain_text


async def _table_of(h: Harness, game_id: int) -> int:
    value = await h.svc.storage.get_ref(game_id, "tg:table")
    assert value is not None
    return int(value)
