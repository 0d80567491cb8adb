"""The computer players' level: a chat's setting, or the lobby's own choice over it, fixed for a
game when it starts."""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

import pytest

from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, Service
from bot.service import computer as computer_module
from bot.service.match import Lobby, TableState, meta_from_dict, meta_to_dict
from bot.service.views import Seat, TableView
from bot.storage import Storage
from core import actions as A
from core.ai import Level, Memory
from core.game import Game
from core.rules import Rules
from tests.service.conftest import ALICE, BORIS

CHAT = "tg:-4242"


@pytest.fixture
def levels(monkeypatch: pytest.MonkeyPatch) -> list[Level]:
    """The level of every computer decision the service asks for."""
    asked: list[Level] = []
    real = computer_module.choose_action

    def spy(game: Any, player: str, rng: Any, level: Level = Level.EASY, memory: Any = None) -> Any:
        asked.append(level)
        return real(game, player, rng, level, memory)

    monkeypatch.setattr(computer_module, "choose_action", spy)
    return asked


async def _start_against_robots(service: Service) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    for _ in range(3):
        assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok


async def _let_robots_move(service: Service, rounds: int = 5) -> None:
    for _ in range(rounds):
        await service.clock.run_due(math.inf)


async def test_robots_play_easy_unless_the_chat_asks_for_strong(
    service: Service, storage: Storage, levels: list[Level]
) -> None:
    await _start_against_robots(service)
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.EASY}
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "easy"


async def test_strong_robots_when_switched_on_before_the_start(
    service: Service, storage: Storage, levels: list[Level]
) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    switched = await service.settings.toggle_setting(CHAT, ALICE, "strong_bots")
    assert switched.ok and switched.settings is not None and switched.settings.strong_bots
    for _ in range(3):
        assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.STRONG}
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "strong"


async def test_the_level_stays_what_it_was_when_the_game_started(
    service: Service, levels: list[Level]
) -> None:
    await _start_against_robots(service)
    assert (
        await service.settings.toggle_setting(CHAT, ALICE, "strong_bots")
    ).ok  # for the next game
    levels.clear()
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.EASY}


async def test_strong_robots_read_what_the_table_saw_across_moves(
    service: Service, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's draw by choice is stored with the game (`meta["seen"]`) and handed to the
    computer players' next decisions, read back from storage like everything else."""
    memories: list[Memory] = []
    real = computer_module.choose_action

    def spy(game: Any, player: str, rng: Any, level: Level, memory: Memory) -> Any:
        memories.append(memory)
        return real(game, player, rng, level, memory)

    monkeypatch.setattr(computer_module, "choose_action", spy)
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    assert (await service.settings.toggle_setting(CHAT, ALICE, "strong_bots")).ok
    for _ in range(3):
        assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    for _ in range(50):
        await _let_robots_move(service, 1)
        rec = await storage.active_game(CHAT)
        assert rec is not None and rec.state is not None
        game = Game.from_dict(rec.state)
        if game.current_player == ALICE.id and A.DRAW in game.legal_actions(ALICE.id):
            break
        move = game.default_action(ALICE.id) if game.current_player == ALICE.id else None
        if move is not None:
            assert (await service.play.act(ALICE, str(move), chat_key=CHAT)).ok
    else:
        pytest.fail("Alice never had a turn to draw on")
    top, color, size = game.discard[-1], game.current_color, len(game.hand(ALICE.id))
    assert (await service.play.act(ALICE, "draw", chat_key=CHAT)).ok
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.state is not None
    assert rec.meta["seen"]["voids"][ALICE.id] == [[str(top), str(color), size]]
    if Game.from_dict(rec.state).current_player == ALICE.id:
        assert (await service.play.act(ALICE, "pass", chat_key=CHAT)).ok  # keeps the drawn card
    memories.clear()
    await _let_robots_move(service, 1)
    assert memories and any(m.of(ALICE.id) for m in memories)


# ------------------------------------------------------------------ the lobby's choice


def _level_notice(level: Level) -> Notice:
    return Notice("info-bot-level", {"level": level.value})


async def test_the_lobby_chooses_the_level_and_the_game_plays_it(
    service: Service, storage: Storage, renderer: Renderer, levels: list[Level]
) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    for _ in range(3):
        assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    out = await service.lobby.set_bot_level(CHAT, ALICE, Level.STRONG)
    assert out.ok and out.info == _level_notice(Level.STRONG)
    assert out.table is not None and out.table.bot_level is Level.STRONG
    assert renderer.t("ru", "lobby-bot-level", level="strong") in renderer.table(
        out.table, out.names
    )
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["lobby_bot_level"] == "strong"
    assert not (
        await service.settings.settings(CHAT)
    ).strong_bots  # the chat's setting is untouched
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.STRONG}
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "strong"


async def test_the_lobbys_choice_wins_over_the_chat_setting(
    service: Service, storage: Storage, levels: list[Level]
) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    assert (await service.settings.toggle_setting(CHAT, ALICE, "strong_bots")).ok
    assert (await service.lobby.set_bot_level(CHAT, ALICE, Level.EASY)).ok
    for _ in range(3):
        assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.EASY}


async def test_without_a_choice_the_lobby_follows_the_setting_until_the_start(
    service: Service, storage: Storage, levels: list[Level]
) -> None:
    opened = await service.lobby.new_game(CHAT, ALICE)
    assert opened.table is not None and opened.table.bot_level is Level.EASY
    assert (
        await service.settings.toggle_setting(CHAT, ALICE, "strong_bots")
    ).ok  # during the lobby
    shown = (await service.queries.table(CHAT)).table
    assert shown is not None and shown.bot_level is Level.STRONG
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["lobby_bot_level"] is None
    for _ in range(3):
        assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.STRONG}


async def test_asking_for_the_level_in_force_changes_nothing(
    service: Service, storage: Storage
) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    before = await storage.active_game(CHAT)
    # The chat's setting is easy: asking for easy stores no choice of the lobby's own.
    same = await service.lobby.set_bot_level(CHAT, ALICE, Level.EASY)
    assert same.ok and same.error is None and same.info == _level_notice(Level.EASY)
    assert await storage.active_game(CHAT) == before
    # Two quick presses of the strong button: the second finds strong and keeps it.
    assert (await service.lobby.set_bot_level(CHAT, ALICE, Level.STRONG)).ok
    chosen = await storage.active_game(CHAT)
    again = await service.lobby.set_bot_level(CHAT, ALICE, Level.STRONG)
    assert again.ok and again.info == _level_notice(Level.STRONG)
    assert again.table is not None and again.table.bot_level is Level.STRONG
    assert await storage.active_game(CHAT) == chosen
    assert chosen is not None and before is not None and chosen.version == before.version + 1


async def test_the_level_is_refused_outside_an_open_lobby_and_to_strangers(
    service: Service, storage: Storage
) -> None:
    def refused(out: Outcome) -> str | None:
        assert not out.ok and out.info is None and out.table is None
        return None if out.error is None else out.error.key

    assert refused(await service.lobby.set_bot_level(CHAT, ALICE, Level.STRONG)) == "error-no-game"
    assert await storage.active_game(CHAT) is None
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    before = await storage.active_game(CHAT)
    # Boris has not joined: he may not choose for the table.
    assert (
        refused(await service.lobby.set_bot_level(CHAT, BORIS, Level.STRONG)) == "error-not-joined"
    )
    assert await storage.active_game(CHAT) == before
    assert (await service.lobby.add_bot(CHAT, ALICE)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    running = await storage.active_game(CHAT)
    assert running is not None and running.meta["bot_level"] == "easy"
    out = await service.lobby.set_bot_level(CHAT, ALICE, Level.STRONG)
    assert refused(out) == "error-game-running"
    assert await storage.active_game(CHAT) == running


def test_the_lobbys_level_is_stored_and_older_rows_read_as_no_choice() -> None:
    for level in (None, Level.EASY, Level.STRONG):
        lobby = Lobby.opened_by(ALICE.id, ALICE.name)
        lobby.bot_level = level
        meta = meta_to_dict(lobby, TableState())
        assert meta["lobby_bot_level"] == (None if level is None else level.value)
        assert meta_from_dict(json.loads(json.dumps(meta)))[0] == lobby
    older = meta_to_dict(Lobby.opened_by(ALICE.id, ALICE.name), TableState())
    del older["lobby_bot_level"]
    assert meta_from_dict(older)[0].bot_level is None


def test_the_lobby_names_the_level_once_it_has_a_robot(renderer: Renderer) -> None:
    seats = [Seat(ALICE.id, ALICE.name, 0, 0, False, False, False)]
    lobby = TableView(CHAT, 1, 1, "lobby", "uk", False, Rules(), ALICE.id, seats)
    line = renderer.t("uk", "lobby-bot-level", level="strong")
    strong = dataclasses.replace(lobby, bot_level=Level.STRONG)
    assert line not in renderer.table(strong, {})
    robot = Seat("ai:1", "", 0, 0, True, False, False)
    with_robot = dataclasses.replace(strong, seats=[*seats, robot])
    assert line in renderer.table(with_robot, {})
    assert "Рівень роботів: сильний" in line
