"""Computer players and the player who ran out of time: moves made for someone at a deadline.

Pure functions over the engine and the table state (its level for the computer players, and
what the table has seen of the hands: every move goes through `TableState.apply`, as a
person's does); the clock (`bot.service.clock`) decides when they run, and the unit of work
commits what they did like any other move.
"""

from __future__ import annotations

import random

from bot.service.match import TableState
from bot.service.views import is_bot
from bot.storage import LogEntry
from core.actions import Action
from core.ai import choose_action
from core.events import Event
from core.game import Game

MAX_BOT_STEPS = 2000


def choice(game: Game, bot: str, table: TableState) -> Action | None:
    """What a computer player does now (None: nothing it wants to), reproducible per move."""
    rng = random.Random(f"{game.seed}:{game.move_no}:{bot}")
    return choose_action(game, bot, rng, table.bot_level, table.seen)


def want_to_act(game: Game, table: TableState) -> bool:
    """Whether a computer player is to act, or wants to act out of turn (a catch, a jump-in)."""
    if game.is_over:
        return False
    if is_bot(game.current_player):
        return True
    return any(
        choice(game, p, table) is not None
        for p in game.players
        if is_bot(p) and game.legal_actions(p)
    )


def play(game: Game, table: TableState, events: list[Event], log: list[LogEntry]) -> None:
    """Computer moves until a human may act (humans keep their chance to catch or jump in)."""
    for _ in range(MAX_BOT_STEPS):
        if game.is_over or all(is_bot(p) for p in game.players):
            return
        current = game.current_player
        acted = False
        for bot in game.players:
            if bot == current or not is_bot(bot) or not game.legal_actions(bot):
                continue
            move = choice(game, bot, table)
            if move is not None:
                events += table.apply(game, bot, move)
                log.append(LogEntry(bot, str(move)))
                acted = True
                break
        if not acted:
            if not is_bot(current):
                return
            move = choice(game, current, table) or game.default_action(current)
            assert move is not None
            events += table.apply(game, current, move)
            log.append(LogEntry(current, str(move)))
        if any(game.legal_actions(p) for p in game.players if not is_bot(p)):
            return


def time_out(game: Game, events: list[Event], log: list[LogEntry]) -> None:
    """The player to act ran out of time; the engine plays for them and counts it (RULES.md 6:
    the third in a row takes them out)."""
    player = game.current_player
    events += game.time_out(player)
    log.append(LogEntry(player, "timeout"))
