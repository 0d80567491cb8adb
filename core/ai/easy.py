"""The easy computer player: rules of thumb over what a human at the table could know.

`choose_action` says what it does now, on its turn and off it; the strong player
(`core.ai.strong`) starts from the same rules with its own weights (`Style`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from core import actions as A
from core.actions import Action, ActionType
from core.ai.chances import chance_of_none, guilt_probability, unseen_counts
from core.ai.memory import Layers, Memory
from core.cards import COLORS, WILD_FOUR, Card, Color, Kind
from core.game import Game
from core.rules import Scoring

# Values in "cards": what an outcome is worth to the computer compared with simply accepting.
# Drawing one card ourselves costs 1; a card drawn by one opponent is worth half of that to us
# (with several opponents, hurting one of them helps us less than our own cards hurt us).
OPPONENT_CARD = 0.5
TURN_VALUE = 1.0  # keeping one's turn, compared with losing it
DANGER = 2  # an opponent holding this many cards or fewer may go out at any moment

# Weights of `_score_play`: holding wild cards back matters most; the others follow common UNO
# advice.
WILD_KEEP = 8.0  # a wild held back is a way out of any color later
COLOR_WEIGHT = 1.0  # per card of the resulting color left in the hand
FOLLOW_BONUS = 0.5  # something in the hand still follows this card next turn
NO_FOLLOW = 1.5  # nothing would follow: the next turn is likely a draw
KEEP_WILD_HAND = 5  # with this many cards and nobody close to out, draw rather than spend a wild


@dataclass(frozen=True, slots=True)
class Style:
    """The weights of the rules of thumb; `EASY` is the easy player's, the strong player has its
    own. `block` values the chance that the next player holds nothing that plays on our card
    (computed from the cards we have not seen); the easy player ignores it."""

    wild_keep: float = WILD_KEEP
    color_weight: float = COLOR_WEIGHT
    follow_bonus: float = FOLLOW_BONUS
    no_follow: float = NO_FOLLOW
    keep_wild_hand: int = KEEP_WILD_HAND
    block: float = 0.0
    # How much likelier a player holding the old color is to play a Wild Draw Four than one
    # without it (`guilt_probability`): 1 believes everyone plays it as readily as a bluff.
    bluff_odds: float = 1.0
    # Under jump-in: decline a jump-in that would leave one card (UNO cannot be called before
    # it, and whoever is asked first catches), and value a card whose twin we hold (play one,
    # jump in with the other).
    safe_jump: bool = False
    pair_bonus: float = 0.0
    # Where a Draw Two can be passed on (`Rules.pass_draw_two`), the last one in hand is the
    # only answer to a Draw Two (and, of the right color, to a Wild Draw Four under
    # `defend_wild_four`): playing it while the next player is not close costs this much.
    keep_defence: float = 0.0
    # The weight of the next player's chance to be stuck when naming a wild's color (`block`
    # is that of choosing a card). It reads the plain unseen cards, never what is remembered
    # of the next player: that would pull the color towards one the next player lacks and we
    # hold little of, and a color we can follow ourselves is worth more.
    wild_block: float = 0.0
    # Shed points only while they can still count: not in a round whose winner wins the match
    # whatever the points (`points_count`).
    mind_target: bool = False


EASY = Style()


def choose_action(
    game: Game, player: str, rng: random.Random | None = None, style: Style = EASY
) -> Action | None:
    """What the computer player `player` does now; None when it has nothing (useful) to do.

    It reads its own hand (and the card it has just drawn), the discard pile, the color in play,
    the direction and the seats, every hand's size, the pending penalty (but never
    `Pending.legal`, the offender's secret until a challenge) and who is catchable; never other
    hands, the draw pile's order or the seed. It keeps no memory between calls, so the same
    position gets the same answer for the same `rng` state, whatever the hidden cards are.
    `rng` only breaks ties (between equally good colors or cards); without it ties go to the
    first candidate.

    The strategy, in order:

    1. Say UNO as soon as it matters: right after a play that left it with one card (a jump-in
       cannot be announced before), and before its own play of its second-to-last card. Catch
       anyone who forgot: a wrong catch costs nothing, a right one costs them two cards.
    2. Out of turn (jump-in rules), jump in whenever it can: it sheds a card and takes the turn
       of everyone in between.
    3. Facing a penalty: pass a Draw Two on or defend a Wild Draw Four when the rules allow it
       (never worse than drawing), and challenge a Wild Draw Four when the chance that it was a
       bluff (`guilt_probability`) makes the challenge worth more than accepting.
    4. On its turn, score every playable card (`_score_play`). It never plays a Wild Draw Four
       while holding the color in play (a bluff loses four cards when challenged); with nothing
       to play it draws, and plays the drawn card unless it is a wild better kept.
    """
    legal = game.legal_actions(player)
    if not legal:
        return None
    # Calling one's own UNO after the play, and catching, are free and urgent: the next move of
    # anyone else closes the window.
    if game.catchable == player and A.UNO in legal:
        return A.UNO
    if A.CATCH in legal:
        return A.CATCH
    if player != game.current_player:
        return _jump_in(game, player, legal, style)
    action = turn_action(game, player, legal, rng, style)
    if (
        action.type is ActionType.PLAY
        and A.UNO in legal
        and len(game.hands[player]) == 2
        and game.precall != player
    ):
        # Announce before playing the second-to-last card: nobody can catch us afterwards.
        return A.UNO
    return action


def _jump_in(game: Game, player: str, legal: list[Action], style: Style) -> Action | None:
    """Jump in whenever possible: a free shed that also takes the turn of everyone in between
    (with `style.safe_jump`, not from two cards: see `Style`)."""
    for action in legal:
        if action.type is ActionType.PLAY:
            if style.safe_jump and len(game.hands[player]) == 2:
                return None
            return action
    return None


# ---------------------------------------------------------------------------------- on turn


class _View:
    """The public position as seen from one seat, computed once per decision."""

    __slots__ = (
        "game",
        "hand",
        "memory",
        "n",
        "next_known",
        "next_size",
        "opponent_min",
        "player",
        "points_count",
        "prev_size",
        "sizes",
        "style",
        "unseen",
    )

    def __init__(self, game: Game, player: str, style: Style, memory: Memory | None) -> None:
        self.game = game
        self.memory = memory
        self.style = style
        self.points_count = not style.mind_target or points_count(game)
        self.player = player
        self.hand: list[Card] = game.hands[player]
        self.sizes = game.hand_sizes()
        players = game.players
        self.n = len(players)
        idx = players.index(player)
        following = players[(idx + game.direction) % self.n]
        self.next_size = self.sizes[following]
        self.next_known: Layers = memory.layers(following) if memory is not None else []
        self.prev_size = self.sizes[players[(idx - game.direction) % self.n]]
        self.opponent_min = min(s for p, s in self.sizes.items() if p != player)
        self.unseen: Counter[Card] = unseen_counts(game, player) if style.block else Counter()

    def stuck(self, card: Card, color: Color, remembered: bool = True) -> float:
        """The chance that the next player holds nothing playable on `card` in `color`, were
        their cards a random draw from the unseen ones (hypergeometric), those the table saw
        them unable to play (`core.ai.memory`) outside what they could not play then."""
        layers = self.next_known if remembered else []
        follows = card.playable_on[color]
        return chance_of_none(self.unseen, follows, layers, self.next_size)


def turn_action(
    game: Game,
    player: str,
    legal: list[Action],
    rng: random.Random | None,
    style: Style = EASY,
    memory: Memory | None = None,
) -> Action:
    """The move on one's own turn, always one of `legal` (both levels start from it; only the
    strong one remembers: `core.ai.memory`)."""
    action = _turn_choice(game, player, legal, rng, style, memory)
    if action.type is ActionType.PLAY and action not in legal:
        # Seven-zero: a 7 names whom to swap hands with; take the smallest hand.
        sizes = game.hand_sizes()
        named = [a for a in legal if a.card is action.card and a.target is not None]
        action = min(named, key=lambda a: sizes[a.target or ""])
    return action


def _turn_choice(
    game: Game,
    player: str,
    legal: list[Action],
    rng: random.Random | None,
    style: Style,
    memory: Memory | None,
) -> Action:
    view = _View(game, player, style, memory)
    if game.current_color is None:
        # The first flipped card was a wild: name the color we hold most of.
        return A.CHOOSE[best_color(view.hand, rng)]
    if game.pending is not None:
        return _answer_penalty(view, legal, rng)
    plays = distinct_plays(legal)
    if game.has_drawn:
        drawn = game.drawn
        if drawn is not None and drawn in plays and _worth_playing_drawn(view, drawn):
            return _play_action(view, drawn, rng)
        return A.PASS
    best: Card | None = None
    best_score = 0.0
    for card in plays:
        if card is WILD_FOUR and holds_color(view.hand, game.current_color):
            continue  # never bluff: a challenge would cost four cards
        score = _score_play(view, card)
        if rng is not None:
            score += rng.random() * 1e-6
        if best is None or score > best_score:
            best, best_score = card, score
    if best is None:
        return A.DRAW
    if best.is_wild and not _worth_playing_wild(view, best):
        return A.DRAW
    return _play_action(view, best, rng)


def distinct_plays(legal: list[Action]) -> list[Card]:
    """The cards that may be played now, once each (a wild is listed once per color)."""
    seen: dict[Card, None] = {}
    for action in legal:
        if action.type is ActionType.PLAY and action.card is not None:
            seen[action.card] = None
    return list(seen)


def _play_action(view: _View, card: Card, rng: random.Random | None) -> Action:
    if not card.is_wild:
        return A.PLAY[card]
    rest = list(view.hand)
    rest.remove(card)
    color = best_color(rest, rng) if not view.style.block else _wild_color(view, card, rest)
    return A.PLAY_WILD[card][COLORS.index(color)]


def _wild_color(view: _View, card: Card, rest: list[Card]) -> Color:
    """The strong style's wild color: one we hold much of and the next player likely lacks."""
    counts = color_counts(rest)
    style = view.style
    danger = 3.0 if view.next_size <= DANGER else 1.0

    def value(color: Color) -> float:
        held = counts[color] + sum(c.points for c in rest if c.color is color) / 1000.0
        chance = view.stuck(card, color, remembered=False)
        return style.color_weight * held + style.wild_block * chance * danger

    return max(COLORS, key=value)


def points_count(game: Game) -> bool:
    """Whether the cards left in the hands may still matter to the match: not when the
    round's winner, under `winner` scoring, reaches the target with any points at all."""
    rules = game.rules
    if rules.scoring is not Scoring.WINNER:
        return True
    return any(score + 1 < rules.target for score in game.scores.values())


def holds_color(hand: Sequence[Card], color: Color | None) -> bool:
    return any(c.color is color for c in hand)


def color_counts(hand: Sequence[Card]) -> dict[Color, int]:
    """How many cards of each color `hand` holds (wild cards have none): what every player's
    "the color held most" starts from, each with its own way to break a tie."""
    counts = dict.fromkeys(COLORS, 0)
    for card in hand:
        if card.color is not None:
            counts[card.color] += 1
    return counts


def best_color(hand: Sequence[Card], rng: random.Random | None) -> Color:
    """The color we hold most of (then the one worth most points, to shed it): our wild color."""
    counts = dict.fromkeys(COLORS, 0.0)
    for card in hand:
        if card.color is not None:
            counts[card.color] += 1.0 + card.points / 1000.0
    if rng is not None:
        for color in COLORS:
            counts[color] += rng.random() * 1e-6
    return max(COLORS, key=counts.__getitem__)


def _score_play(view: _View, card: Card) -> float:
    """How good playing `card` now is; the highest-scoring playable card is played."""
    hand = view.hand
    if len(hand) == 1:
        return 1000.0  # going out
    rest = list(hand)
    rest.remove(card)
    counts = color_counts(rest)
    danger = view.opponent_min <= DANGER
    next_danger = view.next_size <= DANGER
    style = view.style
    score = 0.0
    if card.is_wild:
        if style.block:
            color = _wild_color(view, card, rest)
        else:
            color = max(COLORS, key=counts.__getitem__)
        # Holding a wild keeps a way out of any color; spend it only when nothing else plays.
        score -= style.wild_keep
        if card is WILD_FOUR:
            score += 4 * OPPONENT_CARD + TURN_VALUE - 2.0
            if next_danger:
                score += 12.0
    else:
        assert card.color is not None
        color = card.color
    # Stay in the color we hold most of, so that we can go on playing.
    score += style.color_weight * counts[color]
    # Cards in the rest of the hand that would follow this one (same color or same face).
    follow = sum(1 for c in rest if c.is_wild or c.color is color or c.face == card.face)
    score += style.follow_bonus if follow else -style.no_follow
    if style.block:
        score += style.block * view.stuck(card, color) * (3.0 if next_danger else 1.0)
    # Shed points: a little always, much more when someone may go out soon.
    if view.points_count:
        score += card.points * (0.08 if danger else 0.01)
    jump_in = view.game.rules.jump_in and not card.is_wild
    if jump_in and style.pair_bonus and card.kind is not Kind.DRAW_TWO and card in rest:
        score += style.pair_bonus
    kind = card.kind
    if kind is Kind.DRAW_TWO:
        score += 2 * OPPONENT_CARD + TURN_VALUE * 0.5
        if next_danger:
            score += 10.0
        elif view.game.rules.pass_draw_two and not any(c.kind is Kind.DRAW_TWO for c in rest):
            score -= style.keep_defence
    elif kind is Kind.SKIP or (kind is Kind.REVERSE and view.n == 2):
        score += TURN_VALUE * 0.5
        if next_danger:
            score += 8.0
    elif kind is Kind.REVERSE:
        # Play passes to the previous player instead of the next one.
        if next_danger and view.prev_size > view.next_size:
            score += 6.0
        elif view.prev_size <= DANGER and view.prev_size < view.next_size:
            score -= 6.0
    return score


def _worth_playing_wild(view: _View, card: Card) -> bool:
    """Play a wild as our only playable card, or draw and keep it for when it is needed more?

    Playing it sheds a card and turns the color to ours; keeping it is worth it only with a big
    hand when nobody is close to going out, the wild is our last one, and a Draw may well bring a
    playable card. With nothing left to draw, keeping it would only pass the turn (and with every
    player doing so, the round would never end).
    """
    if view.opponent_min <= DANGER or len(view.hand) < view.style.keep_wild_hand:
        return True
    if sum(1 for c in view.hand if c.is_wild) > 1:
        return True
    game = view.game
    nothing_to_draw = game.draw_pile_size + len(game.discard) <= 1
    return nothing_to_draw


def _worth_playing_drawn(view: _View, drawn: Card) -> bool:
    """After drawing: play the drawn card, unless it is a wild we would rather keep."""
    if not drawn.is_wild:
        return True
    if drawn is WILD_FOUR and holds_color(view.hand, view.game.current_color):
        return False  # no bluffing
    return _worth_playing_wild(view, drawn)


# ---------------------------------------------------------------------------------- penalties


def _answer_penalty(view: _View, legal: list[Action], rng: random.Random | None) -> Action:
    """Pass on / defend if possible, else challenge a Wild Draw Four when it pays, else accept."""
    game = view.game
    pending = game.pending
    assert pending is not None
    answers = distinct_plays(legal)
    best_answer: Card | None = None
    if answers:
        rest_counts = color_counts(view.hand)
        best_answer = max(answers, key=lambda c: rest_counts[c.color] if c.color else 0)
    # Value of each option compared with accepting (drawing `amount` and losing the turn).
    answer_value = (
        pending.amount + 1 + 2 * OPPONENT_CARD if best_answer is not None else float("-inf")
    )
    challenge_value = float("-inf")
    if A.CHALLENGE in legal:
        p = guilt_probability(game, view.player, view.style.bluff_odds, view.memory)
        gain = pending.amount + TURN_VALUE + 4 * OPPONENT_CARD
        if game.rules.guilty_takes_back:
            gain += OPPONENT_CARD  # the offender also takes the Wild Draw Four back
        challenge_value = p * gain - (1.0 - p) * 2.0  # innocent: we draw two more
    if best_answer is not None and answer_value >= challenge_value:
        return _play_action(view, best_answer, rng)  # a Wild Draw Four when stacking
    if challenge_value > 0.0:
        return A.CHALLENGE
    return A.ACCEPT
