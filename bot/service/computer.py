"""Computer players and the player who ran out of time: moves made for someone at a deadline.

Pure functions over the engine; the clock (`bot.service.clock`) decides when they run, and the
unit of work commits what they did like any other move.
"""

from __future__ import annotations

import random

from bot.storage import LogEntry
from bot.views import is_bot
from core.actions import Action
from core.ai import Level, choose_action
from core.events import Event
from core.game import Game

MAX_BOT_STEPS = 2000


def choice(game: Game, bot: str, level: Level) -> Action | None:
    """What a computer player does now (None: nothing it wants to), reproducible per move."""
    return choose_action(game, bot, random.Random(f"{game.seed}:{game.move_no}:{bot}"), level)


def want_to_act(game: Game, level: Level) -> bool:
    """Whether a computer player is to act, or wants to act out of turn (a catch, a jump-in)."""
    if game.is_over:
        return False
    if is_bot(game.current_player):
        return True
    return any(
        choice(game, p, level) is not None
        for p in game.players
        if is_bot(p) and game.legal_actions(p)
    )


def play(game: Game, level: Level, events: list[Event], log: list[LogEntry]) -> None:
    """Computer moves until a human may act (humans keep their chance to catch or jump in)."""
    for _ in range(MAX_BOT_STEPS):
        if game.is_over or all(is_bot(p) for p in game.players):
            return
        current = game.current_player
        acted = False
        for bot in game.players:
            if bot == current or not is_bot(bot) or not game.legal_actions(bot):
                continue
            move = choice(game, bot, level)
            if move is not None:
                events += game.apply(bot, move)
                log.append(LogEntry(bot, str(move)))
                acted = True
                break
        if not acted:
            if not is_bot(current):
                return
            move = choice(game, current, level) or game.default_action(current)
            assert move is not None
            events += game.apply(current, move)
            log.append(LogEntry(current, str(move)))
        if any(game.legal_actions(p) for p in game.players if not is_bot(p)):
            return


def time_out(game: Game, events: list[Event], log: list[LogEntry]) -> None:
    """The player to act ran out of time; the engine plays for them and counts it (RULES.md 6:
    the third in a row takes them out)."""
    player = game.current_player
    events += game.time_out(player)
    log.append(LogEntry(player, "timeout"))
