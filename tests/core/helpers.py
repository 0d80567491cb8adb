"""Builders and small checks shared by the engine tests (tests/core).

Positions are written in the engine's own notation: `hands` maps each player, in seat order, to
its cards separated by spaces; `discard` is the discard pile bottom to top; `draw` the draw pile,
top first.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import pytest

from core.actions import Action
from core.cards import Card, standard_deck
from core.errors import IllegalAction
from core.events import Event
from core.game import Game
from core.rules import Rules

PRESETS = ("classic", "house", "minecraft")
# A draw pile of plain number cards, so that drawing never triggers anything by accident.
FILLER = "b1 b2 b3 b4 b6 b7 b8 b9 y1 y2 y3 y4 y6 y7 y8 y9"

E = TypeVar("E", bound=Event)


def rules(preset: str = "classic", **options: Any) -> Rules:
    return dataclasses.replace(Rules.preset(preset), **options)


def position(
    hands: dict[str, str],
    discard: str,
    *,
    preset: str = "classic",
    draw: str = FILLER,
    current: str | None = None,
    direction: int = 1,
    color: str | None = None,
    scores: dict[str, int] | None = None,
    **options: Any,
) -> Game:
    """`Game.from_position` with players in the order of `hands` and a preset plus options."""
    return Game.from_position(
        list(hands),
        hands,
        discard,
        draw,
        rules(preset, **options),
        current,
        direction,
        color,
        scores=scores,
    )


def act(game: Game, player: str, text: str) -> list[Event]:
    return game.apply(player, Action.parse(text))


def refused(game: Game, player: str, action: str | Action) -> str:
    """Apply an action that must be refused; check nothing changed and return the reason."""
    if isinstance(action, str):
        action = Action.parse(action)
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(player, action)
    assert isinstance(info.value, ValueError)
    assert game.to_dict() == before, f"{action} by {player} changed the game"
    return info.value.reason


def legal(game: Game, player: str) -> set[str]:
    return {str(a) for a in game.legal_actions(player)}


def of(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def one(events: Iterable[Event], cls: type[E]) -> E:
    found = of(events, cls)
    assert len(found) == 1, f"expected one {cls.__name__}, got {found}"
    return found[0]


def names(events: Iterable[Event]) -> list[str]:
    return [e.name for e in events]


def hand(game: Game, player: str) -> Counter[str]:
    return Counter(str(c) for c in game.hand(player))


def cards(text: str) -> Counter[str]:
    return Counter(str(c) for c in Card.parse_many(text))


def all_cards(game: Game) -> Counter[str]:
    """Every card in the game: hands, draw pile and discard pile."""
    out: Counter[str] = Counter()
    for p in game.players:
        out.update(str(c) for c in game.hand(p))
    data = game.to_dict()
    out.update(data["draw"].split())
    out.update(data["discard"].split())
    return out


def deck(creepers: int = 0) -> Counter[str]:
    return Counter(str(c) for c in standard_deck(creepers))


def draw_pile_bottom_first(game: Game) -> list[str]:
    """The draw pile as `to_dict` stores it: bottom first, the top card last."""
    return str(game.to_dict()["draw"]).split()


@functools.cache
def find_seed(
    preset: str, players: int, what: str, predicate: Callable[[Game], bool], limit: int = 5000
) -> int:
    """The first seed whose `Game.new` satisfies `predicate` (`what` only names the search)."""
    ids = [f"p{i}" for i in range(players)]
    for seed in range(limit):
        if predicate(Game.new(ids, Rules.preset(preset), seed)):
            return seed
    raise AssertionError(f"no seed below {limit} gives {what} ({preset}, {players} players)")


def seats(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


# ------------------------------------------------------------------ tables of rule cases


@dataclasses.dataclass(frozen=True)
class Case:
    """One rule case: a position, moves ("p: action"), then what must hold.

    `expect` keys: `current`, `direction`, `color` (letter or None), `top`, `hands` (player to
    exact cards, or to a count), `events` (the event names of the last move, in order), `legal`
    (player to the exact set of legal actions), `refused` (a list of (player, action, reason),
    tried after the moves), `scores`.
    """

    name: str
    presets: tuple[str, ...]
    hands: dict[str, str]
    discard: str
    moves: tuple[str, ...] = ()
    expect: dict[str, Any] = dataclasses.field(default_factory=dict)
    draw: str = FILLER
    color: str | None = None
    current: str | None = None
    direction: int = 1
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    scores: dict[str, int] | None = None


def expand(cases: Iterable[Case]) -> list[Any]:
    """pytest params: one per case and preset, with ids `name[preset]`."""
    return [
        pytest.param(case, preset, id=f"{case.name}[{preset}]")
        for case in cases
        for preset in case.presets
    ]


def run_case(case: Case, preset: str) -> tuple[Game, list[Event]]:
    game = position(
        case.hands,
        case.discard,
        preset=preset,
        draw=case.draw,
        current=case.current,
        direction=case.direction,
        color=case.color,
        scores=case.scores,
        **case.options,
    )
    total = sum(all_cards(game).values())
    events: list[Event] = []
    for move in case.moves:
        player, _, text = move.partition(":")
        events = act(game, player.strip(), text.strip())
        assert sum(all_cards(game).values()) == total, f"cards changed after {move}"
    check(game, events, case.expect)
    return game, events


def check(game: Game, events: list[Event], expect: dict[str, Any]) -> None:
    unknown = set(expect) - {
        "current",
        "direction",
        "color",
        "top",
        "hands",
        "events",
        "legal",
        "refused",
        "scores",
    }
    assert not unknown, unknown
    if "events" in expect:
        assert names(events) == expect["events"]
    if "current" in expect:
        assert game.current_player == expect["current"]
    if "direction" in expect:
        assert game.direction == expect["direction"]
    if "color" in expect:
        color = game.current_color
        assert (None if color is None else str(color)) == expect["color"]
    if "top" in expect:
        assert str(game.top_card) == expect["top"]
    for player, want in expect.get("hands", {}).items():
        if isinstance(want, int):
            assert len(game.hand(player)) == want, player
        else:
            assert hand(game, player) == cards(want), player
    for player, want in expect.get("legal", {}).items():
        assert legal(game, player) == set(want), player
    for player, text, reason in expect.get("refused", []):
        assert refused(game, player, text) == reason, (player, text)
    if "scores" in expect:
        assert game.scores == expect["scores"]
