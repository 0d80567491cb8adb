"""`bench/engine.py`'s driver for this engine plays the policy its docstring states.

The benchmark's ratio is only a fair comparison if our random player plays the same kind of game
as RLCard's: a uniform choice among the plays, a draw only when nothing plays, a penalty always
taken. The driver takes shortcuts for speed; this holds it to the policy, move by move.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bench import engine as bench
from core import actions as A
from core.actions import Action, ActionType
from core.events import Event
from core.game import Game


class _Watched:
    """A game that checks every move the driver makes against the policy."""

    def __init__(self, game: Game, picks: Counter[tuple[int, int]]) -> None:
        self._game = game
        self._picks = picks
        self._listed: list[Action] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def legal_actions(self, player: str) -> list[Action]:
        self._listed = self._game.legal_actions(player)
        return self._listed.copy()

    def apply(self, player: str, action: Action) -> list[Event]:
        game, listed = self._game, self._listed
        assert player == game.current_player
        assert action in listed
        plays = [a for a in listed if a.type is ActionType.PLAY]
        if plays:
            assert action in plays
            self._picks[len(plays), plays.index(action)] += 1
        else:
            if game.pending is not None:
                assert action is A.ACCEPT
            elif listed[0].type is ActionType.CHOOSE:
                assert action.type is ActionType.CHOOSE
            else:
                assert action is A.DRAW
            self._picks[0, 0] += 1  # (no play listed)
        return game.apply(player, action)


def test_our_random_player_plays_uniformly_among_its_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    picks: Counter[tuple[int, int]] = Counter()

    class WatchedGame:
        @staticmethod
        def new(players: list[str], rules: Any, seed: int) -> _Watched:
            return _Watched(Game.new(players, rules, seed), picks)

    monkeypatch.setattr(bench, "Game", WatchedGame)
    rng = random.Random(5)
    steps = [bench.play_ours(seed, rng) for seed in range(300)]
    assert sum(picks.values()) == sum(steps)  # every move was checked
    # With two plays to choose from, each is picked about half the time (a binomial test at
    # about five standard deviations, so that it fails only for a biased driver).
    first, second = picks[2, 0], picks[2, 1]
    total = first + second
    assert total > 1000
    assert abs(first - total / 2) < 5 * (total / 4) ** 0.5
    # and with three, the last one is picked too (a driver that miscounts from the end would not)
    assert picks[3, 2] > picks[3, 0] / 2
