"""A lobby's life in the outbox (issue 15): its creation writes an entry like every other commit
the chat sees, so a process that dies between `/new` and the lobby message leaves the lobby to a
delivery loop, which shows it from the latest state and may send it new (`Entries.opened`).
Every later commit of the lobby writes one entry too, and a settings change in the lobby (or
in a running game) stores the game (with its entry) before the settings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import Outcome, Service
from bot.service.outbox import LEASE
from bot.storage import Storage, StorageError
from core.rules import Rules
from tests.service.conftest import ALICE, BORIS, GLEB, FakeClock
from tests.service.test_rematch import finished_match
from tests.service.test_service import CHAT, started


def ids(out: Outcome) -> list[int]:
    assert out.outbox is not None, out
    return out.outbox.ids


async def test_opening_a_lobby_writes_an_entry_shown_again_after_a_crash(
    service: Service, clock: FakeClock
) -> None:
    service.outbox.deliver("tg:")
    opened = await service.lobby.new_game(CHAT, ALICE)
    assert opened.ok and opened.table is not None and len(ids(opened)) == 1
    assert await service.outbox.claim("tg:") == []  # this process's own claim still runs
    # The process dies before the lobby message went out: once the claim ran out, a delivery
    # loop gets the lobby from the stored state, as the first message of its game.
    clock.advance(LEASE)
    [again] = await service.outbox.claim("tg:")
    assert ids(again) == ids(opened)
    assert again.outbox is not None and again.outbox.opened and not again.outbox.dealt
    assert again.table == opened.table
    assert (again.lang, again.names) == ("ru", {ALICE.id: ALICE.name})
    assert not again.events and not again.announcements and not again.hands
    await service.outbox.finish(again)
    clock.advance(LEASE)
    assert await service.outbox.claim("tg:") == []  # shown once


async def test_a_lobby_joined_before_its_redelivery_is_still_sent_new(
    service: Service, clock: FakeClock
) -> None:
    """Another process took a /join meanwhile (a member typed it, seeing no lobby): the
    re-delivery shows the lobby as it is now, and still as its first message."""
    service.outbox.deliver("tg:")
    opened = await service.lobby.new_game(CHAT, ALICE)
    joined = await service.lobby.join(CHAT, BORIS)
    await service.outbox.finish(joined)
    clock.advance(LEASE)
    [again] = await service.outbox.claim("tg:")
    assert ids(again) == ids(opened)
    assert again.table is not None and again.table.version == 1
    assert [s.id for s in again.table.seats] == [ALICE.id, BORIS.id]
    assert again.outbox is not None and again.outbox.opened


async def test_a_rematch_lobby_writes_its_entry_too(service: Service, clock: FakeClock) -> None:
    service.outbox.deliver("tg:")
    await finished_match(service)
    clock.advance(LEASE)
    for out in await service.outbox.claim("tg:"):
        await service.outbox.finish(out)
    rematch = await service.lobby.rematch(CHAT, BORIS)
    assert rematch.ok and len(ids(rematch)) == 1
    clock.advance(LEASE)
    [again] = await service.outbox.claim("tg:")
    assert again.outbox is not None and again.outbox.opened
    assert again.table == rematch.table


LOBBY_COMMITS: dict[str, Callable[[Service], Awaitable[Outcome]]] = {
    "join": lambda s: s.lobby.join(CHAT, GLEB),
    "add a computer player": lambda s: s.lobby.add_bot(CHAT, ALICE),
    "close": lambda s: s.lobby.set_closed(CHAT, ALICE, True),
    "settings": lambda s: s.settings.change_setting(CHAT, ALICE, "preset", "house"),
    "switch": lambda s: s.settings.toggle_setting(CHAT, ALICE, "colorblind"),
    "leave": lambda s: s.lobby.leave(CHAT, BORIS),
    "kick": lambda s: s.lobby.kick(CHAT, ALICE, BORIS.id),
    "start": lambda s: s.lobby.start_game(CHAT, ALICE),
    "kill": lambda s: s.lobby.kill(CHAT, ALICE),
}


@pytest.mark.parametrize("case", LOBBY_COMMITS)
async def test_every_commit_of_a_lobby_writes_one_entry(
    service: Service, clock: FakeClock, case: str
) -> None:
    service.outbox.deliver("tg:")
    await service.outbox.finish(await service.lobby.new_game(CHAT, ALICE))
    await service.outbox.finish(await service.lobby.join(CHAT, BORIS))
    out = await LOBBY_COMMITS[case](service)
    assert out.ok and len(ids(out)) == 1
    clock.advance(LEASE)
    [again] = await service.outbox.claim("tg:")
    assert ids(again) == ids(out)
    assert again.table is not None and again.table == out.table
    assert again.outbox is not None and not again.outbox.opened  # its lobby went out before


async def test_a_lobby_settings_change_stores_the_lobby_first(
    service: Service, storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby (with its entry) is stored before the settings: if the settings then fail (or
    the process dies), the chat is shown the lobby with the settings that were stored."""
    service.outbox.deliver("tg:")
    await service.outbox.finish(await service.lobby.new_game(CHAT, ALICE))

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(storage, "put_settings", broken)
    out = await service.settings.change_setting(CHAT, ALICE, "preset", "house")
    assert out.error is not None and out.error.key == "error-storage"
    monkeypatch.undo()
    clock.advance(LEASE)
    [again] = await service.outbox.claim("tg:")
    assert again.table is not None and again.table.rules == Rules.preset("classic")
    await service.outbox.finish(again)
    # Stored both: the re-delivery reads the settings as they are when it shows the lobby.
    changed = await service.settings.change_setting(CHAT, ALICE, "preset", "house")
    assert changed.ok and changed.table is not None
    clock.advance(LEASE)
    [again] = await service.outbox.claim("tg:")
    assert again.table is not None and again.table.rules == Rules.preset("house")


async def test_a_settings_change_mid_game_writes_an_entry(
    service: Service, clock: FakeClock
) -> None:
    """The table shows some settings (here the colorblind marks): a change mid-game is stored
    with the game and its entry, so a process that dies before the table showed it leaves it to
    a delivery loop (no move was made: the hands' buttons stay current)."""
    service.outbox.deliver("tg:")
    await started(service, ALICE, BORIS)
    clock.advance(LEASE)
    for shown in await service.outbox.claim("tg:"):  # the lobby and the deal went out
        await service.outbox.finish(shown)
    hand = (await service.queries.hand(ALICE, chat_key=CHAT)).hands[ALICE.id]
    changed = await service.settings.change_setting(CHAT, ALICE, "colorblind", "on")
    assert changed.ok and len(ids(changed)) == 1
    assert changed.table is not None and changed.table.colorblind
    clock.advance(LEASE)
    [again] = await service.outbox.claim("tg:")
    assert ids(again) == ids(changed) and again.table == changed.table
    assert not again.events and not again.announcements
    assert (await service.queries.hand(ALICE, chat_key=CHAT)).hands[
        ALICE.id
    ].version == hand.version
