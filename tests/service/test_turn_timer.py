"""The turn timer restarts only when a turn begins (see `bot.service.deadlines.new_turn`).

A catch, an UNO call, someone leaving or a computer player's move out of turn must not give the
player to act a fresh deadline: otherwise anyone could keep another player's timer from ever
running out. A change of the chat's timer setting does give one
(`bot.service.deadlines.fresh_turn`), and a timeout that takes out the last person tells the chat
why the game stopped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, Service, User
from bot.storage import Storage
from core.events import Passed, PlayerLeft, UnoCaught
from core.game import Game
from core.rules import Rules
from tests.service.conftest import ALICE, BORIS, VIKA, FakeClock
from tests.service.test_service import CHAT, install, lobby, position, state

TIMER = 30
ROBOT = "ai:1"
# Alice is about to play her second-to-last card, Boris is next.
HANDS = {ALICE.id: "r5 r7", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"}


async def timed_game(service: Service, game: Game, *, bots: int = 0) -> None:
    """A running game with a 30-second turn timer, in the position `game`."""
    humans = [u for u in (ALICE, BORIS, VIKA) if u.id in game.players]
    await lobby(service, *humans, bots=bots)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", str(TIMER))).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await install(service, service.storage, game)


async def times_out(service: Service, clock: FakeClock, at: float, player: str) -> None:
    """Nothing happens before `at`; then `player` times out (draws if need be, and passes)."""
    assert service.clock.next_deadline() == pytest.approx(at)
    clock.advance(at - clock() - 1)
    assert await service.clock.run_due() == []
    clock.advance(2)
    [out] = await service.clock.run_due()
    assert [e.player for e in out.events if isinstance(e, Passed)][:1] == [player]
    assert Game.from_dict(await state(service.storage)).current_player != player


async def test_a_catch_keeps_the_deadline_of_the_player_to_act(
    service: Service, clock: FakeClock
) -> None:
    await timed_game(service, position(hands=HANDS))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok  # and forgets UNO
    boris_deadline = clock() + TIMER
    clock.advance(20)
    caught = await service.play.uno(CHAT, VIKA)
    assert any(isinstance(e, UnoCaught) for e in caught.events)
    await times_out(service, clock, boris_deadline, BORIS.id)


async def test_an_uno_call_out_of_turn_keeps_the_deadline(
    service: Service, clock: FakeClock
) -> None:
    await timed_game(service, position(hands=HANDS))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    boris_deadline = clock() + TIMER
    clock.advance(20)
    assert (await service.play.uno(CHAT, ALICE)).ok  # her own call, right after the play
    await times_out(service, clock, boris_deadline, BORIS.id)


async def test_someone_leaving_out_of_turn_keeps_the_deadline(
    service: Service, clock: FakeClock
) -> None:
    await timed_game(service, position(hands=HANDS))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    boris_deadline = clock() + TIMER
    clock.advance(20)
    assert (await service.lobby.leave(CHAT, VIKA)).ok
    await times_out(service, clock, boris_deadline, BORIS.id)


async def test_drawing_a_playable_card_keeps_the_deadline(
    service: Service, clock: FakeClock
) -> None:
    hands = {ALICE.id: "r5 r7", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"}
    await timed_game(service, position(hands=hands, draw="r3 y4 y5 y6"))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    boris_deadline = clock() + TIMER
    clock.advance(10)
    assert (await service.play.act(BORIS, "draw", chat_key=CHAT)).ok  # r3: he may play it
    assert Game.from_dict(await state(service.storage)).current_player == BORIS.id
    await times_out(service, clock, boris_deadline, BORIS.id)


async def test_a_computer_players_catch_keeps_the_deadline_also_after_a_restart(
    db_path: Path, clock: FakeClock
) -> None:
    store = await Storage.open(db_path, clock=clock)
    service = Service(store, clock=clock, bot_delay=2.0, seed=lambda: 5)
    hands = {ALICE.id: "r5 r7", BORIS.id: "b5 y1 y2", ROBOT: "g9 g8 g7"}
    await timed_game(service, position(players=[ALICE.id, BORIS.id, ROBOT], hands=hands), bots=1)
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    boris_deadline = clock() + TIMER
    assert service.clock.next_deadline() == pytest.approx(clock() + 2.0)  # the robot catches first
    clock.advance(2.0)
    [out] = await service.clock.run_due()
    assert [(e.catcher, e.player) for e in out.events if isinstance(e, UnoCaught)] == [
        (ROBOT, ALICE.id)
    ]
    assert service.clock.next_deadline() == pytest.approx(boris_deadline)
    await store.close()
    store = await Storage.open(db_path, clock=clock)
    try:
        service = Service(store, clock=clock, bot_delay=2.0)
        await service.start()
        await times_out(service, clock, boris_deadline, BORIS.id)
    finally:
        await store.close()


async def test_each_play_starts_a_turn_even_for_the_same_player(
    service: Service, clock: FakeClock
) -> None:
    # Two players: Reverse and Skip give Alice the next turn too, each with a full timer.
    two = position(
        players=[ALICE.id, BORIS.id],
        hands={ALICE.id: "r5 rrev rskip g2", BORIS.id: "r9 y1 y2"},
        current=BORIS.id,
    )
    await timed_game(service, two)
    assert (await service.play.act(BORIS, "play r9", chat_key=CHAT)).ok
    assert service.clock.next_deadline() == pytest.approx(clock() + TIMER)
    for card in ("rrev", "rskip"):
        clock.advance(20)
        assert (await service.play.act(ALICE, f"play {card}", chat_key=CHAT)).ok
        assert Game.from_dict(await state(service.storage)).current_player == ALICE.id
        assert service.clock.next_deadline() == pytest.approx(clock() + TIMER)
    await times_out(service, clock, clock() + TIMER, ALICE.id)


async def test_a_jump_in_that_hands_the_turn_back_starts_a_new_one(
    service: Service, clock: FakeClock
) -> None:
    hands = {ALICE.id: "r7 r7 g2", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"}
    await timed_game(service, position(hands=hands, rules=Rules.preset("house")))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    clock.advance(20)
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok  # jumps in on Boris's turn
    assert Game.from_dict(await state(service.storage)).current_player == BORIS.id
    await times_out(service, clock, clock() + TIMER, BORIS.id)


# ---------------------------------------------------------------------- the timer setting changes


async def test_the_timer_switched_off_and_on_gives_a_fresh_full_timer(
    service: Service, clock: FakeClock
) -> None:
    await timed_game(service, position(hands=HANDS))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok  # and forgets UNO
    clock.advance(20)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "off")).ok
    assert service.clock.next_deadline() is None
    clock.advance(100)  # Boris's old deadline is long past
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", str(TIMER))).ok
    fresh = clock() + TIMER
    assert service.clock.next_deadline() == pytest.approx(fresh)
    # A move that keeps the turn keeps the new deadline: Boris does not time out at once.
    caught = await service.play.uno(CHAT, VIKA)
    assert any(isinstance(e, UnoCaught) for e in caught.events)
    assert await service.clock.run_due() == []
    await times_out(service, clock, fresh, BORIS.id)


@pytest.mark.parametrize("seconds", [120, 60])
async def test_a_new_timer_length_runs_from_the_change(
    service: Service, clock: FakeClock, seconds: int
) -> None:
    await timed_game(service, position(hands=HANDS))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    clock.advance(20)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", str(seconds))).ok
    fresh = clock() + seconds
    assert (await service.play.uno(CHAT, ALICE)).ok  # her own call keeps the turn
    await times_out(service, clock, fresh, BORIS.id)
    # The next turn runs on the new timer too.
    assert service.clock.next_deadline() == pytest.approx(clock() + seconds)


async def test_a_computer_player_about_to_move_keeps_its_moment(
    service: Service, clock: FakeClock
) -> None:
    hands = {ALICE.id: "r5 r7", BORIS.id: "b5 y1 y2", ROBOT: "g9 g8 g7"}
    await timed_game(service, position(players=[ALICE.id, BORIS.id, ROBOT], hands=hands), bots=1)
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok  # forgets UNO
    clock.advance(1.0)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "60")).ok
    fresh = clock() + 60
    assert service.clock.next_deadline() == pytest.approx(clock() + 1.0)  # the robot's catch
    clock.advance(1.0)
    [out] = await service.clock.run_due()
    assert any(isinstance(e, UnoCaught) for e in out.events)
    assert service.clock.next_deadline() == pytest.approx(fresh)


# ---------------------------------------------------------------------- the last person times out


@pytest.mark.parametrize(("creator", "lang"), [(ALICE, "ru"), (VIKA, "uk")])
async def test_the_chat_is_told_when_a_timeout_takes_out_the_last_person(
    service: Service, clock: FakeClock, renderer: Renderer, creator: User, lang: str
) -> None:
    await lobby(service, creator, bots=2)
    assert (await service.settings.change_setting(CHAT, creator, "timer", str(TIMER))).ok
    assert (await service.lobby.start_game(CHAT, creator)).ok
    outs: list[Outcome] = []
    for _ in range(100):
        if await service.storage.active_game(CHAT) is None:
            break
        deadline = service.clock.next_deadline()
        assert deadline is not None
        clock.advance(max(0.0, deadline - clock()))
        outs += await service.clock.run_due()
    last = outs[-1]
    assert last.table is not None and last.table.status == "killed"
    assert any(isinstance(e, PlayerLeft) and e.player == creator.id for e in last.events)
    # A timer answers no command: the reason is a notice for the chat, shown with the results.
    assert last.info is None and last.notices == [Notice("info-no-humans-left")]
    assert not last.match_finished  # stopped, not won: no rematch offered
    text = renderer.t(lang, "info-no-humans-left")
    assert text in renderer.announcements(last)
    assert [n for out in outs for n in out.notices] == [Notice("info-no-humans-left")]
