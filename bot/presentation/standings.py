"""Who leads a match: players ordered by points the way the match's scoring counts them.

Under `winner` scoring a round's winner collects the others' cards, so more points lead; under
`tally` everyone adds up their own cards and, at the target, the fewest points win. Every score
list the bot shows goes through `ranked`, so a tally match never lists its loser first.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.rules import Scoring


def fewest_first(scoring: Scoring) -> bool:
    """Whether fewer points are better under `scoring`."""
    return scoring is Scoring.TALLY


def ranked(scores: Mapping[str, int], scoring: Scoring) -> list[tuple[str, int]]:
    """(player, points) pairs, the leader first.

    Equal points keep the order of `scores` (the engine's seat order): `sorted` is stable, and
    a stable order means a tie never reshuffles between two messages of the same match.
    """
    sign = 1 if fewest_first(scoring) else -1
    return sorted(scores.items(), key=lambda item: sign * item[1])
