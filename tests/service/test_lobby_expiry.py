"""An idle lobby closes by itself through the stored deadline, and the chat is told so.

A lobby that nobody starts would otherwise block its chat (one open game per chat) until
someone used /kill.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.config import Settings
from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, Service
from bot.service.deadlines import DEFAULT_LOBBY_IDLE
from bot.storage import Storage
from tests.service.conftest import ALICE, BORIS, VIKA, FakeClock
from tests.service.test_service import CHAT, lobby

IDLE = DEFAULT_LOBBY_IDLE


def expired(out: Outcome, minutes: int = 30) -> bool:
    return out.notices == [Notice("info-lobby-expired", {"minutes": minutes})]


async def test_an_idle_lobby_expires_and_the_chat_can_start_again(
    service: Service, clock: FakeClock, renderer: Renderer
) -> None:
    await lobby(service, ALICE, BORIS)
    assert service.clock.next_deadline() == pytest.approx(clock() + IDLE)
    clock.advance(IDLE - 1)
    assert await service.clock.run_due() == []
    assert await service.storage.active_game(CHAT) is not None
    clock.advance(2)
    [out] = await service.clock.run_due()
    assert expired(out)
    assert out.chat_key == CHAT and out.table is not None and out.table.status == "killed"
    assert await service.storage.active_game(CHAT) is None
    assert service.clock.next_deadline() is None
    # Posted with the announcements, the way every adapter publishes a timer's outcome.
    text = renderer.t("ru", "info-lobby-expired", minutes=30)
    assert "30 минут" in text and "/new" in text
    assert renderer.announcements(out) == [text]
    assert (await service.lobby.new_game(CHAT, BORIS)).ok


async def test_the_notice_is_in_the_chats_language_with_the_minutes(
    storage: Storage, clock: FakeClock, renderer: Renderer
) -> None:
    service = Service(storage, clock=clock, lobby_idle=21 * 60)
    assert (await service.lobby.new_game(CHAT, VIKA)).ok  # a Ukrainian chat
    clock.advance(21 * 60)
    [out] = await service.clock.run_due()
    assert out.lang == "uk" and expired(out, minutes=21)
    assert renderer.announcements(out) == [renderer.t("uk", "info-lobby-expired", minutes=21)]
    assert "21 хвилину" in renderer.announcements(out)[0]


Touch = Callable[[Service], Awaitable[Outcome]]
TOUCHES: dict[str, Touch] = {
    "join": lambda s: s.lobby.join(CHAT, VIKA),
    "add a robot": lambda s: s.lobby.add_bot(CHAT, ALICE),
    "leave": lambda s: s.lobby.leave(CHAT, BORIS),
    "kick": lambda s: s.lobby.kick(CHAT, ALICE, BORIS.id),
    "close": lambda s: s.lobby.set_closed(CHAT, ALICE, True),
    "settings": lambda s: s.settings.change_setting(CHAT, ALICE, "preset", "house"),
    "switch": lambda s: s.settings.toggle_setting(CHAT, ALICE, "colorblind"),
}


@pytest.mark.parametrize("touch", TOUCHES.values(), ids=TOUCHES.keys())
async def test_any_change_to_the_lobby_restarts_its_idle_time(
    service: Service, clock: FakeClock, touch: Touch
) -> None:
    await lobby(service, ALICE, BORIS)
    clock.advance(IDLE - 60)
    assert (await touch(service)).ok
    clock.advance(IDLE - 60)
    assert await service.clock.run_due() == []
    assert await service.storage.active_game(CHAT) is not None
    clock.advance(61)
    [out] = await service.clock.run_due()
    assert expired(out)


async def test_a_started_game_is_not_expired_as_a_lobby(service: Service, clock: FakeClock) -> None:
    await lobby(service, ALICE, BORIS)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "off")).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    assert service.clock.next_deadline() is None
    clock.advance(IDLE + 1)
    assert await service.clock.run_due(math.inf) == []
    rec = await service.storage.active_game(CHAT)
    assert rec is not None and rec.status == "running"


async def test_the_expiry_survives_a_restart(db_path: Path, clock: FakeClock) -> None:
    store = await Storage.open(db_path, clock=clock)
    await lobby(Service(store, clock=clock), ALICE, BORIS)
    rec = await store.active_game(CHAT)
    assert rec is not None and rec.deadline == pytest.approx(clock() + IDLE)
    await store.close()
    store = await Storage.open(db_path, clock=clock)
    try:
        service = Service(store, clock=clock)
        await service.start()
        assert service.clock.next_deadline() == rec.deadline
        clock.advance(IDLE + 1)
        [out] = await service.clock.run_due()
        assert expired(out)
        assert (await service.lobby.new_game(CHAT, ALICE)).ok
    finally:
        await store.close()


async def test_a_lobby_stored_without_a_deadline_expires_after_a_restart(
    storage: Storage, clock: FakeClock
) -> None:
    # A lobby opened before lobbies had a deadline: idle since its last change.
    meta = {"creator": ALICE.id, "players": [ALICE.id], "names": {ALICE.id: ALICE.name}}
    await storage.create_game(CHAT, {**meta, "closed": False, "bots": 0})
    clock.advance(IDLE / 2)
    service = Service(storage, clock=clock)
    await service.start()
    assert service.clock.next_deadline() == pytest.approx(clock() + IDLE / 2)
    clock.advance(IDLE / 2 + 1)
    [out] = await service.clock.run_due()
    assert expired(out)


@pytest.mark.parametrize(("minutes", "seconds"), [(None, IDLE), ("5", 300.0), ("0", None)])
def test_the_idle_time_is_set_in_minutes(
    monkeypatch: pytest.MonkeyPatch, minutes: str | None, seconds: float | None
) -> None:
    monkeypatch.delenv("LOBBY_IDLE_MINUTES", raising=False)
    if minutes is not None:
        monkeypatch.setenv("LOBBY_IDLE_MINUTES", minutes)
    assert Settings(_env_file=None).lobby_idle == seconds  # type: ignore[call-arg]


async def test_lobbies_can_be_left_open_for_good(storage: Storage, clock: FakeClock) -> None:
    service = Service(storage, clock=clock, lobby_idle=None)
    await lobby(service, ALICE, BORIS)
    assert service.clock.next_deadline() is None
    assert await service.clock.run_due(math.inf) == []
    assert await storage.active_game(CHAT) is not None
