"""The yardsticks the computer players are measured against (`bench/ai.py`, the tests): players
who play the way a casual human does, never worse on purpose, and a uniformly random one.
"""

from __future__ import annotations

import random

from core import actions as A
from core.actions import Action, ActionType
from core.ai.easy import color_counts, holds_color
from core.cards import COLORS, WILD_FOUR, Card, Color
from core.game import Game


def random_player(game: Game, player: str, rng: random.Random) -> Action | None:
    """Uniform among the distinct playable cards the engine lists (a wild counts once; a Wild
    Draw Four is listed, and so played, even as a bluff), a wild's color uniform among the four;
    otherwise as every baseline plays (`_baseline`)."""
    return _baseline(game, player, rng, greedy=False)


def greedy_player(game: Game, player: str, rng: random.Random) -> Action | None:
    """The playable card worth the most points (ties: uniform), a wild's color the one it holds
    most of in the rest of its hand (ties: uniform). It plays a Wild Draw Four only when it
    holds no card of the color in play, else the card's 50 points would make it bluff whenever
    it holds one. Otherwise as every baseline plays (`_baseline`)."""
    return _baseline(game, player, rng, greedy=True)


def random_action(game: Game, player: str, rng: random.Random) -> Action | None:
    """Uniform over `player`'s legal actions (None when there are none): it plays, draws,
    passes, challenges, calls and catches with no preference at all."""
    legal = game.legal_actions(player)
    if not legal:
        return None
    return legal[rng.randrange(len(legal))]


def _baseline(game: Game, player: str, rng: random.Random, *, greedy: bool) -> Action | None:
    """What both baselines do, whatever the card: they play whenever they can (they draw only
    when no card plays, and play a playable drawn card at once); they call UNO before playing
    their second-to-last card (after a jump-in, which cannot be announced before, right after
    it) and catch whoever forgot whenever `catch` is listed; facing a penalty they answer it
    with a listed play when they hold one, else accept, and never challenge; under jump-in rules
    they jump in whenever they hold the identical card; a wild first card gets the color they
    hold most of. They choose with `rng` only, so a seeded rng replays the same game."""
    legal = game.legal_actions(player)
    if not legal:
        return None
    if game.catchable == player and A.UNO in legal:
        return A.UNO
    if A.CATCH in legal:
        return A.CATCH
    plays = [a for a in legal if a.type is ActionType.PLAY]
    if greedy and game.pending is None and holds_color(game.hands[player], game.current_color):
        plays = [a for a in plays if a.card is not WILD_FOUR]  # it does not bluff
    if player != game.current_player:
        return plays[0] if plays else None  # a jump-in
    if legal[0].type is ActionType.CHOOSE:
        color = _most_held(game.hands[player], rng)
        return next(a for a in legal if a.color is color)
    if plays:
        if A.UNO in legal and len(game.hands[player]) == 2 and game.precall != player:
            return A.UNO
        return _pick_play(game, player, plays, rng, greedy=greedy)
    for fallback in (A.ACCEPT, A.DRAW, A.PASS):
        if fallback in legal:
            return fallback
    return legal[0]


def _pick_play(
    game: Game, player: str, plays: list[Action], rng: random.Random, *, greedy: bool
) -> Action:
    cards: list[Card] = []
    for action in plays:
        if action.card is not None and action.card not in cards:
            cards.append(action.card)
    if greedy:
        top = max(c.points for c in cards)
        cards = [c for c in cards if c.points == top]
    card = cards[rng.randrange(len(cards))]
    options = [a for a in plays if a.card is card]
    if not card.is_wild or len(options) == 1:
        return options[0]
    if greedy:
        rest = list(game.hands[player])
        rest.remove(card)
        color = _most_held(rest, rng)
    else:
        color = COLORS[rng.randrange(len(COLORS))]
    return next((a for a in options if a.color is color), options[0])


def _most_held(hand: list[Card], rng: random.Random) -> Color:
    counts = color_counts(hand)
    most = max(counts.values())
    tied = [c for c in COLORS if counts[c] == most]
    return tied[rng.randrange(len(tied))]
