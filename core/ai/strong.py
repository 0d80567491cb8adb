"""The strong computer player: the easy player's rules of thumb with its own weights (`STYLE`),
reading what the table remembers of the round (`core.ai.memory`), and near the end of a round
checked by playing the rest of the round out from worlds consistent with what it sees
(`core.ai.worlds`). Its work is bounded by engine moves, never by the clock, so a seeded game
replays exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core import actions as A
from core.actions import Action, ActionType
from core.ai.easy import Style, best_color, color_counts, distinct_plays, holds_color, turn_action
from core.ai.easy import choose_action as easy_action
from core.ai.memory import Memory
from core.ai.worlds import Worlds, clone, unseen_cards
from core.cards import COLORS, WILD_FOUR, Card, Color
from core.events import RoundEnded
from core.game import Game

# The head start of the rules of thumb's choice, in won playouts per world: a move must win 15
# playouts in 100 more than it to replace it. With a few dozen worlds the playouts are noisy, and
# a smaller head start lets the noise overrule the better judgement.
PRIOR = 0.15
# Search only once somebody holds this many cards or fewer: then the round is a few moves from
# its end, playouts are short and tell moves apart; earlier, the rules of thumb judge better.
ENDGAME = 3
# The strong player's weights (`Style`), against the easy player's:
# - the chance that the next player cannot follow our card weighs most (`block`), sharpened by
#   what the table saw them unable to play; a wild's color follows what we hold, the next
#   player's chance weighing little there (`wild_block`);
# - a wild is held back far harder (`wild_keep`: played almost only when no colored card plays,
#   and then `easy._worth_playing_wild` weighs it against a draw), and a lone wild is kept from
#   three cards on (`keep_wild_hand`);
# - a Wild Draw Four from a player holding the old color is believed four times less likely
#   (`bluff_odds`);
# - under jump-in, no jump-in that would leave one card (`safe_jump`), and a card whose twin it
#   holds is worth more (`pair_bonus`);
# - where a Draw Two can be passed on, the last one is kept as a defence while the next player
#   is not close (`keep_defence`);
# - points are shed only while they can still count (`mind_target`).
STYLE = Style(
    wild_keep=20.0,
    block=8.0,
    keep_wild_hand=3,
    bluff_odds=0.25,
    safe_jump=True,
    pair_bonus=3.0,
    keep_defence=4.0,
    wild_block=1.0,
    mind_target=True,
)


@dataclass(frozen=True, slots=True)
class Budget:
    """The most work one decision may do: engine moves over all playouts, and worlds."""

    steps: int = 3_000
    worlds: int = 40
    playout_cap: int = 400  # moves of one playout before it is scored as lost


DEFAULT_BUDGET = Budget()


@dataclass(slots=True)
class SearchStats:
    """What the last search did (for the tests and the benchmark)."""

    candidates: int = 0
    worlds: int = 0
    playouts: int = 0
    steps: int = 0


def choose_action(
    game: Game,
    player: str,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
    stats: SearchStats | None = None,
    memory: Memory | None = None,
) -> Action | None:
    """What the strong player `player` does now; None when it has nothing (useful) to do.

    On its own turn, near the end of a round (somebody holds `ENDGAME` cards or fewer) and with
    a real choice (two or more candidates), it compares the candidates by playouts (`_search`);
    otherwise, and for UNO calls, catches, jump-ins and the first color, it follows the rules of
    thumb with its own weights."""
    legal = game.legal_actions(player)
    if not legal:
        return None
    if (
        player != game.current_player
        or A.CATCH in legal
        or (game.catchable == player and A.UNO in legal)
        or game.current_color is None
    ):
        return easy_action(game, player, rng, STYLE)
    prior = turn_action(game, player, legal, rng, STYLE, memory)
    candidates = _candidates(game, player, legal, prior)
    action = prior
    if len(candidates) > 1 and min(game.hand_sizes().values()) <= ENDGAME:
        action = _search(game, player, candidates, prior, rng, budget, stats, memory)
    if (
        action.type is ActionType.PLAY
        and A.UNO in legal
        and len(game.hands[player]) == 2
        and game.precall != player
    ):
        return A.UNO  # announced before the play: nobody can catch it afterwards
    return action


def _candidates(game: Game, player: str, legal: list[Action], prior: Action) -> list[Action]:
    """The distinct moves worth comparing, the rules of thumb's choice (`prior`) first: each
    distinct playable card (a wild with the color the easy player would name; never a bluffed
    Wild Draw Four, which costs four cards when challenged), drawing when only wild cards play,
    passing or playing the card just drawn, and the answers to a penalty (pass on or defend,
    accept, challenge)."""
    hand = game.hands[player]
    out: list[Action] = [prior]
    cards = distinct_plays(legal)
    for card in cards:
        if card is WILD_FOUR and holds_color(hand, game.current_color):
            continue  # never bluff
        action = _play(legal, card, hand)
        if action is not None and action not in out:
            out.append(action)
    for other in (A.ACCEPT, A.CHALLENGE, A.PASS):
        if other in legal and other not in out:
            out.append(other)
    only_wild = all(card.is_wild for card in cards)
    if A.DRAW in legal and only_wild and A.DRAW not in out:
        out.append(A.DRAW)
    return out


def _play(legal: list[Action], card: Card, hand: list[Card]) -> Action | None:
    """The listed play of `card`; a wild in the color the rest of the hand holds most of."""
    options = [a for a in legal if a.type is ActionType.PLAY and a.card is card]
    if not card.is_wild or len(options) <= 1:
        return options[0] if options else None
    rest = list(hand)
    rest.remove(card)
    color = best_color(rest, None)
    return next((a for a in options if a.color is color), options[0])


def _search(
    game: Game,
    me: str,
    candidates: list[Action],
    prior: Action,
    rng: random.Random,
    budget: Budget,
    stats: SearchStats | None,
    memory: Memory | None,
) -> Action:
    """The candidate that wins the most playouts, `prior` with a head start (`PRIOR`).

    Each world (`core.ai.worlds`) is played out once per candidate, every candidate from the
    same dealt cards and the same playout rng (common random numbers), so the comparison
    measures the move, not the luck of the deal. The work stops at `budget.steps` engine moves
    over all playouts or `budget.worlds` worlds, after the world under way."""
    unseen = unseen_cards(game, me)
    if unseen is None:
        return prior
    worlds = Worlds(game, me, unseen, memory)
    wins = [0.0] * len(candidates)
    steps = 0
    dealt = 0
    playouts = 0
    while dealt < budget.worlds and steps < budget.steps:
        dealt_world = worlds.deal(rng)
        seed = rng.randrange(1 << 30)
        for i, action in enumerate(candidates):
            world = clone(dealt_world)
            won, used = _play_out(world, me, action, random.Random(seed), budget.playout_cap)
            wins[i] += won
            steps += used
            playouts += 1
        dealt += 1
    if stats is not None:
        stats.candidates = len(candidates)
        stats.worlds = dealt
        stats.playouts = playouts
        stats.steps = steps
    best = prior
    best_score = float("-inf")
    for action, total in zip(candidates, wins, strict=True):
        score = total / dealt + (PRIOR if action is prior else 0.0)
        if score > best_score:
            best, best_score = action, score
    return best


def _play_out(game: Game, me: str, first: Action, rng: random.Random, cap: int) -> tuple[int, int]:
    """Apply `first` for `me`, then play the round out; (1 if `me` won else 0, moves made)."""
    events = game.apply(me, first)
    for step in range(1, cap + 1):
        for event in events:
            if type(event) is RoundEnded:
                return (1 if event.winner == me else 0), step
        player = game.current_player
        events = game.apply(player, _playout_action(game, player, game.legal_actions(player), rng))
    return 0, cap


def _playout_action(game: Game, player: str, legal: list[Action], rng: random.Random) -> Action:
    """The fast policy of every seat in a playout: a random non-wild card when one plays, else a
    wild in the color held most, else draw, accept or pass; nobody calls UNO, catches or jumps
    in."""
    first = legal[0]
    kind = first.type
    if kind is ActionType.PLAY:
        colored: list[Action] = []
        wild: Card | None = None
        for action in legal:
            if action.type is not ActionType.PLAY:
                break
            card = action.card
            if card is not None and card.is_wild:
                wild = card
            else:
                colored.append(action)
        if colored:
            return colored[rng.randrange(len(colored))] if len(colored) > 1 else colored[0]
        color = _most_held(game.hands[player])
        for action in legal:
            if action.card is wild and action.color is color:
                return action
        return first
    if kind is ActionType.CHOOSE:
        color = _most_held(game.hands[player])
        return next((a for a in legal if a.color is color), first)
    for action in legal:
        if action is A.ACCEPT or action is A.DRAW or action is A.PASS:
            return action
    return first


def _most_held(hand: list[Card]) -> Color:
    """The color `hand` holds most of; a tie goes to the first in `COLORS` (playouts need no
    finer rule, and this one needs no rng)."""
    counts = color_counts(hand)
    return max(COLORS, key=counts.__getitem__)
