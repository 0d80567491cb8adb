"""Odd input at the service's entry points, on both databases: names and ids no platform
should send, chat keys and person keys that cannot be stored. Each is a clear refusal or a
name shown with its unstorable characters replaced; none raises, none is logged as an error,
and a refused one writes nothing."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Service, User, chat_keys
from bot.service.identity import REPLACEMENT, is_person, person_id, storable
from bot.storage import StoragePort
from core.game import Game
from tests.service.conftest import ALICE, BORIS, FakeClock

SURROGATE = "\ud800"
ODD_IDS = {
    "empty": "",
    "space": " ",
    "padded": " 1005",
    "nul": "10\x0005",
    "surrogate": "10" + SURROGATE,
    "line break": "10\n05",
    "a computer player's": "ai:1",
    "too long": "9" * 200,
}
ODD_NAMES = {
    "surrogate": "Ал" + SURROGATE + "иса",
    "low surrogate": "\udc00Глеб",
    "nul": "Бо\x00рис",
    "empty": "",
    "long": "Я" * 10_000,
}
ODD_KEYS = {
    "empty": "",
    "nul": "tg:\x00",
    "surrogate": "tg:" + SURROGATE,
    "long": "tg:" + "1" * 300,
}


@pytest.fixture
async def svc(store: StoragePort, clock: FakeClock) -> Service:
    service = Service(store, clock=clock, bot_delay=2.0, seed=lambda: 4242)
    await service.start()
    return service


@pytest.fixture(autouse=True)
def no_errors(caplog: pytest.LogCaptureFixture) -> Any:
    yield
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def lobby_of(svc: Service, chat: str, *users: User) -> None:
    assert (await svc.lobby.new_game(chat, users[0])).ok
    for user in users[1:]:
        assert (await svc.lobby.join(chat, user)).ok


# ---------------------------------------------------------------------- ids


@pytest.mark.parametrize("odd", ODD_IDS)
async def test_an_id_no_person_has_is_refused_as_a_stale_button(
    svc: Service, store: StoragePort, odd: str
) -> None:
    stranger = User(ODD_IDS[odd], "Незнакомец", "ru")
    chat = "tg:-1001"
    refusals = [
        await svc.lobby.new_game(chat, stranger),
        await svc.lobby.rematch(chat, stranger),
    ]
    assert await store.active_game(chat) is None  # nothing was opened for them
    await lobby_of(svc, chat, ALICE, BORIS)
    refusals += [
        await svc.lobby.join(chat, stranger),
        await svc.lobby.start_game(chat, stranger, is_admin=True),
        await svc.lobby.kill(chat, stranger, is_admin=True),
        await svc.settings.change_setting(chat, stranger, "timer", "off", is_admin=True),
    ]
    assert (await svc.lobby.start_game(chat, ALICE)).ok  # the lobby is as it was: two people
    game_id = (await svc.queries.table(chat)).table.game_id  # type: ignore[union-attr]
    refusals += [
        await svc.play.act(stranger, "draw", chat_key=chat),
        await svc.play.act(stranger, "draw", game_id=game_id, version=1),
        await svc.queries.hand(stranger, game_id=game_id),
        await svc.play.uno(chat, stranger),
    ]
    assert [o.error.key if o.error else None for o in refusals] == ["error-stale"] * len(refusals)
    record = await store.active_game(chat)
    assert record is not None and record.status == "running"
    assert sorted(Game.from_dict(record.state).players) == sorted([ALICE.id, BORIS.id])  # type: ignore[arg-type]
    await svc.settings.set_personal(ODD_IDS[odd], dm=True)
    assert await svc.settings.personal(ODD_IDS[odd]) in ({"dm": True}, {})  # {}: kept nowhere


@pytest.mark.parametrize(
    ("platform", "number", "kept"),
    [
        (chat_keys.TELEGRAM, 1, True),
        (chat_keys.TELEGRAM, 2**52 - 1, True),
        (chat_keys.TELEGRAM, 2**52, False),
        (chat_keys.TELEGRAM, 0, False),
        (chat_keys.TELEGRAM, -5, False),
        (chat_keys.DISCORD, 2**64 - 1, True),
        (chat_keys.DISCORD, 2**64, False),
        (chat_keys.DISCORD, 0, False),
    ],
)
def test_a_platforms_id_out_of_its_range_is_no_id(platform: str, number: int, kept: bool) -> None:
    user = User.of(platform, number, "Алиса", "ru")
    assert user.id == (str(number) if kept else "")
    assert is_person(user.id) == kept
    assert person_id(platform, number) == user.id


# ---------------------------------------------------------------------- names


@pytest.mark.parametrize("odd", ODD_NAMES)
async def test_a_name_is_stored_and_shown_with_what_cannot_be_stored_replaced(
    svc: Service, store: StoragePort, odd: str
) -> None:
    name = ODD_NAMES[odd]
    odd_one = User("1005", name, "ru")
    chat = "tg:-1002"
    await lobby_of(svc, chat, odd_one, ALICE)
    assert (await svc.settings.change_setting(chat, odd_one, "timer", "off")).ok
    started = await svc.lobby.start_game(chat, odd_one)
    assert started.ok
    shown = started.names[odd_one.id]
    assert shown == storable(name) and (SURROGATE not in shown) and ("\x00" not in shown)
    if name != storable(name):
        assert REPLACEMENT in shown
    # Played to the end, so that the name reaches the statistics too (PostgreSQL's text).
    out = started
    for _ in range(3000):
        table = out.table
        assert table is not None
        if table.status != "running":
            break
        player = {odd_one.id: odd_one, ALICE.id: ALICE}[table.current]  # type: ignore[index]
        view = (await svc.queries.hand(player, chat_key=chat)).hands[player.id]
        choice = view.choices[0]
        action = choice.colors[0] if choice.colors else choice.action
        out = await svc.play.act(player, action, chat_key=chat)
        assert out.ok, out.error
    assert out.table is not None and out.table.status == "finished"
    stats = await store.player_stats(chat, odd_one.id)
    assert stats is not None and stats.name == storable(name)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=st.text(st.characters(codec=None, categories=None), max_size=40))
async def test_any_name_can_join(svc: Service, name: str) -> None:
    """Whatever text a platform sends as a name, with lone surrogates and NULs among it."""
    chat = f"tg:-{abs(hash(name)) % 10**9 + 10}"
    user = User("1006", name, "ru")
    await svc.lobby.kill(chat, ALICE, is_admin=True)
    await lobby_of(svc, chat, ALICE, user)
    table = (await svc.queries.table(chat)).names
    assert table[user.id] == storable(name)


# ---------------------------------------------------------------------- keys


ENTRY_POINTS: dict[str, Callable[[Service, str], Awaitable[object]]] = {
    "new": lambda svc, key: svc.lobby.new_game(key, ALICE),
    "table": lambda svc, key: svc.queries.table(key),
    "lang": lambda svc, key: svc.settings.lang(key, "uk"),
    "settings": lambda svc, key: svc.settings.settings(key),
    "leaderboard": lambda svc, key: svc.statistics.leaderboard(key),
    "personal": lambda svc, key: svc.settings.personal(key),
    "toggle personal": lambda svc, key: svc.settings.toggle_personal(key, "dm", default=False),
    "games of": lambda svc, key: svc.queries.games_of(key),
}


@pytest.mark.parametrize("odd", ODD_KEYS)
@pytest.mark.parametrize("entry", ENTRY_POINTS)
async def test_a_key_that_cannot_be_stored_names_nothing(
    svc: Service, store: StoragePort, entry: str, odd: str
) -> None:
    await ENTRY_POINTS[entry](svc, ODD_KEYS[odd])
    assert await store.open_games() == []
