"""Service edge cases: /uno precedence, games ending by leaving, timers switched off, isolation."""

from __future__ import annotations

import math

import pytest

from bot.presentation.render import Renderer
from bot.service import Notice, Service
from bot.storage import Storage
from core.events import CardsDrawn, GameEnded, PlayerSkipped, UnoCaught
from core.game import Game
from core.rules import Rules
from tests.service.conftest import ALICE, BORIS, GLEB, VIKA, FakeClock
from tests.service.test_service import CHAT, install, lobby, position, started, state


async def test_uno_by_the_next_player_catches_before_calling(
    service: Service, storage: Storage
) -> None:
    # Boris holds two cards and could call his own UNO, but Alice forgot hers: /uno catches.
    hands = {ALICE.id: "r5 r7", BORIS.id: "r2 y1", VIKA.id: "g9 g8 g7"}
    await started(service, ALICE, BORIS, VIKA)
    await install(service, storage, position(hands=hands))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    out = await service.play.uno(CHAT, BORIS)
    assert [type(e) for e in out.events][:1] == [UnoCaught]
    assert len((await state(storage))["hands"][ALICE.id].split()) == 3


async def test_leaving_that_ends_the_game_is_committed(service: Service, storage: Storage) -> None:
    await started(service, ALICE, BORIS)
    two = Game.from_position(
        [ALICE.id, BORIS.id], {ALICE.id: "r5", BORIS.id: "g2"}, "r1", "y3", current=BORIS.id
    )
    await install(service, storage, two)
    out = await service.lobby.leave(CHAT, ALICE)
    assert out.ok and any(isinstance(e, GameEnded) for e in out.events)
    assert out.table is not None and out.table.status == "finished"
    assert await storage.active_game(CHAT) is None
    assert (await storage.leaderboard(CHAT))[0].user_id == BORIS.id


async def test_the_last_human_leaving_stops_the_game(service: Service) -> None:
    await started(service, ALICE, bots=2)
    out = await service.lobby.leave(CHAT, ALICE)
    assert out.info is not None and out.info.key == "info-no-humans-left"
    assert out.table is not None and out.table.status == "killed"
    assert await service.storage.active_game(CHAT) is None
    assert service.clock.next_deadline() is None


async def test_creator_rights_pass_on_when_the_creator_leaves(service: Service) -> None:
    await started(service, ALICE, BORIS, VIKA, GLEB)
    assert (await service.lobby.leave(CHAT, ALICE)).ok
    assert (await service.lobby.kick(CHAT, BORIS, VIKA.id)).ok  # Boris is the creator now
    missing = await service.lobby.kick(CHAT, BORIS, ALICE.id)
    assert missing.error is not None and missing.error.key == "error-kick-target"


async def test_switching_the_timer_off_stops_the_running_deadline(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    await lobby(service, ALICE, BORIS, VIKA)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "30")).ok
    await service.lobby.start_game(CHAT, ALICE)
    await install(service, storage, position())
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "off")).ok
    before = await storage.active_game(CHAT)  # the change stored the turn without a deadline
    assert before is not None and before.deadline is None and service.clock.next_deadline() is None
    clock.advance(60)
    assert await service.clock.run_due() == []
    after = await storage.active_game(CHAT)
    assert after is not None and before is not None and after.version == before.version


async def test_timeout_with_a_penalty_pending_takes_it(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    await lobby(service, ALICE, BORIS, VIKA)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "30")).ok
    await service.lobby.start_game(CHAT, ALICE)
    hands = {ALICE.id: "r5 wild4 g2", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"}
    await install(service, storage, position(hands=hands))
    assert (await service.play.act(ALICE, "play wild4 b", chat_key=CHAT)).ok  # Boris may challenge
    clock.advance(31)
    [out] = await service.clock.run_due()
    drawn = [e for e in out.events if isinstance(e, CardsDrawn)]
    assert drawn and drawn[0].player == BORIS.id and drawn[0].count == 4
    assert any(isinstance(e, PlayerSkipped) and e.player == BORIS.id for e in out.events)
    assert Game.from_dict(await state(storage)).current_player == VIKA.id


async def test_one_broken_game_does_not_stall_the_others(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    await started(service, ALICE, bots=1)
    other = "tg:-200"
    await service.lobby.new_game(other, BORIS)
    await service.lobby.add_bot(other, BORIS)
    await service.lobby.start_game(other, BORIS)
    rec = await storage.active_game(CHAT)
    assert rec is not None
    broken = dict(rec.state or {}, hands="not a hand")  # a state the engine cannot load
    await storage.commit(
        rec.id, rec.version, state=broken, meta=rec.meta, status="running", deadline=clock()
    )
    service.alarms.arm(CHAT, clock())
    service.alarms.arm(other, clock())
    clock.advance(5)
    outs = await service.clock.run_due(math.inf)
    # The broken game is set aside and its chat told; the other game plays on.
    assert {o.chat_key: [n.key for n in o.notices] for o in outs} == {
        CHAT: ["notice-game-broken"],
        other: [],
    }
    assert service.alarms.at(CHAT) is None
    assert await storage.active_game(CHAT) is None


REFUSALS_HOUSE = [
    # (position overrides, who, action, reason)
    ({}, VIKA, "play g9", "reason-jump-in-needs-identical"),
    ({}, ALICE, "play wild", "reason-card-not-in-hand"),
]


@pytest.mark.parametrize(("extra", "user", "action", "key"), REFUSALS_HOUSE)
async def test_house_refusals_are_localized_and_change_nothing(
    service: Service,
    storage: Storage,
    renderer: Renderer,
    extra: dict[str, str],
    user: object,
    action: str,
    key: str,
) -> None:
    await started(service, ALICE, BORIS, VIKA)
    kwargs: dict[str, object] = {"rules": Rules.preset("house"), **extra}
    await install(service, storage, position(**kwargs))
    before = await storage.active_game(CHAT)
    out = await service.play.act(user, action, chat_key=CHAT)  # type: ignore[arg-type]
    assert out.error is not None and out.error.key == key
    assert renderer.notice("uk", out.error) and renderer.notice("ru", out.error)
    assert await storage.active_game(CHAT) == before


async def test_penalty_wild_and_drawn_card_refusals(service: Service, storage: Storage) -> None:
    await started(service, ALICE, BORIS, VIKA)
    hands = {ALICE.id: "r5 wild4 wild g2", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"}
    await install(service, storage, position(hands=hands, draw="y4 y5 y6 y7 b8 y9"))
    expect = [
        (ALICE, "play wild", "reason-wild-needs-color"),
        (ALICE, "play r5 g", "error-bad-action"),
    ]
    for user, action, key in expect:
        out = await service.play.act(user, action, chat_key=CHAT)
        assert out.error is not None and out.error.key == key, action
    assert (await service.play.act(ALICE, "play wild4 b", chat_key=CHAT)).ok
    out = await service.play.act(BORIS, "draw", chat_key=CHAT)
    assert out.error is not None and out.error.key == "reason-must-answer-penalty"
    assert (await service.play.act(BORIS, "accept", chat_key=CHAT)).ok
    # Vika draws b8, which plays on blue; no other card may be played this turn.
    assert (await service.play.act(VIKA, "draw", chat_key=CHAT)).ok
    out = await service.play.act(VIKA, "play g9", chat_key=CHAT)
    assert out.error is not None and out.error.key == "reason-only-drawn-card"


async def test_a_move_overtaken_by_a_jump_in_is_refused_clearly(
    service: Service, storage: Storage, renderer: Renderer
) -> None:
    await started(service, ALICE, BORIS, VIKA)
    hands = {ALICE.id: "r5 r7 g2", BORIS.id: "r1 y1 y2", VIKA.id: "g9 g8 g7"}
    await install(service, storage, position(hands=hands, rules=Rules.preset("house")))
    assert (await service.play.act(BORIS, "play r1", chat_key=CHAT)).ok  # Boris jumps in first
    late = await service.play.act(ALICE, "play r5", chat_key=CHAT)
    assert late.error is not None and late.error.key == "reason-turn-taken-by-jump-in"
    taken = renderer.notice("ru", late.error)
    assert taken != renderer.notice("ru", Notice("reason-not-your-turn"))


async def test_deadline_fires_after_a_restart(db_path: object, clock: FakeClock) -> None:
    store = await Storage.open(db_path, clock=clock)  # type: ignore[arg-type]
    svc = Service(store, clock=clock, bot_delay=2.0, seed=lambda: 5)
    await lobby(svc, ALICE, BORIS)
    assert (await svc.settings.change_setting(CHAT, ALICE, "timer", "30")).ok
    await svc.lobby.start_game(CHAT, ALICE)
    before = Game.from_dict(await state(store))
    await store.close()
    store2 = await Storage.open(db_path, clock=clock)  # type: ignore[arg-type]
    try:
        svc2 = Service(store2, clock=clock, bot_delay=2.0)
        await svc2.start()
        clock.advance(31)
        [out] = await svc2.clock.run_due()
        assert any(
            isinstance(e, CardsDrawn) and e.player == before.current_player for e in out.events
        )
    finally:
        await store2.close()


async def test_rules_text_says_when_the_preset_was_changed(
    service: Service, renderer: Renderer
) -> None:
    await service.lobby.new_game(CHAT, ALICE)
    plain = renderer.rules_text("ru", await service.settings.settings(CHAT))
    assert renderer.t("ru", "rules-changed") not in plain
    assert (await service.settings.change_setting(CHAT, ALICE, "target", "200")).ok
    changed = renderer.rules_text("ru", await service.settings.settings(CHAT))
    assert changed.startswith(renderer.t("ru", "rules-classic"))
    assert renderer.t("ru", "rules-changed") in changed
    assert renderer.t("ru", "settings-target", count=200) in changed


async def test_kick_by_seat_checks_the_rights_first_and_counts_as_the_table_does(
    service: Service, storage: Storage
) -> None:
    """A seat number (how a computer player is named) is refused as a kick by id is: no game,
    not allowed (before telling whether the seat is taken), nobody sitting there."""
    none = await service.lobby.kick_seat(CHAT, ALICE, 1)
    assert none.error is not None and none.error.key == "error-no-game"
    await lobby(service, ALICE, BORIS, bots=1)
    before = await storage.active_game(CHAT)
    refusals = [
        (BORIS, 3, "error-not-allowed"),
        (BORIS, 9, "error-not-allowed"),
        (ALICE, 0, "error-kick-seat"),
        (ALICE, 4, "error-kick-seat"),
    ]
    for who, seat, key in refusals:
        out = await service.lobby.kick_seat(CHAT, who, seat)
        assert out.error is not None and out.error.key == key, (who, seat)
    assert await storage.active_game(CHAT) == before
    out = await service.lobby.kick_seat(CHAT, ALICE, 3)  # the computer player, by the lobby's order
    assert out.info == Notice("info-bot-removed")
    assert out.table is not None and [s.id for s in out.table.seats] == [ALICE.id, BORIS.id]
    assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    table = (await service.queries.table(CHAT)).table
    assert table is not None
    robot = next(i for i, s in enumerate(table.seats, 1) if s.is_bot)
    out = await service.lobby.kick_seat(CHAT, BORIS, robot, is_admin=True)
    assert out.ok and out.table is not None
    assert table.seats[robot - 1].id not in [s.id for s in out.table.seats]
    game = Game.from_dict(await state(storage))
    assert game.players == [s.id for s in table.seats if not s.is_bot]


async def test_games_of_a_player(service: Service) -> None:
    await started(service, ALICE, BORIS)
    other = "tg:-200"
    await service.lobby.new_game(other, BORIS)
    game_id = (await service.queries.table(CHAT)).table.game_id  # type: ignore[union-attr]
    assert await service.queries.games_of(ALICE.id) == [game_id]
    assert await service.queries.games_of(BORIS.id) == [game_id]  # the lobby is not running yet
    assert await service.queries.games_of(VIKA.id) == []
