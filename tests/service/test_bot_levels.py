"""The computer players' level: a chat's setting, fixed for a game when it starts."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bot.service import UnoService
from bot.service import computer as computer_module
from bot.storage import Storage
from core import actions as A
from core.ai import Level, Memory
from core.game import Game
from tests.service.conftest import ALICE

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


async def _start_against_robots(service: UnoService) -> None:
    assert (await service.new_game(CHAT, ALICE)).ok
    for _ in range(3):
        assert (await service.add_bot(CHAT, ALICE)).ok
    assert (await service.start_game(CHAT, ALICE)).ok


async def _let_robots_move(service: UnoService, rounds: int = 5) -> None:
    for _ in range(rounds):
        await service.run_due(math.inf)


async def test_robots_play_easy_unless_the_chat_asks_for_strong(
    service: UnoService, storage: Storage, levels: list[Level]
) -> None:
    await _start_against_robots(service)
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.EASY}
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "easy"


async def test_strong_robots_when_switched_on_before_the_start(
    service: UnoService, storage: Storage, levels: list[Level]
) -> None:
    assert (await service.new_game(CHAT, ALICE)).ok
    switched = await service.toggle_setting(CHAT, ALICE, "strong_bots")
    assert switched.ok and switched.settings is not None and switched.settings.strong_bots
    for _ in range(3):
        assert (await service.add_bot(CHAT, ALICE)).ok
    assert (await service.start_game(CHAT, ALICE)).ok
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.STRONG}
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "strong"


async def test_the_level_stays_what_it_was_when_the_game_started(
    service: UnoService, levels: list[Level]
) -> None:
    await _start_against_robots(service)
    assert (await service.toggle_setting(CHAT, ALICE, "strong_bots")).ok  # for the next game
    levels.clear()
    await _let_robots_move(service)
    assert levels and set(levels) == {Level.EASY}


async def test_strong_robots_read_what_the_table_saw_across_moves(
    service: UnoService, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's draw by choice is stored with the game (`meta["seen"]`) and handed to the
    computer players' next decisions, read back from storage like everything else."""
    memories: list[Memory] = []
    real = computer_module.choose_action

    def spy(game: Any, player: str, rng: Any, level: Level, memory: Memory) -> Any:
        memories.append(memory)
        return real(game, player, rng, level, memory)

    monkeypatch.setattr(computer_module, "choose_action", spy)
    assert (await service.new_game(CHAT, ALICE)).ok
    assert (await service.toggle_setting(CHAT, ALICE, "strong_bots")).ok
    for _ in range(3):
        assert (await service.add_bot(CHAT, ALICE)).ok
    assert (await service.start_game(CHAT, ALICE)).ok
    for _ in range(50):
        await _let_robots_move(service, 1)
        rec = await storage.active_game(CHAT)
        assert rec is not None and rec.state is not None
        game = Game.from_dict(rec.state)
        if game.current_player == ALICE.id and A.DRAW in game.legal_actions(ALICE.id):
            break
        move = game.default_action(ALICE.id) if game.current_player == ALICE.id else None
        if move is not None:
            assert (await service.act(ALICE, str(move), chat_key=CHAT)).ok
    else:
        pytest.fail("Alice never had a turn to draw on")
    top, color, size = game.discard[-1], game.current_color, len(game.hand(ALICE.id))
    assert (await service.act(ALICE, "draw", chat_key=CHAT)).ok
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.state is not None
    assert rec.meta["seen"]["voids"][ALICE.id] == [[str(top), str(color), size]]
    if Game.from_dict(rec.state).current_player == ALICE.id:
        assert (await service.act(ALICE, "pass", chat_key=CHAT)).ok  # keeps the drawn card
    memories.clear()
    await _let_robots_move(service, 1)
    assert memories and any(m.of(ALICE.id) for m in memories)
