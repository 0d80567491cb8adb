"""The rules every adapter shares for showing one game from several processes
(`bot.delivery.publisher`)."""

from __future__ import annotations

import pytest

from bot.delivery.publisher import _Games, behind, claim_turn, store_sent
from bot.service.refs import Refs
from tests.adapters.hands import hand


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


class _Stored:
    """The refs of the storage port in a dict, claims included (`claim_ref` is atomic there)."""

    def __init__(self) -> None:
        self.data: dict[tuple[int, str], str] = {}

    async def get_ref(self, game_id: int, key: str) -> str | None:
        return self.data.get((game_id, key))

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        self.data[(game_id, key)] = value

    async def refs(self, game_id: int) -> dict[str, str]:
        return {k: v for (g, k), v in self.data.items() if g == game_id}

    async def claim_ref(
        self, game_id: int, key: str, value: str, *, replacing: str | None = None
    ) -> str | None:
        if self.data.get((game_id, key)) == replacing:
            self.data[(game_id, key)] = value
        return self.data.get((game_id, key))


async def test_one_process_sends_a_turns_hand_new() -> None:
    """The first process to claim a turn's hand version sends it new; another publishing the
    same turn only edits, the claimer asking again still may, and the next turn is claimable."""
    refs = Refs(_Stored())
    view = hand(version=4)
    assert await claim_turn(refs, "tg:turn:100", view, "a")
    assert not await claim_turn(refs, "tg:turn:100", view, "b")
    assert await claim_turn(refs, "tg:turn:100", view, "a")
    assert await claim_turn(refs, "tg:turn:100", hand(version=6), "b")
    assert not await claim_turn(refs, "tg:turn:100", view, "a")  # an older turn, published late


async def test_a_message_sent_new_replaces_the_stored_one() -> None:
    """The id a process stores for a message it sent new gives back the one stored, even one
    another process stored since this one looked, so that one is deleted, not left shown."""
    stored = _Stored()
    refs = Refs(stored)
    assert await store_sent(refs, 12, "tg:hand:100", "7") is None
    await refs.put(12, "tg:hand:100", "9")  # another process's, sent meanwhile
    assert await store_sent(refs, 12, "tg:hand:100", "11") == "9"
    assert stored.data[(12, "tg:hand:100")] == "11"


async def test_a_message_stored_late_goes_when_a_newer_one_is_stored() -> None:
    """A process that stores the id of a message it sent new only after another process
    stored a newer one (lower in the chat) keeps that one: its own is the one that goes."""
    stored = _Stored()
    refs = Refs(stored)
    await refs.put(12, "tg:hand:100", "15")
    assert await store_sent(refs, 12, "tg:hand:100", "11") == "11"
    assert stored.data[(12, "tg:hand:100")] == "15"
    assert await store_sent(refs, 12, "tg:hand:100", "15") is None  # stored by another already
