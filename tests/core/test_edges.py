"""Positions at the edges of the rules, probed move by move.

These are the positions where an engine most easily goes wrong: UNO windows, two players,
Creepers and short piles, leaving mid-turn, new rounds, jump-ins, no bluffing. Each script plays
its moves and, before every move and at the end, probes the position:

- every candidate move (each play of the player to act, a jump-in and a card of everyone else,
  every other action by anyone) is applied on a copy exactly when `legal_actions` lists it, and a
  refused one raises `IllegalAction` and leaves the game unchanged;
- `Game.from_dict(game.to_dict())` is the same game: same state, same lists for everyone;
- the cards are all still there.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable

import pytest

from core.actions import Action, ActionType
from core.cards import ALL_CARDS, COLORS, Card, standard_deck
from core.errors import IllegalAction
from core.game import Game
from core.rules import Rules, Scoring
from tests.core.helpers import FILLER, PRESETS, all_cards, deck, position, rules, seats

_OTHER_ACTIONS: tuple[Action, ...] = (
    *(Action(t) for t in ActionType if t not in (ActionType.PLAY, ActionType.CHOOSE)),
    *(Action(ActionType.CHOOSE, color=color) for color in COLORS),
)
SPACE: tuple[Action, ...] = (
    *(Action(ActionType.PLAY, card, color) for card in ALL_CARDS for color in (None, *COLORS)),
    *_OTHER_ACTIONS,
)


# ------------------------------------------------------------------ the probing machinery


def _plays(cards: Iterable[Card], wrong_color: bool) -> list[Action]:
    out: list[Action] = []
    for c in dict.fromkeys(cards):
        out.append(Action(ActionType.PLAY, c))  # a wild without a color: refused
        if c.is_wild:
            out.extend(c.plays[:2])
        elif wrong_color:
            out.append(Action(ActionType.PLAY, c, COLORS[0]))  # a colored card with a color
    return out


def _candidate_actions(game: Game) -> list[tuple[str, Action]]:
    """The moves worth probing: every play of the player to act (and of the top card), a play
    of each other player's first card and of the top card, and every other action by anyone."""
    top = game.discard[-1]
    out: list[tuple[str, Action]] = []
    for p in game.players:
        hand = game.hands[p]
        if p == game.current_player:
            moves = _plays([*hand, top, ALL_CARDS[7]], True) + list(_OTHER_ACTIONS)
        else:  # out of turn: a jump-in, a card, and the moves a player makes out of turn
            moves = _plays([top, *hand[:1]], False) + list(_OTHER_ACTIONS[:7])
        out += [(p, a) for a in moves]
    return out


def _outcome(game: Game, player: str, action: Action) -> tuple[str, object]:
    try:
        return "applied", game.apply(player, action)
    except IllegalAction as error:
        return "refused", error.reason


def _check_state(game: Game) -> None:
    """The game survives a round trip, and every card is still in play."""
    state = game.to_dict()
    fresh = Game.from_dict(state)
    assert fresh.to_dict() == state
    for player in [*game.players, *game.left, "nobody"]:
        assert fresh.legal_actions(player) == game.legal_actions(player), player


def _check_cards(before: Game, after: Game) -> None:
    """No card came or went (a new round deals the whole deck)."""
    if after.round_no == before.round_no:
        assert all_cards(after) == all_cards(before)
    else:
        assert all_cards(after) == deck(after.rules.creepers)


def _probe(game: Game, moves: Iterable[tuple[str, Action]]) -> None:
    """Try each move on a copy: it applies exactly when listed; refused, nothing changes."""
    for player, action in moves:
        copy = Game.from_dict(game.to_dict())
        before = copy.to_dict()
        listed = action in copy.legal_actions(player)
        got = _outcome(copy, player, action)
        assert (got[0] == "applied") == listed, f"{player!r} {action}: {got}, listed {listed}"
        if not listed:
            assert copy.to_dict() == before, f"refused {player!r} {action} changed the game"
        _check_state(copy)
        _check_cards(game, copy)


def _full_check(game: Game) -> None:
    _check_state(game)
    if not game.is_over:
        _probe(game, _candidate_actions(game))


def _move(game: Game, player: str, text: str | Action) -> list[object]:
    """Make a move (listed or not: `_outcome` says which), then re-check the state."""
    action = Action.parse(text) if isinstance(text, str) else text
    listed = action in game.legal_actions(player)
    before = Game.from_dict(game.to_dict())
    got = _outcome(game, player, action)
    assert (got[0] == "applied") == listed, f"{player!r} {action}: {got}"
    _check_state(game)
    _check_cards(before, game)
    return got[1] if got[0] == "applied" else []  # type: ignore[return-value]


def _leave(game: Game, player: str) -> None:
    game.remove_player(player)
    _check_state(game)


def _script(game: Game, moves: Iterable[str]) -> None:
    """Moves "p: action", "p: leave", or "next" (the first action the player to act has), with
    the full check before each and at the end."""
    for move in moves:
        _full_check(game)
        if game.is_over:
            break
        player, _, text = (part.strip() for part in move.partition(":"))
        if move == "next":
            player = game.current_player
            _move(game, player, game.legal_actions(player)[0])
        elif text == "leave":
            _leave(game, player)
        else:
            _move(game, player, text)
    _full_check(game)


def _random_moves(
    game: Game,
    rng: random.Random,
    steps: int,
    probes: int,
    leave: float = 0.0,
    greedy: float = 0.0,
) -> None:
    """Random moves (mostly by the player to act), with random probes on copies."""
    for _ in range(steps):
        _check_state(game)
        if game.is_over:
            return
        _probe(game, [(rng.choice(game.players), a) for a in rng.sample(SPACE, probes)])
        if len(game.players) > 2 and rng.random() < leave:
            _leave(game, rng.choice(game.players))
            continue
        player = game.current_player if rng.random() < 0.85 else rng.choice(game.players)
        legal = game.legal_actions(player)
        if not legal:
            continue
        plays = [a for a in legal if a.card is not None]
        if plays and rng.random() < greedy:  # play when possible: rounds end sooner
            legal = plays
        _move(game, player, rng.choice(legal))


# ------------------------------------------------------------------ UNO at the edges


@pytest.mark.parametrize("card", ["rskip", "rrev", "r+2", "wild4 g", "wild r", "r5"])
@pytest.mark.parametrize("reverse_skips", [True, False])
@pytest.mark.parametrize("called", [False, True])
def test_two_players_down_to_one_card(card: str, reverse_skips: bool, called: bool) -> None:
    """Skip and Reverse give the player at one card the next turn: their own UNO is pending."""
    game = position(
        {"a": f"{card.split()[0]} b2", "b": "g1 g3 y7 r1"},
        "r9",
        two_player_reverse_skips=reverse_skips,
    )
    moves = ["a: uno"] if called else []
    moves += [f"a: play {card}"]
    _script(game, moves)
    # Then whatever comes: the next moves of both, the catch or the call, as the list offers.
    rng = random.Random(f"{card}/{reverse_skips}/{called}")
    _random_moves(game, rng, 6, 0)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_catch_window_closes_on_the_next_players_move(preset: str) -> None:
    hands = {"a": "r5 b2", "b": "r1 g3 y7", "c": "y1 y2 y3", "d": "g7 g8 g9"}
    for follow in (
        ["b: play r1"],  # a play closes it
        ["b: draw"],  # a draw (nothing playable) closes it
        ["c: catch", "b: play r1"],  # caught in B's turn
        ["a: uno", "b: play r1"],  # A calls UNO out of turn, B's turn is no longer calm
        ["b: catch", "b: play r1"],
        ["d: uno", "b: play r1"],  # a false call
    ):
        game = position(hands, "r9", preset=preset, draw="b4 " + FILLER)
        _script(game, ["a: play r5", *follow])


@pytest.mark.parametrize("preset", ["classic", "house"])
def test_a_precall_then_the_play_or_a_draw(preset: str) -> None:
    hands = {"a": "r5 b2", "b": "r1 g3 y7", "c": "y1 y2 y3"}
    for moves in (
        ["a: uno", "a: play r5", "b: play r1", "c: draw"],
        ["a: uno", "a: draw", "a: play r6", "next"],  # a call before a draw counts for nothing
        ["a: uno", "a: draw", "a: pass", "b: play r1"],
        ["a: play r5", "a: uno", "b: play r1", "c: draw"],  # called right after the play
        ["a: play r5", "b: draw", "c: catch", "next", "next"],  # too late: nothing to catch
    ):
        game = position(hands, "r9", preset=preset, draw="r6 g4 " + FILLER)
        _script(game, moves)
    # One card, then the drawn card as the second-to-last.
    for moves in (
        ["a: draw", "a: play r6", "c: catch", "next"],
        ["a: draw", "a: play r6", "b: play r1", "c: catch", "next"],
        ["a: draw", "a: uno", "a: play r6", "b: catch", "next"],
        ["a: draw", "a: play r6", "a: uno", "next", "next"],
        ["a: draw", "a: pass", "next"],
    ):
        game = position({**hands, "a": "b2"}, "r9", preset=preset, draw="r6 g4 " + FILLER)
        _script(game, moves)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_wild_four_as_second_to_last_card_then_accept_or_challenge(preset: str) -> None:
    hands = {"a": "wild4 r2", "b": "g1 g3 y7", "c": "y1 y2 y3"}
    for moves in (
        ["a: play wild4 g", "b: accept", "next"],
        ["a: play wild4 g", "c: catch", "b: accept"],
        ["a: play wild4 g", "b: catch", "b: accept"],
        ["a: play wild4 g", "b: challenge"],
        ["a: play wild4 g", "a: uno", "b: accept"],
    ):
        game = position(hands, "r9", preset=preset, draw=FILLER)
        _script(game, moves)


@pytest.mark.parametrize("preset", ["classic", "minecraft"])
@pytest.mark.parametrize(
    "moves",
    [
        ["a: play r+2", "b: play g+2", "c: accept", "next"],  # passed on
        ["a: play r+2", "b: accept", "next"],
        ["a: play r+2", "next", "next"],
    ],
    ids=lambda moves: " / ".join(moves),
)
def test_a_draw_two_passed_on_without_jump_in(preset: str, moves: list[str]) -> None:
    """Passing a Draw Two on without jump-in: a target holding a Draw Two gets to answer it (the
    Draw Two is taken at once only when no answer is possible)."""
    hands = {"a": "r+2 r6 g9", "b": "g+2 g3 y7", "c": "y1 y2 y3", "d": "b1 b2"}
    game = position(hands, "r5", preset=preset, draw=FILLER, pass_draw_two=True, jump_in=False)
    _script(game, moves)


# ------------------------------------------------------------------ the round's first card


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "moves",
    [
        ["a: play r6", "next"],
        ["a: play r+2", "next"],
        ["a: play rskip", "next"],
        ["a: play rrev", "next"],
        ["a: play wild4 g", "b: accept", "next"],
        ["a: play wild4 g", "b: challenge", "next", "next"],  # house: back on the first card
        ["a: draw", "next", "next"],  # the first card stays on top for the next player
        ["a: draw", "a: play r6", "next"],  # the drawn card covers it
        ["c: play r5", "a: play r6", "c: play r6", "next"],  # no jump-in on the first card
    ],
    ids=lambda moves: " / ".join(moves),
)
def test_moves_on_the_rounds_first_card(preset: str, moves: list[str]) -> None:
    hands = {"a": "r+2 rskip rrev wild4 r6 g9", "b": "g1 g3 y7", "c": "r5 r6 y1", "d": "b1 b2"}
    game = position(hands, "r5", preset=preset, draw="r6 " + FILLER)
    state = game.to_dict()
    state["first_flip"] = True  # as `Game.new` leaves the round's first card
    game = Game.from_dict(state)
    _script(game, moves)


# ------------------------------------------------------------------ Creepers, short piles


@pytest.mark.parametrize("preset", ["house", "minecraft"])
@pytest.mark.parametrize(
    "draw",
    [
        "creeper r1 r2 r3 b6",  # a Creeper on top of the pile: a voluntary draw
        "b6 creeper r1 r2 r3 b6 g2",  # second: a Draw Two's penalty, or the draw after a pass
        "creeper",  # the Creeper is the last card: its 3 come from a reshuffle
        "",  # empty: a voluntary draw reshuffles
        "b6",  # one card
    ],
)
def test_creepers_and_short_piles(preset: str, draw: str) -> None:
    hands = {"a": "r+2 r5 g8 wild4", "b": "y1 y3 y7", "c": "g1 g3 y5"}
    for moves in (
        ["a: draw"],
        ["a: play r+2", "c: draw"],
        ["a: play wild4 b", "b: accept", "c: draw"],
        ["a: play wild4 y", "b: challenge", "b: draw"],
        ["a: play r5", "next", "next", "next"],
    ):
        game = position(hands, "y9 b9 wild b5 r9", preset=preset, draw=draw, color="r")
        _script(game, moves)


def test_a_drawn_creeper_waits_to_be_played() -> None:
    game = position(
        {"a": "g8 b2", "b": "y1 y3 y7", "c": "g1 g3 y5"},
        "r9",
        preset="minecraft",
        draw="creeper r1 r2 r3 b6",
    )
    _script(game, ["a: draw", "a: play creeper g", "b: draw", "c: play g1"])


def test_an_empty_pile_and_discard_blocks_the_round() -> None:
    hands = {"a": "g8 b2", "b": "y1 y3 y7", "c": "g1 g3 y5"}
    game = position(hands, "r9", draw="")
    _script(game, ["a: draw", "b: draw", "c: draw", "next"])


# ------------------------------------------------------------------ leaving mid-turn


@pytest.mark.parametrize("preset", ["classic", "house"])
@pytest.mark.parametrize(
    "moves",
    [
        ["b: leave", "a: play r1"],  # a player after the current one
        ["d: leave", "b: leave", "a: play r1"],
        ["a: leave", "b: play r2"],  # the current player in a calm turn
        ["a: draw", "a: leave", "b: play r2"],  # after drawing a playable card
        ["a: draw", "c: leave", "a: play r6"],  # another player, while the drawn card waits
        ["a: play r+2", "b: leave", "c: draw"],  # the target of a Draw Two
        ["a: play wild4 g", "a: leave", "next"],  # the offender: taken, or defended (house)
        ["a: play wild4 g", "b: leave", "c: draw"],  # the target of a Wild Draw Four
        ["a: play wild4 g", "c: leave", "b: accept"],
        ["a: play r1", "a: leave", "b: play r2"],  # left at one card, UNO not called
        ["a: play r1", "c: leave", "b: play r2"],
        ["a: play rrev", "b: leave", "d: draw"],  # after a Reverse
        ["a: play rskip", "d: leave", "c: play r3"],
        ["b: leave", "c: leave", "d: leave"],  # down to one player: the match ends
    ],
    ids=lambda moves: " / ".join(moves),
)
def test_a_player_leaves_mid_turn(preset: str, moves: list[str]) -> None:
    hands = {
        "a": "r1 r+2 wild4 rrev rskip g1",
        "b": "r2 g2 y2 b+2 g+2",
        "c": "r3 g3 y3",
        "d": "r4 g4 wild",
    }
    if moves[0] == "a: play r1":
        hands["a"] = "r1 g5"
    game = position(hands, "r9", preset=preset, draw="r6 " + FILLER)
    _script(game, moves)


# ------------------------------------------------------------------ the end of a round


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("last", ["r5", "r+2", "wild4 g", "rskip", "rrev", "wild y"])
@pytest.mark.parametrize("target", [1, 10_000])
def test_a_round_ends_and_the_next_is_dealt(preset: str, last: str, target: int) -> None:
    hands = {"a": last.split()[0], "b": "g1 g3 y7 r1", "c": "y1 y2 y3"}
    game = position(hands, "r9", preset=preset, target=target, scoring=Scoring.WINNER)
    _script(game, [f"a: play {last}"])
    _random_moves(game, random.Random(len(last) * target), 25, 1)


@pytest.mark.parametrize("scoring", [Scoring.WINNER, Scoring.TALLY])
def test_rounds_in_a_row_from_new(scoring: Scoring) -> None:
    """Small targets, many rounds: each new deal (first flip, dealer moving on)."""
    for preset in PRESETS:
        target = 150 if scoring is Scoring.WINNER else 60
        game = Game.new(seats(3), rules(preset, scoring=scoring, target=target), 5)
        _random_moves(game, random.Random(7), 400, 0, greedy=0.9)
        assert game.round_no > 1 or game.is_over


# ------------------------------------------------------------------ house rules, no bluffing


@pytest.mark.parametrize(
    "moves",
    [
        ["c: play r5", "next"],  # a jump-in, then the jumper's next player
        ["c: play r5", "a: play r6", "next"],  # the player whose turn was taken: refused
        ["a: play r6", "c: play r6", "next", "next"],
        ["a: play r+2", "c: play r+2", "next", "next"],  # a pending Draw Two jumped on
        ["a: play r+2", "b: accept", "c: play r+2", "d: accept", "next"],
        ["a: play r+2", "b: play g+2", "c: accept", "next"],  # passed on
        ["a: play rskip", "b: play rskip", "next", "next"],  # the skipped player jumps in
        ["a: play wild4 g", "b: play g+2", "c: accept", "next"],  # defended
        ["a: play wild4 g", "b: challenge", "next", "next"],  # guilty: takes it back
        ["a: draw", "c: play r5", "next"],  # a jump-in while the drawn card waits
        ["a: draw", "a: play r6", "c: play r6", "next"],
        ["a: draw", "a: pass", "c: play r5", "next"],
    ],
    ids=lambda moves: " / ".join(moves),
)
def test_house_jump_ins(moves: list[str]) -> None:
    hands = {
        "a": "r+2 rskip wild4 r6 g9",
        "b": "r5 r6 g+2 rskip b1",
        "c": "r5 r+2 r6 rskip y1",
        "d": "g4 r+2 y9 b7",
    }
    game = position(hands, "r5", preset="house", draw="r6 " + FILLER)
    _script(game, moves)


@pytest.mark.parametrize("preset", PRESETS)
def test_no_bluffing(preset: str) -> None:
    hands = {"a": "wild4 y2 g5", "b": "wild4 g1 r7 g+2", "c": "y1 y2 y3"}
    for moves in (
        ["a: play wild4 g", "next", "next", "next"],  # legal: taken at once
        ["b: play wild4 y", "a: play wild4 y"],  # b holds red: refused; then a's is legal
        ["a: draw", "next", "b: play wild4 b", "next", "next"],
        ["a: draw", "a: play wild4 b", "next", "next"],  # the drawn Wild Draw Four
    ):
        game = position(hands, "r9", preset=preset, draw="wild4 y4 " + FILLER, no_bluffing=True)
        _script(game, moves)


# ------------------------------------------------------------------ whole matches


_OPTION_SETS: list[dict[str, object]] = [
    {},
    {"no_bluffing": True},
    {"two_player_reverse_skips": False},
    {"scoring": Scoring.TALLY, "target": 150},
    {"target": 400},
    {"jump_in": True, "pass_draw_two": False},
    {"defend_wild_four": False, "guilty_takes_back": False},
    {"creepers": 8, "first_card_number": True},
    {"jump_in": False, "pass_draw_two": True},
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("options", range(len(_OPTION_SETS)))
def test_seeded_matches(preset: str, options: int) -> None:
    rng = random.Random(f"{preset}/{options}")
    n = [2, 3, 4, 6, 10, 2, 5, 3, 4][options]
    game = Game.new(seats(n), rules(preset, **_OPTION_SETS[options]), rng.randrange(10**6))
    _random_moves(game, rng, 40, 2, leave=0.02)


def _random_position(rng: random.Random) -> Game:
    preset = rng.choice(PRESETS)
    base = rules(preset, creepers=rng.choice([0, 0, 4, 8]))
    options = {
        name: rng.random() < 0.5
        for name in (
            "jump_in",
            "pass_draw_two",
            "defend_wild_four",
            "guilty_takes_back",
            "two_player_reverse_skips",
        )
        if rng.random() < 0.3
    }
    base = dataclasses.replace(base, target=rng.choice([1, 60, 10_000]), **options)
    n = rng.choice([2, 2, 3, 3, 4, 10])
    deck = standard_deck(8)
    rng.shuffle(deck)
    names = seats(n)
    hands = {p: " ".join(deck.pop().text for _ in range(rng.randint(1, 4))) for p in names}
    discard = " ".join(deck.pop().text for _ in range(rng.randint(1, 4)))
    draw = " ".join(deck.pop().text for _ in range(rng.choice([0, 1, 2, 3, 6, 20])))
    color = rng.choice(COLORS).value
    top_is_wild = discard.split()[-1].startswith(("wild", "creeper"))
    return Game.from_position(
        names,
        hands,
        discard,
        draw,
        base,
        rng.choice(names),
        rng.choice([1, -1]),
        color if top_is_wild or rng.random() < 0.1 else None,
        seed=rng.randrange(1000),
    )


@pytest.mark.parametrize("seed", range(12))
def test_random_small_positions(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3):
        game = _random_position(rng)
        _random_moves(game, rng, 40, 2, leave=0.04)


# ------------------------------------------------------------------ player ids, empty hands


@pytest.mark.parametrize("ids", [["", "b"], ["a", ""]])
def test_an_empty_player_id_is_refused(ids: list[str]) -> None:
    """A player id is a non-empty string: "" names nobody."""
    with pytest.raises(ValueError, match="non-empty"):
        Game.new(ids, Rules(), 1)
    with pytest.raises(ValueError, match="non-empty"):
        Game.from_position(ids, {p: "r1 r2" for p in ids}, "r9", "r4 b2 b3", Rules())


@pytest.mark.parametrize("ids", [[1, 2], ["a", None], ["a", b"b"]])
def test_a_player_id_that_is_not_a_string_is_refused(ids: list[object]) -> None:
    with pytest.raises(ValueError, match="non-empty strings"):
        Game.new(ids, Rules(), 1)  # type: ignore[arg-type]


def test_the_card_drawn_into_an_empty_hand_goes_out() -> None:
    """A player holding no card (a `from_position` position) draws a playable card and plays
    it: that is their last card, and the round ends."""
    game = position({"a": "", "b": "y5 g6", "c": "g1"}, "r9", draw="r4 b2 b3")
    _move(game, "a", "draw")
    _move(game, "a", "play r4")  # the general path scores the round and deals the next


def test_an_equal_but_distinct_player_id_gets_the_same_answers() -> None:
    """Ids that arrive from a chat are equal to the seated ones, not the same objects."""
    game = Game.new(seats(4), Rules.preset("classic"), 3)
    twin = Game.from_dict(game.to_dict())
    rng = random.Random(1)
    for _ in range(200):
        if game.is_over:
            break
        player = game.current_player
        other = "".join(list(player))  # a new string object, equal to the seated id
        assert other == player and other is not player
        legal = game.legal_actions(player)
        assert twin.legal_actions(other) == legal
        action = rng.choice(legal)
        assert twin.apply(other, action) == game.apply(player, action)
        assert twin.to_dict() == game.to_dict()
