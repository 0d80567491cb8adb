"""The one button-key grammar: every key round-trips, every number is range-checked, and the
longest keys the bot makes fit both platforms' limits."""

from __future__ import annotations

import pytest

from bot.presentation.buttons import (
    DISCORD_LIMIT,
    LEVEL_OPS,
    MAX_ID,
    TELEGRAM_LIMIT,
    CardsKey,
    HandKey,
    HandMenuKey,
    Key,
    LobbyKey,
    RematchKey,
    SettingKey,
    number,
    pack,
    parse,
)
from core.ai import Level

KEYS: list[Key] = [
    HandKey(1, 0, "draw"),
    HandKey(123456, 98765, "play wild4 g"),
    HandKey(7, 3, "pick play wild4"),
    HandKey(7, 3, "pick play r7"),
    HandKey(7, 3, "play r7 @123456789"),
    HandKey(7, 3, "play r7 @ai:2"),
    HandKey(7, 3, "back"),
    HandKey(7, 3, "page 2"),
    HandMenuKey(7, 3, 1),
    LobbyKey(5, "join"),
    LobbyKey(5, "addbot"),
    LobbyKey(5, "start"),
    LobbyKey(5, "easy"),
    LobbyKey(5, "strong"),
    RematchKey(9),
    CardsKey(9),
    SettingKey("preset", "house"),
    SettingKey("jump_in", "on"),
    SettingKey("toggle"),
]


@pytest.mark.parametrize("key", KEYS, ids=str)
def test_every_key_round_trips_on_both_platforms(key: Key) -> None:
    for limit in (TELEGRAM_LIMIT, DISCORD_LIMIT):
        assert parse(pack(key, limit)) == key


def test_numbers_are_range_checked() -> None:
    assert number("0") == 0 and number(str(MAX_ID)) == MAX_ID == 2**63 - 1
    for text in (str(2**63), str(2**64), "9" * 19, "9" * 40, "-1", "+1", "1e3", " 1", "1 ", "",
                 "١٢", "0x10", "1_000"):  # fmt: skip
        assert number(text) is None, text


@pytest.mark.parametrize(
    "data",
    [
        f"h:{2**63}:0:draw",
        f"h:0:{2**63}:draw",
        "h:-1:0:draw",
        "h:1:-1:draw",
        "h:abc:0:draw",
        "h:1:2:",
        "h:1:2",
        "h:1:2:DRAW",
        "h:1:2:draw\n",
        "h:1:2:page x",
        "h:1:2:page 100",
        f"hm:{2**63}:0:0",
        "hm:1:2:100",
        f"l:{2**63}:join",
        "l:1:explode",
        "l:1:medium",
        "l:1:STRONG",
        "l:1:strong ",
        "l:1:easy:strong",
        "l:1",
        f"r:{2**63}",
        "r:",
        "r:1:2",
        "t:-5",
        "t:",
        "s:",
        "s:preset:",
        "s:Preset:house",
        "x:1",
        "",
        "uno:h:1:2:draw",
    ],
)
def test_forged_and_out_of_range_keys_do_not_parse(data: str) -> None:
    assert parse(data) is None


def test_ids_at_the_limit_parse() -> None:
    assert parse(f"h:{MAX_ID}:{MAX_ID}:draw") == HandKey(MAX_ID, MAX_ID, "draw")
    assert parse(f"r:{MAX_ID}") == RematchKey(MAX_ID)
    assert parse("h:0:0:draw") == HandKey(0, 0, "draw")


def test_the_longest_keys_fit_discord() -> None:
    """Discord ids are 19 digits at most (below 2**63): a 7's target with every number at its
    largest still fits a custom id."""
    longest = HandKey(MAX_ID, MAX_ID, f"play wild4 g @{MAX_ID}"[:60])
    assert len(pack(HandKey(MAX_ID, MAX_ID, f"play r7 @{MAX_ID}"), DISCORD_LIMIT)) <= 100
    assert len(pack(HandMenuKey(MAX_ID, MAX_ID, 99), DISCORD_LIMIT)) <= 100
    assert len(longest.pack()) <= DISCORD_LIMIT


def test_telegram_data_is_counted_in_bytes_and_refused_over_64() -> None:
    fits = HandKey(MAX_ID, MAX_ID, "play wild4 g")
    assert len(pack(fits, TELEGRAM_LIMIT).encode()) <= 64
    # A Telegram user id (up to 52 bits) as a 7's target, with a game id and version of the
    # sizes a real bot reaches.
    assert pack(HandKey(10**9, 10**6, f"play r7 @{2**52}"), TELEGRAM_LIMIT)
    with pytest.raises(ValueError):
        pack(HandKey(MAX_ID, MAX_ID, f"play r7 @{2**52}"), TELEGRAM_LIMIT)
    with pytest.raises(ValueError):
        pack(HandKey(1, 1, "wild:wild4 ü"), DISCORD_LIMIT)  # not a key `parse` gives back


def test_a_hand_key_says_what_a_press_means() -> None:
    assert HandKey(1, 2, "play r7").is_move and HandKey(1, 2, "draw").is_move
    assert HandKey(1, 2, "pick play wild4").opens == "play wild4"
    assert not HandKey(1, 2, "pick play wild4").is_move
    assert not HandKey(1, 2, "back").is_move and HandKey(1, 2, "back").opens is None
    assert HandKey(1, 2, "page 3").page == 3 and not HandKey(1, 2, "page 3").is_move
    assert HandMenuKey(1, 2, 0).choose("play r7") == HandKey(1, 2, "play r7")
    assert HandMenuKey(1, 2, 0).choose("PLAY r7") is None


def test_a_level_button_asks_for_the_level_it_wants() -> None:
    """Not a toggle: the key names the level, so a second press of the same button asks for the
    same level again instead of switching back."""
    assert LEVEL_OPS == ("easy", "strong")
    assert parse("l:7:strong") == LobbyKey(7, "strong")
    assert LobbyKey(7, "strong").level is Level.STRONG and LobbyKey(7, "easy").level is Level.EASY
    for op in ("join", "addbot", "start"):
        assert LobbyKey(7, op).level is None
    assert LobbyKey.switch_level(7, Level.EASY) == LobbyKey(7, "strong")
    assert LobbyKey.switch_level(7, Level.STRONG) == LobbyKey(7, "easy")
