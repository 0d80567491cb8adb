"""The service on a real SQLite file: lobby, settings, matches, refusals, timers, restart."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bot.presentation.render import Renderer
from bot.service import Outcome, Service, User
from bot.storage import Storage
from core.actions import Action
from core.ai import choose_action
from core.events import CardsDrawn, HandRevealed, PlayerLeft, RoundEnded, UnoCaught
from core.game import Game
from core.rules import Rules
from tests.service.conftest import ALICE, BORIS, GLEB, VIKA, FakeClock

CHAT = "tg:-100500"


async def lobby(service: Service, *users: User, bots: int = 0) -> None:
    assert (await service.lobby.new_game(CHAT, users[0])).ok
    for user in users[1:]:
        assert (await service.lobby.join(CHAT, user)).ok
    for _ in range(bots):
        assert (await service.lobby.add_bot(CHAT, users[0])).ok


async def started(service: Service, *users: User, bots: int = 0) -> Outcome:
    await lobby(service, *users, bots=bots)
    out = await service.lobby.start_game(CHAT, users[0])
    assert out.ok, out.error
    return out


async def state(storage: Storage) -> dict[str, Any]:
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.state is not None
    return rec.state


async def install(service: Service, storage: Storage, game: Game) -> None:
    """Replace the running game's engine state with a hand-made position."""
    rec = await storage.active_game(CHAT)
    assert rec is not None
    meta = dict(rec.meta, players=list(game.players), hand_sig={}, hand_ver={}, timeouts={})
    await storage.commit(
        rec.id, rec.version, state=game.to_dict(), meta=meta, status="running", deadline=None
    )


async def play_to_the_end(
    service: Service, humans: list[User], seed: int, max_steps: int = 20_000
) -> Outcome:
    """Humans play the computer player's policy through the service; bots move on deadlines."""
    rng = random.Random(seed)
    last: Outcome | None = None
    for _ in range(max_steps):
        table = (await service.queries.table(CHAT)).table
        if table is None or table.status != "running":
            assert last is not None and last.table is not None
            return last
        acted = False
        game = Game.from_dict(await state(service.storage))
        for user in humans:
            if user.id not in game.hands or not game.legal_actions(user.id):
                continue
            action = choose_action(game, user.id, rng)
            if action is None:
                continue
            hand = (await service.queries.hand(user, chat_key=CHAT)).hands[user.id]
            last = await service.play.act(user, action, chat_key=CHAT, version=hand.version)
            assert last.ok, (last.error, str(action))
            acted = True
            break
        if not acted:
            outs = await service.clock.run_due(math.inf)
            assert outs, "nobody could act"
            last = outs[-1]
    raise AssertionError("the match did not end")


# ---------------------------------------------------------------------- lobby


async def test_lobby_rules(service: Service, renderer: Renderer) -> None:
    out = await service.lobby.new_game(CHAT, ALICE)
    assert out.ok and out.table is not None and [s.id for s in out.table.seats] == [ALICE.id]
    assert (await service.lobby.new_game(CHAT, BORIS)).error.key == "error-game-exists"  # type: ignore[union-attr]
    assert (await service.lobby.join(CHAT, ALICE)).error.key == "error-already-joined"  # type: ignore[union-attr]
    assert (await service.lobby.add_bot(CHAT, BORIS)).error.key == "error-not-joined"  # type: ignore[union-attr]
    start = await service.lobby.start_game(CHAT, ALICE)
    assert start.error is not None and start.error.key == "error-not-enough-players"
    assert "2" in renderer.notice("ru", start.error)
    assert (await service.lobby.join(CHAT, BORIS)).ok
    # Only the creator (or an admin) closes the lobby, kicks or kills.
    assert (await service.lobby.set_closed(CHAT, BORIS, True)).error.key == "error-not-allowed"  # type: ignore[union-attr]
    assert (await service.lobby.kick(CHAT, BORIS, ALICE.id)).error.key == "error-not-allowed"  # type: ignore[union-attr]
    assert (await service.lobby.set_closed(CHAT, ALICE, True)).ok
    assert (await service.lobby.join(CHAT, VIKA)).error.key == "error-lobby-closed"  # type: ignore[union-attr]
    assert (await service.lobby.set_closed(CHAT, BORIS, False, is_admin=True)).ok
    assert (await service.lobby.join(CHAT, VIKA)).ok
    # The creator leaving hands the lobby to the next human.
    left = await service.lobby.leave(CHAT, ALICE)
    assert left.ok and left.table is not None and left.table.creator == BORIS.id
    assert (await service.lobby.kick(CHAT, BORIS, VIKA.id)).ok
    for _ in range(9):
        assert (await service.lobby.add_bot(CHAT, BORIS)).ok
    full = await service.lobby.join(CHAT, GLEB)
    assert full.error is not None and full.error.key == "error-lobby-full"
    assert (await service.lobby.leave(CHAT, BORIS)).info.key == "info-lobby-empty"  # type: ignore[union-attr]
    assert await service.storage.active_game(CHAT) is None


async def test_no_rejoin_with_a_fresh_hand(service: Service) -> None:
    await started(service, ALICE, BORIS, VIKA)
    out = await service.lobby.leave(CHAT, VIKA)
    assert any(isinstance(e, PlayerLeft) for e in out.events)
    again = await service.lobby.join(CHAT, VIKA)
    assert again.error is not None and again.error.key == "error-game-running"
    assert VIKA.id not in (await state(service.storage))["hands"]


async def test_kill_by_creator_or_admin_only(service: Service) -> None:
    await started(service, ALICE, BORIS)
    assert (await service.lobby.kill(CHAT, BORIS)).error.key == "error-not-allowed"  # type: ignore[union-attr]
    assert (await service.lobby.kill(CHAT, BORIS, is_admin=True)).ok
    assert await service.storage.active_game(CHAT) is None
    assert (await service.lobby.new_game(CHAT, BORIS)).ok


# ---------------------------------------------------------------------- settings


async def test_settings_are_stored_and_checked(service: Service, storage: Storage) -> None:
    out = await service.lobby.new_game(CHAT, VIKA)  # a Ukrainian creator makes a Ukrainian chat
    assert out.lang == "uk"
    assert (await service.settings.change_setting(CHAT, VIKA, "preset", "house")).ok
    assert (await service.settings.change_setting(CHAT, VIKA, "timer", "30")).ok
    assert (await service.settings.change_setting(CHAT, VIKA, "colorblind", "on")).ok
    assert (await service.settings.change_setting(CHAT, VIKA, "no_bluffing", "on")).ok
    bad = await service.settings.change_setting(CHAT, VIKA, "timer", "7")
    assert bad.error is not None and bad.error.key == "error-bad-setting"
    other = await service.settings.change_setting(CHAT, BORIS, "timer", "60")
    assert other.error is not None and other.error.key == "error-not-allowed"
    settings = await service.settings.settings(CHAT)
    assert (settings.preset, settings.timer, settings.colorblind, settings.lang) == (
        "house",
        30,
        True,
        "uk",
    )
    assert settings.rules().no_bluffing and settings.rules().jump_in
    assert (await service.lobby.join(CHAT, ALICE)).ok
    await service.lobby.start_game(CHAT, VIKA)
    rules = Rules.from_dict((await state(storage))["rules"])
    assert rules == settings.rules()


# ---------------------------------------------------------------------- matches


@pytest.mark.parametrize("preset", ["classic", "house", "minecraft"])
async def test_full_match_to_the_target(
    service: Service, storage: Storage, preset: str, renderer: Renderer
) -> None:
    await lobby(service, ALICE, BORIS, bots=2)
    for key, value in (("preset", preset), ("target", "200"), ("timer", "off")):
        assert (await service.settings.change_setting(CHAT, ALICE, key, value)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    last = await play_to_the_end(service, [ALICE, BORIS], seed=len(preset))
    assert last.table is not None and last.table.status == "finished"
    final = Game.from_dict((await storage.get_game(last.table.game_id)).state)  # type: ignore[union-attr]
    assert final.is_over and final.rules.target == 200
    assert max(final.scores.values()) >= 200
    assert renderer.table(last.table, last.names)
    log = await storage.log(last.table.game_id)
    versions = [entry.version for entry in log]
    assert versions == sorted(versions) and len(log) > 20
    rows = await storage.leaderboard(CHAT)
    assert {r.user_id for r in rows} == {ALICE.id, BORIS.id}
    assert sum(r.wins for r in rows) == sum(
        1 for w in final.game_winners if not w.startswith("ai:")
    )


# ---------------------------------------------------------------------- refusals


def position(**kwargs: Any) -> Game:
    defaults: dict[str, Any] = dict(
        players=[ALICE.id, BORIS.id, VIKA.id],
        hands={ALICE.id: "r5 r7 g2", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"},
        discard="r1",
        draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
        rules=Rules.preset("classic"),
        current=ALICE.id,
    )
    defaults.update(kwargs)
    return Game.from_position(**defaults)


REFUSALS = [
    # (who, action, expected message id)
    (BORIS, "play b5", "reason-not-your-turn"),
    (ALICE, "play g2", "reason-does-not-match"),
    (ALICE, "play b9", "reason-card-not-in-hand"),
    (ALICE, "pass", "reason-must-draw-first"),
    (ALICE, "challenge", "reason-nothing-to-challenge"),
    (BORIS, "uno", "reason-uno-not-now"),
    (BORIS, "catch", "reason-nothing-to-catch"),
    (ALICE, "flip r5", "error-bad-action"),
    (GLEB, "draw", "error-not-in-game"),
]


@pytest.mark.parametrize(("user", "action", "key"), REFUSALS)
async def test_refusals_are_localized_and_change_nothing(
    service: Service, storage: Storage, renderer: Renderer, user: User, action: str, key: str
) -> None:
    await started(service, ALICE, BORIS, VIKA)
    await install(service, storage, position())
    before = await storage.active_game(CHAT)
    out = await service.play.act(user, action, chat_key=CHAT)
    assert out.error is not None and out.error.key == key
    for lang in ("ru", "uk"):
        text = renderer.notice(lang, out.error)
        assert text and key not in text
    after = await storage.active_game(CHAT)
    assert after == before
    if key.startswith("reason-"):
        assert user.id in out.hands  # a fresh hand comes with the refusal


async def test_stale_button_is_refused_with_a_fresh_hand(
    service: Service, storage: Storage
) -> None:
    await started(service, ALICE, BORIS, VIKA)
    await install(service, storage, position())
    hand = (await service.queries.hand(ALICE, chat_key=CHAT)).hands[ALICE.id]
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT, version=hand.version)).ok
    assert (await service.play.act(BORIS, "draw", chat_key=CHAT)).ok  # y3 does not match: passes
    # Alice presses a button of her old keyboard: refused, and she gets the current one.
    before = await storage.active_game(CHAT)
    again = await service.play.act(ALICE, "play r5", chat_key=CHAT, version=hand.version)
    assert again.error is not None and again.error.key == "error-stale"
    assert again.hands[ALICE.id].version != hand.version
    assert await storage.active_game(CHAT) == before
    # Vika's current keyboard works.
    vika = (await service.queries.hand(VIKA, chat_key=CHAT)).hands[VIKA.id]
    assert [c.key for c in vika.choices] == ["play g7", "draw"]
    assert (await service.play.act(VIKA, "play g7", chat_key=CHAT, version=vika.version)).ok


async def test_button_from_another_game_is_refused(service: Service) -> None:
    out = await started(service, ALICE, BORIS)
    assert out.table is not None
    wrong = await service.play.act(ALICE, "draw", game_id=out.table.game_id + 99)
    assert wrong.error is not None and wrong.error.key == "error-no-game"


# ---------------------------------------------------------------------- UNO and challenge


async def test_uno_catch_and_false_catch(service: Service, storage: Storage) -> None:
    await started(service, ALICE, BORIS, VIKA)
    await install(
        service,
        storage,
        position(hands={ALICE.id: "r5 r7", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"}),
    )
    false_catch = await service.play.uno(CHAT, BORIS)
    assert false_catch.error is not None and false_catch.error.key == "reason-nothing-to-catch"
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok  # forgot to call UNO
    caught = await service.play.uno(CHAT, VIKA)
    assert any(isinstance(e, UnoCaught) for e in caught.events)
    assert len((await state(storage))["hands"][ALICE.id].split()) == 3
    assert any(isinstance(e, UnoCaught) for e in caught.announcements)


async def test_uno_called_in_time(service: Service, storage: Storage) -> None:
    await started(service, ALICE, BORIS, VIKA)
    await install(
        service,
        storage,
        position(hands={ALICE.id: "r5 r7", BORIS.id: "b5 y1 y2", VIKA.id: "g9 g8 g7"}),
    )
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok
    assert (await service.play.uno(CHAT, ALICE)).ok  # right after the play
    late = await service.play.uno(CHAT, VIKA)
    assert late.error is not None and late.error.key == "reason-nothing-to-catch"


async def test_challenged_hand_goes_only_to_the_challenger(
    service: Service, storage: Storage, renderer: Renderer
) -> None:
    await started(service, ALICE, BORIS, VIKA)
    await install(
        service,
        storage,
        position(hands={ALICE.id: "wild4 r7 g2", BORIS.id: "b5 y1", VIKA.id: "g9 g8 g7"}),
    )
    assert (await service.play.act(ALICE, Action.parse("play wild4 b"), chat_key=CHAT)).ok
    out = await service.play.challenge(CHAT, BORIS)
    assert out.ok
    revealed = [e for e in out.events if isinstance(e, HandRevealed)]
    assert revealed and revealed[0].viewer == BORIS.id
    assert out.private_events(BORIS.id) and not any(
        isinstance(e, HandRevealed) for e in out.private_events(VIKA.id)
    )
    # Nothing in the table or the announcements names Alice's cards.
    public = "\n".join(renderer.announcements(out))
    public += renderer.table(out.table, out.names)  # type: ignore[arg-type]
    for label in ("🟥 7", "🟩 2"):
        assert label not in public
    assert "🟥 7" in "\n".join(renderer.private(out, BORIS.id))


# ---------------------------------------------------------------------- timers


async def test_turn_timer_draws_passes_and_removes_after_three(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    await lobby(service, ALICE, BORIS, VIKA)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "30")).ok
    await service.lobby.start_game(CHAT, ALICE)
    await install(service, storage, position(draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3 b4 b6 b7"))
    assert (await service.play.act(ALICE, "play r7", chat_key=CHAT)).ok  # arms Boris's 30 s
    timeouts = 0
    left: list[PlayerLeft] = []
    for _ in range(200):
        game = Game.from_dict(await state(storage))
        if BORIS.id not in game.hands:
            break
        if game.current_player == BORIS.id:
            clock.advance(29)
            assert await service.clock.run_due() == []
            clock.advance(2)
            outs = await service.clock.run_due()
            assert len(outs) == 1
            drawn = [e for e in outs[0].events if isinstance(e, CardsDrawn)]
            assert drawn and drawn[0].player == BORIS.id
            left += [e for e in outs[0].events if isinstance(e, PlayerLeft)]
            timeouts += 1
        else:
            mover = next(u for u in (ALICE, VIKA) if u.id == game.current_player)
            action = game.default_action(mover.id)
            assert action is not None
            assert (await service.play.act(mover, action, chat_key=CHAT)).ok
    assert timeouts == 3
    assert [e.player for e in left] == [BORIS.id]
    game = Game.from_dict(await state(storage))
    assert game.players == [ALICE.id, VIKA.id]


async def test_bots_wait_for_their_delay(service: Service, clock: FakeClock) -> None:
    await started(service, ALICE, bots=1)
    for _ in range(50):
        game = Game.from_dict(await state(service.storage))
        if game.current_player != ALICE.id:
            break
        action = game.default_action(ALICE.id)
        assert action is not None
        await service.play.act(ALICE, action, chat_key=CHAT)
    deadline = service.clock.next_deadline()
    assert deadline is not None and deadline == pytest.approx(clock() + 2.0)
    clock.advance(1.0)
    assert await service.clock.run_due() == []
    clock.advance(1.5)
    outs = await service.clock.run_due()
    assert outs and outs[0].events


# ---------------------------------------------------------------------- restart


async def test_restart_continues_identically_with_timers(db_path: Any, clock: FakeClock) -> None:
    store = await Storage.open(db_path, clock=clock)
    svc = Service(store, clock=clock, bot_delay=2.0, seed=lambda: 77)
    await lobby(svc, ALICE, BORIS, bots=1)
    await svc.lobby.start_game(CHAT, ALICE)
    rng = random.Random(5)
    for _ in range(15):
        game = Game.from_dict(await state(store))
        mover = next((u for u in (ALICE, BORIS) if u.id == game.current_player), None)
        if mover is None:
            await svc.clock.run_due(math.inf)
            continue
        action = choose_action(game, mover.id, rng)
        assert action is not None
        assert (await svc.play.act(mover, action, chat_key=CHAT)).ok
    before = await state(store)
    deadline = svc.clock.next_deadline()
    await store.close()

    store2 = await Storage.open(db_path, clock=clock)
    svc2 = Service(store2, clock=clock, bot_delay=2.0)
    await svc2.start()
    assert await state(store2) == before
    assert Game.from_dict(before).to_dict() == before
    assert svc2.clock.next_deadline() == deadline
    last = await play_to_the_end(svc2, [ALICE, BORIS], seed=9)
    assert last.table is not None and last.table.status == "finished"
    assert any(isinstance(e, RoundEnded) for e in last.events)
    await store2.close()
