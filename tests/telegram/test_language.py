"""A Russian game and a Ukrainian game: every text, button and alert the bot sent is in the
chat's language (no English, no message id, no placeholder left)."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import Harness, can_act, language_violations, play_until, policy


async def tour(h: Harness) -> None:
    """Most of what the bot can say: lobby, settings, refusals, a game, the private chat."""
    a, b, d = h.users
    lang = h.lang
    await h.say(a, "/new")
    await h.press_button(b, h.r.t(lang, "btn-join"))
    await h.press_button(b, h.r.t(lang, "btn-join"))  # refused: already joined
    await h.say(a, "/settings")
    settings = h.api.last_message(h.group.id)
    for data in ("s:colorblind:on", "s:timer:120", "s:preset:house", "s:preset:classic"):
        await h.press(a, h.group, settings.message_id, data, strict=False)
        await h.settle()
    await h.say(a, "/help")
    await h.say(a, "/rules")
    await h.say(a, "/stats")
    await h.say(a, "/kick")
    await h.say(a, "/start")  # Dina never opened the private chat: the group is told
    await h.say(b, "/uno")
    await h.say(b, "/challenge")
    await play_until(h, lambda g: g.move_no >= 12, [a, b])
    mover = h.user((await h.game()).current_player)
    if mover is not d:
        acts = await can_act(h, mover)
        assert acts is not None
        hand = await h.hand(mover)
        stale = f"h:{await h.game_id()}:0:{policy(acts)}"
        await h.press(mover, mover.id, hand.message_id, stale, strict=False)
    await h.open_hand(d)
    await h.say(d, "/new", chat=d.id)
    await h.say(d, "/start", chat=d.id)
    await h.say(a, "/kill")
    await h.settle()


@pytest.mark.parametrize(
    "harness", [{"lang": "ru", "players": 3, "started": {0, 1}}], indirect=True
)
async def test_a_russian_game_speaks_russian(harness: Harness) -> None:
    harness.check_language = True  # checked again when the harness stops
    await tour(harness)
    names = [u.first_name for u in harness.users] + ["Вечер карт"]
    assert language_violations(harness.api, "ru", names) == []
    texts = "\n".join(harness.api.sent_texts())
    assert "ы" in texts and "Ходит" in texts


@pytest.mark.parametrize(
    "harness", [{"lang": "uk", "players": 3, "started": {0, 1}}], indirect=True
)
async def test_a_ukrainian_game_speaks_ukrainian(harness: Harness) -> None:
    harness.check_language = True
    await tour(harness)
    names = [u.first_name for u in harness.users] + ["Вечір карток"]
    assert language_violations(harness.api, "uk", names) == []
    texts = "\n".join(harness.api.sent_texts())
    assert "і" in texts and "Ходить" in texts
    assert (await harness.svc.settings.settings(f"tg:{harness.group.id}")).lang == "uk"
