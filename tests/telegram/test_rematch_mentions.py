"""A rematch lobby reaches the previous match's people, end to end through the fake Bot API: its
first message mentions each invited person (a `text_mention` entity, so Telegram notifies
them), later edits notify nobody, computer players are never mentioned, and names stay exactly
as typed (no parse mode, offsets in UTF-16 code units)."""

from __future__ import annotations

import pytest

from bot.telegram.common import chat_key
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import Notification, StoredMessage
from tests.telegram.test_rematch import LANGS, finish_match, result_message

# Names that trip naive code: an astral emoji shifts UTF-16 offsets, tags and & would be markup
# in HTML, and the second name is part of the first (so it cannot be found by searching).
TRICKY = {
    "ru": ["🦊 <b>Лиса</b> & Ко", "Лиса", "Дина"],
    "uk": ["🦊 <b>Лисиця</b> & Ко", "Лисиця", "Ірина"],
}


def mentioned(message: StoredMessage) -> list[tuple[int, str]]:
    """Who each `text_mention` of the message names, and the text it covers."""
    units = (message.text or "").encode("utf-16-le")
    out = []
    for entity in message.entities or ():
        assert entity["type"] == "text_mention", entity
        start, end = 2 * entity["offset"], 2 * (entity["offset"] + entity["length"])
        out.append((entity["user"]["id"], units[start:end].decode("utf-16-le")))
    return out


def group_sends_with_entities(h: Harness) -> list[int]:
    """Ids of the group messages the bot sent with entities (edits are not sends)."""
    return [
        c.result["message_id"]
        for c in h.api.calls("sendMessage", chat_id=h.group.id)
        if c.ok and c.params.get("entities")
    ]


@pytest.mark.parametrize("harness", LANGS, indirect=True)
async def test_the_rematch_lobby_notifies_the_invited_once(harness: Harness) -> None:
    h = harness
    h.check_language = True
    a, b, d = h.users
    game_id = await finish_match(h)
    assert h.api.notifications == []  # /new, the table, the result: nobody is pinged
    result = result_message(h, game_id)
    await h.press(b, h.group, result.message_id, f"r:{game_id}")
    await h.settle()
    lobby = h.api.last_message(h.group.id)
    assert lobby.parse_mode is None and lobby.text == lobby.plain_text
    invited = h.r.t(h.lang, "lobby-invited", names=a.first_name, count=1)
    assert invited in lobby.plain_text
    # Alice is mentioned over her name; Boris (he asked) and the robot are not.
    assert mentioned(lobby) == [(a.id, a.first_name)]
    assert h.api.notifications == [Notification(h.group.id, lobby.message_id, a.id)]
    # Dina joins: the lobby is edited, still naming Alice, and nobody is notified again.
    rec = await h.svc.storage.active_game(chat_key(h.group.id))
    assert rec is not None
    await h.press(d, h.group, lobby.message_id, f"l:{rec.id}:join")
    await h.settle()
    lobby = h.api.message(h.group.id, lobby.message_id)
    assert lobby.edit_date is not None and d.first_name in lobby.plain_text
    assert mentioned(lobby) == [(a.id, a.first_name)]
    # Alice joins: she is no longer waited for, so no longer mentioned.
    await h.press(a, h.group, lobby.message_id, f"l:{rec.id}:join")
    await h.settle()
    lobby = h.api.message(h.group.id, lobby.message_id)
    assert invited not in lobby.plain_text and mentioned(lobby) == []
    assert h.api.notifications == [Notification(h.group.id, lobby.message_id, a.id)]
    assert group_sends_with_entities(h) == [lobby.message_id]  # no other message mentions


@pytest.mark.parametrize(
    "harness",
    [{"lang": lang, "players": 3, "bot_delay": 30.0, "names": TRICKY[lang]} for lang in TRICKY],
    indirect=True,
)
async def test_rematch_mentions_keep_names_as_typed(harness: Harness) -> None:
    h = harness
    h.check_language = True
    a, b, d = h.users
    await finish_match(h)  # Alice, Boris and a robot
    await h.say(d, "/rematch")  # Dina watched: she asks, and both players are invited
    lobby = h.api.last_message(h.group.id)
    names = h.r.i18n.join(h.lang, [a.first_name, b.first_name])
    assert h.r.t(h.lang, "lobby-invited", names=names, count=2) in lobby.plain_text
    assert lobby.parse_mode is None and a.first_name in (lobby.text or "")  # not markup
    assert mentioned(lobby) == [(a.id, a.first_name), (b.id, b.first_name)]
    assert [n.user_id for n in h.api.notifications] == [a.id, b.id]
    assert {n.message_id for n in h.api.notifications} == {lobby.message_id}
    rec = await h.svc.storage.active_game(chat_key(h.group.id))
    assert rec is not None and rec.meta["players"] == [str(d.id), "ai:1"]  # the robot: unnamed
