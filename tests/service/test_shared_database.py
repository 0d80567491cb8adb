"""Several bot processes over one database (issue 15), as the service sees it: settings another
process changed are seen within the TTL, switches flip from what is stored, a turn that begins
is named by the outcome (no adapter memory needed), and a deadline is acted on by one process.
"""

from __future__ import annotations

import asyncio

from bot.service import Service
from bot.storage import Storage
from core.game import Game
from tests.service.conftest import ALICE, BORIS, FakeClock
from tests.service.test_service import CHAT, install, started

TTL = 5.0


def two_processes(storage: Storage, clock: FakeClock) -> tuple[Service, Service]:
    """Two services over one database, as two bot processes (the settings TTL runs on the
    services' clock)."""
    a, b = (Service(storage, clock=clock, settings_ttl=TTL) for _ in range(2))
    return a, b


async def test_another_processs_settings_change_is_seen_within_the_ttl(
    storage: Storage, clock: FakeClock
) -> None:
    a, b = two_processes(storage, clock)
    await started(a, ALICE, BORIS)
    assert (await b.settings.settings(CHAT)).timer == 90  # cached in b now
    assert (await a.settings.change_setting(CHAT, ALICE, "timer", "30")).ok
    assert (await b.settings.settings(CHAT)).timer == 90  # within the TTL: b's copy
    clock.advance(TTL + 1)
    assert (await b.settings.settings(CHAT)).timer == 30


async def test_a_switch_flips_what_is_stored_not_what_this_process_remembers(
    storage: Storage, clock: FakeClock
) -> None:
    a, b = two_processes(storage, clock)
    await started(a, ALICE, BORIS)
    assert (
        not (await a.settings.settings(CHAT)).colorblind
        and not (await b.settings.settings(CHAT)).colorblind
    )
    # Two presses, each handled by another process: two flips, whatever each one cached.
    assert (await a.settings.toggle_setting(CHAT, ALICE, "colorblind")).ok
    out = await b.settings.toggle_setting(CHAT, ALICE, "colorblind")
    assert out.settings is not None and not out.settings.colorblind
    assert await a.settings.toggle_personal("tg:1", "dm_hands", default=False) is True
    assert await b.settings.toggle_personal("tg:1", "dm_hands", default=False) is False


async def test_the_outcome_names_the_player_whose_turn_began(
    service: Service, storage: Storage
) -> None:
    await started(service, ALICE, BORIS)
    game = Game.from_position(
        [ALICE.id, BORIS.id], {ALICE.id: "r5 g7 y2", BORIS.id: "r4 b1 g3"}, "r1",
        "r9 y4 y5 y6 y7", current=ALICE.id,
    )  # fmt: skip
    await install(service, storage, game)
    out = await service.play.act(ALICE, "play r5", chat_key=CHAT)
    assert out.ok and out.turn_began == BORIS.id
    out = await service.play.act(BORIS, "draw", chat_key=CHAT)  # r9: playable, still Boris's turn
    assert out.ok and out.turn_began is None
    out = await service.play.act(BORIS, "play r9", chat_key=CHAT)
    assert out.ok and out.turn_began == ALICE.id


async def test_a_due_deadline_is_acted_on_by_one_process_only(
    storage: Storage, clock: FakeClock
) -> None:
    a, b = two_processes(storage, clock)
    await started(a, ALICE, bots=1)
    await b.start()  # b knows the deadline too, as a process started after the move would
    rec = await storage.active_game(CHAT)
    assert rec is not None
    rounds = 0
    while await storage.active_game(CHAT) is not None and rounds < 10:
        clock.advance(3600)  # past any deadline: a computer move or a turn timeout is due
        done = await asyncio.gather(a.clock.run_due(), b.clock.run_due())
        assert len(done[0]) + len(done[1]) == 1, done
        rounds += 1
    assert rounds >= 2
    # Each deadline made one commit, by whichever process claimed it.
    versions = [e.version for e in await storage.log(rec.id)]
    assert versions == sorted(set(versions)) or len(set(versions)) == rounds + 1
