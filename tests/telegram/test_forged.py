"""Callback data pressed in the group that no handler can use (forged, mangled, or an older
lobby's button), end to end: an alert that fits the group, in its language, and nothing else.

The private chat keeps its own answer (a stale hand, with the current one shown again): see
`test_play.test_stale_and_unparsable_buttons_are_refused_with_a_fresh_keyboard`; settings data
there gets an alert to open /settings in the group (the last test here).
"""

from __future__ import annotations

import pytest

from bot.telegram.common import chat_key
from tests.adapters.storage_calls import counting
from tests.telegram.conftest import Harness

ALERT_LIMIT = 200  # characters Telegram shows in a callback's alert


@pytest.mark.parametrize(
    "harness", [{"players": 3, "lang": "ru"}, {"players": 3, "lang": "uk"}], indirect=True
)
async def test_unusable_data_in_the_group_points_to_the_table(harness: Harness) -> None:
    h = harness
    h.check_language = True
    lang = h.lang
    game_id = await h.new_game(players=3)
    table = await h.table()
    stranger = h.api.new_user(h.users[0].first_name + "-2", language_code="en")
    assert h.storage is not None
    before = await h.storage.active_game(chat_key(h.group.id))
    calls = h.api.call_count
    expected = h.r.t(lang, "tg-stale-button-group")
    assert len(expected) <= ALERT_LIMIT
    assert h.r.t(lang, "btn-my-cards") in expected and "/new" in expected
    assert expected != h.r.t(lang, "error-stale")  # no "here are your cards" in the group
    forged = (
        "zzz",
        "garbage:1:2",
        "h:oops",
        f"h:{game_id}:x:draw",
        "l:1",
        f"l:{game_id}:explode",
        f"l:{game_id + 1}:join",  # another lobby's button
        "r:abc",
        "s:",
        # Ids out of range: 2**63 and more, negative. Refused before anything reaches the storage.
        f"l:{2**63}:join",
        f"l:{game_id}{'0' * 30}:start",
        "l:-1:join",
        f"r:{2**64}",
        f"h:{2**63}:0:draw",
        f"l:{2**63 - 1}:join",  # in range: another lobby's button
    )
    with counting(h.storage) as storage_calls:
        for user in (h.users[1], stranger):
            for data in forged:
                answer = await h.press(user, h.group, table.message_id, data, strict=False)
                assert (answer.text, answer.show_alert) == (expected, True), data
        await h.settle()
    assert all(0 <= n < 2**63 for n in storage_calls.ints())
    assert await h.storage.active_game(chat_key(h.group.id)) == before
    others = [
        c.method
        for c in h.api.calls()[calls:]
        if not c.is_("getUpdates") and not c.is_("answerCallbackQuery")
    ]
    assert others == []  # no message sent, edited or stripped of its keyboard


@pytest.mark.parametrize(
    "harness", [{"players": 2, "lang": "ru"}, {"players": 2, "lang": "uk"}], indirect=True
)
async def test_settings_data_in_the_private_chat_points_to_the_group(harness: Harness) -> None:
    """Settings data pressed in the private chat (no settings keyboard is ever sent there):
    an alert to open /settings in the group, in the person's language, and nothing else: no
    setting changes, no hand is shown again, no keyboard is taken away."""
    h = harness
    h.check_language = True
    lang = h.lang
    await h.set_setting(h.users[0], "timer", "120")  # the group has settings of its own
    game_id = await h.new_game(players=2)
    player = h.users[1]
    hand = await h.hand(player)
    assert h.storage is not None
    before = (
        await h.svc.settings.settings(chat_key(h.group.id)),
        await h.storage.get_game(game_id),
    )
    calls = h.api.call_count
    expected = h.r.t(lang, "tg-stale-settings")
    assert len(expected) <= ALERT_LIMIT and "/settings" in expected
    forged = (
        "s:",  # does not parse
        "s:timer",
        "s:a:b:c",
        "s:nope:1",  # an unknown option
        "s:timer:banana",
        "s:timer:30",  # a real option, but no group to change it in
        "s:lang:uk",
    )
    for data in forged:
        answer = await h.press(player, player.id, hand.message_id, data, strict=False)
        assert (answer.text, answer.show_alert) == (expected, True), data
    await h.settle()
    after = (await h.svc.settings.settings(chat_key(h.group.id)), await h.storage.get_game(game_id))
    assert after == before
    others = [
        c.method
        for c in h.api.calls()[calls:]
        if not c.is_("getUpdates") and not c.is_("answerCallbackQuery")
    ]
    assert others == []
    assert h.api.message(player.id, hand.message_id).buttons == hand.buttons
