"""A floor for `bench/engine.py`: the cheapest engine with the contract's API shape.

Not part of the product, and not run by `make bench`: `.venv/bin/python bench/engine_floor.py`
(needs the `bench` extra). It answers one question for issue 2: how close to RLCard can any
engine with this API get? `Floor` keeps what the API costs on every move (a list of interned
`Action`s from `legal_actions(player)`, cached for `apply` and copied for the caller; `apply`
checking the action against it and returning events built the cheap way) and only the rules
that still make a round of UNO: matching, Skip, Reverse, Draw Two and Wild Draw Four taken at
once, a voluntary draw that passes unless the card plays. There is no dealer draw, no UNO call
or catch, no pending penalty or challenge, no jump-in, blocked round or scoring.

It runs interleaved with `Game` and RLCard, with the drivers and policies of `bench/engine.py`:
RUNS back-to-back triples of GAMES-game runs (CPU time), and prints the median games per second
of each and the median of the triples' ratios over RLCard (why: see `bench/engine.py`).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from math import floor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engine as bench

from core import actions as A
from core.actions import Action, ActionType
from core.cards import WILD_FOUR, Card, Color, Kind
from core.events import CardPlayed, CardsDrawn, DrawReason, Event, Passed
from core.game import _deck
from core.shuffle import random_numbers, shuffled

RUNS = 31
GAMES = 100
_new = object.__new__
PLAY = ActionType.PLAY
SKIP, REVERSE, DRAW_TWO = Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO
CHOICE = DrawReason.CHOICE


class Floor:
    """One round with the API of `core.game.Game` and the fewest rules (module docstring)."""

    __slots__ = (
        "_cache",
        "_cache_move",
        "_cache_player",
        "color",
        "current",
        "direction",
        "discard",
        "drawn",
        "hands",
        "move_no",
        "pile",
        "players",
        "round_winner",
        "seed",
    )

    def __init__(self, players: list[str], seed: int) -> None:
        self.players = list(players)
        self.seed = seed
        deck = shuffled(_deck(0), random_numbers(f"{seed}:0", len(_deck(0))))
        n = len(players)
        dealt = deck[-7 * n :]
        del deck[-7 * n :]
        self.hands = {p: dealt[k * 7 : (k + 1) * 7] for k, p in enumerate(players)}
        top = deck.pop()
        while top.is_wild:
            deck.insert(0, top)
            top = deck.pop()
        self.pile = deck
        self.discard = [top]
        self.color: Color | None = top.color
        self.current = 0
        self.direction = 1
        self.move_no = 0
        self._cache_move = -1
        self._cache_player = ""
        self._cache: list[Action] = []
        self.round_winner: str | None = None
        self.drawn: Card | None = None

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    def legal_actions(self, player: str) -> list[Action]:
        if self._cache_move != self.move_no or self._cache_player != player:
            assert self.color is not None
            playable = self.discard[-1].playable_on[self.color]
            out: list[Action] = []
            if self.drawn is not None:
                if self.drawn in playable:
                    out += self.drawn.plays
                out.append(A.PASS)
            else:
                for c in self.hands[player]:
                    if c in playable:
                        plays = c.plays
                        if plays[0] not in out:
                            out += plays
                out.append(A.DRAW)
            self._cache = out
            self._cache_move = self.move_no
            self._cache_player = player
        return self._cache.copy()

    def apply(self, player: str, action: Action) -> list[Event]:
        if self._cache_move != self.move_no or self._cache_player != player:
            self.legal_actions(player)
        if action not in self._cache:
            raise ValueError(f"illegal: {action}")
        self.move_no += 1
        n = len(self.players)
        if action.type is PLAY:
            return self._play(player, action, n)
        if action is A.DRAW:
            got = self._draw(player, 1)
            drawn = _new(CardsDrawn)
            drawn.player, drawn.count, drawn.reason, drawn.cards = player, len(got), CHOICE, (*got,)
            assert self.color is not None
            if got and got[0] in self.discard[-1].playable_on[self.color]:
                self.drawn = got[0]
                return [drawn]
            return [drawn, self._pass(player, n)]
        return [self._pass(player, n)]

    def _play(self, player: str, action: Action, n: int) -> list[Event]:
        card = action.card
        assert card is not None
        hand = self.hands[player]
        hand.remove(card)
        self.discard.append(card)
        color = action.color or card.color
        assert color is not None
        self.color = color
        self.drawn = None
        played = _new(CardPlayed)
        played.player, played.card, played.color = player, card, color
        played.jump_in, played.cards_left = False, len(hand)
        if not hand:
            self.round_winner = player
        elif card.kind is SKIP:
            self.current = (self.current + 2 * self.direction) % n
        elif card.kind is REVERSE:
            self.direction = -self.direction
            self.current = (self.current + self.direction) % n
        elif card.kind is DRAW_TWO or card is WILD_FOUR:
            target = (self.current + self.direction) % n
            self._draw(self.players[target], 2 if card.kind is DRAW_TWO else 4)
            self.current = (target + self.direction) % n
        else:
            self.current = (self.current + self.direction) % n
        return [played]

    def _pass(self, player: str, n: int) -> Event:
        self.drawn = None
        self.current = (self.current + self.direction) % n
        passed = _new(Passed)
        passed.player = player
        return passed

    def _draw(self, player: str, count: int) -> list[Card]:
        pile = self.pile
        if len(pile) < count:
            pile[0:0] = self.discard[:-1]
            del self.discard[:-1]
            pile[:] = shuffled(pile, random_numbers(f"{self.seed}:{self.move_no}", len(pile)))
        got = pile[-count:]
        del pile[-count:]
        self.hands[player] += got
        return got


def play_floor(seed: int, rng: random.Random) -> int:
    """One round of `Floor` with the driver and policy of `bench.play_ours`."""
    game = Floor(bench.PLAYERS, seed)
    rand = rng.random
    legal_actions = game.legal_actions
    apply = game.apply
    steps = 0
    while game.round_winner is None and steps < 10_000:
        player = game.current_player
        legal = legal_actions(player)
        plays = len(legal)
        while plays and legal[plays - 1].type is not PLAY:
            plays -= 1
        # With no play, the last action is the draw (or the pass after one).
        apply(player, legal[floor(rand() * plays)] if plays else legal[-1])
        steps += 1
    return steps


def _rate(run: int, play: Callable[..., int], game: Any = None) -> tuple[float, float]:
    rng = random.Random(run)
    steps = 0
    start = time.process_time()
    for seed in range(run * GAMES, (run + 1) * GAMES):
        steps += play(seed, rng) if game is None else play(game, rng)
    return GAMES / (time.process_time() - start), steps / GAMES


def main() -> int:
    rates: dict[str, list[tuple[float, float]]] = {"floor": [], "ours": [], "rlcard": []}
    for run in range(RUNS):
        rates["floor"].append(_rate(run, play_floor))
        rates["ours"].append(_rate(run, bench.play_ours))
        rates["rlcard"].append(_rate(run, bench.play_theirs, bench.rlcard_game(run)))
    median = {k: statistics.median(r for r, _ in v) for k, v in rates.items()}
    for name, runs in rates.items():
        steps = statistics.mean(s for _, s in runs)
        print(f"{name:7s} {median[name]:8.1f} games/s (median), {steps:5.1f} actions/game")
    for name in ("floor", "ours"):
        pairs = [a / b for (a, _), (b, _) in zip(rates[name], rates["rlcard"], strict=True)]
        print(f"{name} over rlcard: {statistics.median(pairs):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
