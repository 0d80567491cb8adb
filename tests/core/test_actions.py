"""Action notation: every action of the action space round-trips; bad text raises ValueError."""

from __future__ import annotations

import copy
import pickle

import pytest

from core import actions as A
from core.actions import Action, ActionType
from core.cards import ALL_CARDS, COLORS, Card, Color

SIMPLE_WORDS = ["draw", "pass", "accept", "challenge", "uno", "catch"]


def _parseable_actions() -> list[Action]:
    """Everything a player can write: plays (wilds with or without a color), the rest."""
    out: list[Action] = []
    for card in ALL_CARDS:
        out.append(Action(ActionType.PLAY, card))
        if card.is_wild:
            out.extend(Action(ActionType.PLAY, card, color) for color in COLORS)
    out.extend(Action(ActionType(word)) for word in SIMPLE_WORDS)
    out.extend(Action(ActionType.CHOOSE, color=color) for color in COLORS)
    return out


@pytest.mark.parametrize("action", _parseable_actions(), ids=str)
def test_action_notation_round_trips(action: Action) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert str(Action.parse(text)) == text
    assert Action.parse(f"  {text.upper()}  ") == action


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Action(ActionType.PLAY, Card.parse("r7")), "play r7"),
        (Action(ActionType.PLAY, Card.parse("gskip")), "play gskip"),
        (Action(ActionType.PLAY, Card.parse("brev")), "play brev"),
        (Action(ActionType.PLAY, Card.parse("y+2")), "play y+2"),
        (Action(ActionType.PLAY, Card.parse("wild4"), Color.GREEN), "play wild4 g"),
        (Action(ActionType.PLAY, Card.parse("wild"), Color.RED), "play wild r"),
        (Action(ActionType.PLAY, Card.parse("creeper"), Color.BLUE), "play creeper b"),
        (Action(ActionType.DRAW), "draw"),
        (Action(ActionType.PASS), "pass"),
        (Action(ActionType.ACCEPT), "accept"),
        (Action(ActionType.CHALLENGE), "challenge"),
        (Action(ActionType.UNO), "uno"),
        (Action(ActionType.CATCH), "catch"),
        (Action(ActionType.CHOOSE, color=Color.GREEN), "choose g"),
    ],
)
def test_contract_notation(action: Action, text: str) -> None:
    assert str(action) == text
    assert Action.parse(text) == action


def test_the_whole_action_space_prints_distinctly() -> None:
    """Every card with no color or any color, plus the other actions: all distinct strings."""
    space = [Action(ActionType.PLAY, c, col) for c in ALL_CARDS for col in (None, *COLORS)]
    space += [Action(ActionType(w)) for w in SIMPLE_WORDS]
    space += [Action(ActionType.CHOOSE, color=c) for c in COLORS]
    assert len({str(a) for a in space}) == len(space) == 55 * 5 + 6 + 4


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("jump", "'jump'"),
        ("play", "'play'"),
        ("play r7 g", "'play r7 g'"),  # only a wild card takes a color
        ("play r7 r g", "'play r7 r g'"),
        ("play zz", "'zz'"),
        ("play r10", "'r10'"),
        ("play wild q", "'q'"),
        ("play wild4 red", "'red'"),
        ("draw now", "'draw now'"),
        ("pass 2", "'pass 2'"),
        ("accept all", "'accept all'"),
        ("uno uno", "'uno uno'"),
        ("catch p1", "'catch p1'"),
        ("challenge p1", "'challenge p1'"),
        ("choose", "'choose'"),
        ("choose x", "'x'"),
        ("choose r g", "'choose r g'"),
        ("r7", "'r7'"),
    ],
)
def test_bad_action_raises_value_error_naming_the_input(text: str, named: str) -> None:
    with pytest.raises(ValueError) as info:
        Action.parse(text)
    assert named in str(info.value)


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_action_raises(text: str) -> None:
    with pytest.raises(ValueError, match="empty"):
        Action.parse(text)


def test_a_color_on_a_colored_card_prints_but_does_not_parse() -> None:
    """`Action(play, r7, g)` can be built (the engine refuses it: color_not_allowed)."""
    action = A.play(Card.parse("r7"), Color.GREEN)
    assert str(action) == "play r7 g"
    with pytest.raises(ValueError):
        Action.parse(str(action))


def test_shared_instances_equal_parsed_actions() -> None:
    assert Action.parse("draw") == A.DRAW
    assert Action.parse("pass") == A.PASS
    assert Action.parse("accept") == A.ACCEPT
    assert Action.parse("challenge") == A.CHALLENGE
    assert Action.parse("uno") == A.UNO
    assert Action.parse("catch") == A.CATCH
    for color in COLORS:
        assert A.CHOOSE[color] == Action.parse(f"choose {color}")
    for card in ALL_CARDS:
        expected = [f"play {card} {c}" for c in COLORS] if card.is_wild else [f"play {card}"]
        assert [str(a) for a in A.PLAYS[card]] == expected
        assert A.play(card) == Action.parse(f"play {card}")


def test_actions_are_interned_and_immutable() -> None:
    """Equal actions are one object (the engine checks legality by identity), and stay so
    through parsing, copying and pickling; nothing can change one."""
    wild = Card.parse("wild4")
    action = Action(ActionType.PLAY, wild, Color.GREEN)
    assert action is Action.parse("play wild4 g") is A.PLAYS[wild][2]
    assert copy.copy(action) is action and copy.deepcopy(action) is action
    assert pickle.loads(pickle.dumps(action)) is action
    assert Action(ActionType.DRAW) is A.DRAW
    with pytest.raises(AttributeError):
        action.color = Color.RED  # type: ignore[misc]
    with pytest.raises(TypeError):
        Action("play")  # type: ignore[arg-type]


@pytest.mark.parametrize("player", ["b", "tg:12345", "Discord-User_7"])
@pytest.mark.parametrize("card", ["r7", "g0", "b5"])
def test_a_play_naming_a_player_round_trips(card: str, player: str) -> None:
    """Seven-zero: `play r7 @b` names the player to swap hands with; the id keeps its case."""
    action = Action.parse(f"play {card} @{player}")
    assert (str(action.card), action.color, action.target) == (card, None, player)
    assert str(action) == f"play {card} @{player}"
    assert Action.parse(str(action)) is action
    assert Action(ActionType.PLAY, Card.parse(card), None, player) is action
    assert pickle.loads(pickle.dumps(action)) is action


@pytest.mark.parametrize("text", ["play r7 @", "play wild @b", "play rskip @b", "play r7 g @b"])
def test_a_bad_target_raises(text: str) -> None:
    with pytest.raises(ValueError):
        Action.parse(text)
