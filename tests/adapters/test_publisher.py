"""The rules every adapter shares for showing one game from several processes
(`bot.delivery.publisher`)."""

from __future__ import annotations

import pytest

from bot.delivery.publisher import _Games, behind


def test_games_ended_elsewhere_are_forgotten_past_a_bound() -> None:
    """A process forgets a game when it shows its end; one that ended in another process is
    forgotten once the process remembers `KEPT_GAMES` others it showed more lately."""
    forgotten: list[int] = []
    games = _Games(2, forgotten.append)
    games[1], games[2] = 5, 7
    assert games.get(1) == 5  # shown lately again
    games[3] = 1
    assert forgotten == [2] and set(games) == {1, 3}


@pytest.mark.parametrize(
    ("seen", "version", "stale"),
    [
        (None, 0, True),  # never shown here
        (-1, 3, True),  # read for a hand alone
        (4, 5, False),  # the next version: this process showed the one before
        (4, 4, False),
        (4, 6, True),  # other processes committed in between
    ],
)
def test_refs_are_read_again_after_a_gap(seen: int | None, version: int, stale: bool) -> None:
    assert behind(seen, version) is stale
