"""Cards: notation round trips, card values, the deck (RULES.md section 2)."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest

from core.cards import (
    ALL_CARDS,
    COLORS,
    CREEPER,
    WILD,
    WILD_FOUR,
    Card,
    Color,
    Kind,
    hand_points,
    sort_hand,
    standard_deck,
)
from core.game import Game
from core.rules import Rules
from tests.core.helpers import PRESETS, all_cards, deck, seats

# The notation of the engine contract, written out independently of the engine's tables.
FACES = [str(n) for n in range(10)] + ["skip", "rev", "+2"]
NOTATION = [c + f for c in "rygb" for f in FACES] + ["wild", "wild4", "creeper"]


def test_every_card_has_the_contract_notation() -> None:
    assert sorted(str(c) for c in ALL_CARDS) == sorted(NOTATION)
    assert len(ALL_CARDS) == 55


@pytest.mark.parametrize("text", NOTATION)
def test_card_notation_round_trips(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert Card.parse(str(card)) is card
    # Case and surrounding spaces do not matter; the card is the same shared object.
    assert Card.parse(f"  {text.upper()} ") is card


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "r",
        "7",
        "r10",
        "x7",
        "red7",
        "r 7",
        "7r",
        "+2",
        "r+4",
        "rskipp",
        "gwild",
        "wild5",
        "wild 4",
        "creepers",
        "rrev2",
        "b-1",
        "y+",
        "draw",
    ],
)
def test_bad_card_raises_value_error_naming_the_input(text: str) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("bad", [None, 7, ["r7"]])
def test_card_parse_of_a_non_string_raises_value_error(bad: object) -> None:
    with pytest.raises(ValueError):
        Card.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("letter", ["r", "y", "g", "b"])
def test_color_notation_round_trips(letter: str) -> None:
    color = Color.parse(letter)
    assert str(color) == letter
    assert Color.parse(letter.upper()) is color


@pytest.mark.parametrize("text", ["", "x", "red", "rg", "wild"])
def test_bad_color_raises_value_error_naming_the_input(text: str) -> None:
    with pytest.raises(ValueError) as info:
        Color.parse(text)
    assert repr(text) in str(info.value)


def test_colors_are_red_yellow_green_blue() -> None:
    assert [str(c) for c in COLORS] == ["r", "y", "g", "b"]


@pytest.mark.parametrize(
    ("text", "kind", "color", "number", "points", "rank", "is_wild"),
    [
        ("r0", Kind.NUMBER, "r", 0, 0, 0, False),
        ("y7", Kind.NUMBER, "y", 7, 7, 7, False),
        ("b9", Kind.NUMBER, "b", 9, 9, 9, False),
        ("gskip", Kind.SKIP, "g", None, 20, 0, False),
        ("brev", Kind.REVERSE, "b", None, 20, 0, False),
        ("r+2", Kind.DRAW_TWO, "r", None, 20, 0, False),
        ("wild", Kind.WILD, None, None, 50, 0, True),
        ("wild4", Kind.WILD_FOUR, None, None, 50, 0, True),
        ("creeper", Kind.CREEPER, None, None, 50, 0, True),
    ],
)
def test_card_values(
    text: str,
    kind: Kind,
    color: str | None,
    number: int | None,
    points: int,
    rank: int,
    is_wild: bool,
) -> None:
    """Points (section 2) and the dealer-draw rank (action and wild cards count as zero)."""
    card = Card.parse(text)
    assert card.kind is kind
    assert (None if card.color is None else str(card.color)) == color
    assert card.number == number
    assert card.points == points
    assert card.rank == rank
    assert card.is_wild is is_wild


def test_named_wild_cards() -> None:
    assert (str(WILD), str(WILD_FOUR), str(CREEPER)) == ("wild", "wild4", "creeper")


def test_cards_keep_their_identity_through_copy_and_pickle() -> None:
    for card in ALL_CARDS:
        assert copy.copy(card) is card
        assert copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_standard_deck_has_108_cards_of_the_right_composition() -> None:
    cards = standard_deck()
    assert len(cards) == 108
    counts = Counter(str(c) for c in cards)
    for color in "rygb":
        assert counts[color + "0"] == 1
        for n in range(1, 10):
            assert counts[f"{color}{n}"] == 2
        for symbol in ("skip", "rev", "+2"):
            assert counts[color + symbol] == 2
        assert sum(v for k, v in counts.items() if k.startswith(color)) == 25
    assert counts["wild"] == 4
    assert counts["wild4"] == 4
    assert counts["creeper"] == 0


def test_minecraft_deck_adds_four_creepers_to_112() -> None:
    cards = standard_deck(Rules.preset("minecraft").creepers)
    assert len(cards) == 112
    counts = Counter(str(c) for c in cards)
    assert counts["creeper"] == 4
    counts.pop("creeper")
    assert counts == Counter(str(c) for c in standard_deck())


@pytest.mark.parametrize(("preset", "size"), [("classic", 108), ("house", 108), ("minecraft", 112)])
def test_a_new_game_holds_the_whole_deck(preset: str, size: int) -> None:
    for players in (2, 5, 10):
        game = Game.new(seats(players), Rules.preset(preset), seed=players)
        everything = all_cards(game)
        assert sum(everything.values()) == size
        assert everything == deck(Rules.preset(preset).creepers)


def test_presets_cover_every_deck() -> None:
    assert {Rules.preset(p).creepers for p in PRESETS} == {0, 4}


def test_hand_points_and_sorting() -> None:
    hand = Card.parse_many("wild b2 rskip y9 r3 creeper g+2 r0 wild4")
    assert hand_points(hand) == 50 + 2 + 20 + 9 + 3 + 50 + 20 + 0 + 50
    # Grouped by color in the order r, y, g, b; numbers before actions; wilds last.
    assert [str(c) for c in sort_hand(hand)] == [
        "r0",
        "r3",
        "rskip",
        "y9",
        "g+2",
        "b2",
        "wild",
        "wild4",
        "creeper",
    ]


def test_cards_compare_by_identity_only() -> None:
    """No ordering operators: a Python `__lt__` would make every `==` between cards (and so
    `list.remove`, `in`) go through slow Python-level dispatch. `sort_hand` gives the order."""
    r7, g7 = Card.parse("r7"), Card.parse("g7")
    assert r7 == Card.parse("r7") and r7 != g7
    with pytest.raises(TypeError):
        sorted([g7, r7])  # type: ignore[type-var]
