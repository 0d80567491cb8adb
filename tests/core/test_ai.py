"""The computer player: strength, legality, privacy, UNO calls and challenges.

The table driver (`_play_until_round_ends`) used by the strength and legality tests:

- each step, the current player acts once: the computer through `choose_action`, a random player
  uniformly among its legal actions except `catch` (catching belongs to the off-turn chance
  below, where everybody gets the same kind of chance); a random player holding two cards may so
  call UNO before playing, as often as it picks that action among the others;
- after every action, every player in a random order gets one chance at what can be done off
  turn: calling its own forgotten UNO, catching, and (house rules) jumping in. The computer takes
  whatever `choose_action` returns of those; a random player takes one of its options, uniformly,
  with probability 0.5. Any action taken starts a new round of chances (a new action), until
  nobody acts. Without anyone catchable and without jump-in there is nothing to do off turn, so
  the driver skips the round of chances then (the same outcome, much faster).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable

import pytest

from core import actions as A
from core.actions import Action, ActionType
from core.ai import choose_action, guilt_probability, random_action
from core.cards import ALL_CARDS, Card
from core.events import RoundEnded
from core.game import Game
from core.rules import Rules

OFF_TURN = (ActionType.UNO, ActionType.CATCH)

# Called with the game, the acting player and the action, before it is applied.
Observer = Callable[[Game, str, Action], None]


def _round_winner(events: list[object]) -> str | None:
    for event in events:
        if isinstance(event, RoundEnded):
            return event.winner
    return None


def _random_turn(game: Game, player: str, rng: random.Random) -> Action:
    legal = [a for a in game.legal_actions(player) if a.type is not ActionType.CATCH]
    return legal[rng.randrange(len(legal))]


def _random_off_turn(game: Game, player: str, rng: random.Random) -> Action | None:
    current = game.current_player
    options = [
        a
        for a in game.legal_actions(player)
        if a.type is ActionType.CATCH
        or (a.type is ActionType.UNO and game.catchable == player)
        or (a.type is ActionType.PLAY and player != current)
    ]
    if not options or rng.random() >= 0.5:
        return None
    return options[rng.randrange(len(options))]


def _ai_off_turn(game: Game, player: str, rng: random.Random) -> Action | None:
    action = choose_action(game, player, rng)
    if action is None:
        return None
    if action.type in OFF_TURN or (
        action.type is ActionType.PLAY and player != game.current_player
    ):
        return action
    return None  # its turn action waits for its turn


def _play_until_round_ends(
    game: Game,
    computers: set[str],
    rng: random.Random,
    observe: Observer | None = None,
    max_steps: int = 20_000,
) -> str:
    """Play one round with the driver described in the module docstring; return its winner."""
    for _ in range(max_steps):
        player = game.current_player
        if player in computers:
            action = choose_action(game, player, rng)
            assert action is not None, "the computer must act on its turn"
        else:
            action = _random_turn(game, player, rng)
        if observe is not None:
            observe(game, player, action)
        winner = _round_winner(list(game.apply(player, action)))
        if winner is not None:
            return winner
        while game.catchable is not None or game.rules.jump_in:
            order = list(game.players)
            rng.shuffle(order)
            for other in order:
                if other in computers:
                    off = _ai_off_turn(game, other, rng)
                else:
                    off = _random_off_turn(game, other, rng)
                if off is not None:
                    break
            else:
                break
            if observe is not None:
                observe(game, other, off)
            winner = _round_winner(list(game.apply(other, off)))
            if winner is not None:
                return winner
    raise AssertionError("the round did not end")


# ---------------------------------------------------------------------------------- strength


def test_beats_three_random_players() -> None:
    """1,000 seeded four-player classic rounds, the computer's seat rotating: >= 40% wins."""
    rules = dataclasses.replace(Rules.preset("classic"), target=1)
    players = ["p0", "p1", "p2", "p3"]
    start = time.perf_counter()
    wins = 0
    rounds = 1000
    for seed in range(rounds):
        game = Game.new(players, rules, seed=seed)
        me = players[seed % 4]
        wins += _play_until_round_ends(game, {me}, random.Random(seed)) == me
    elapsed = time.perf_counter() - start
    rate = wins / rounds
    print(f"computer player won {wins}/{rounds} = {rate:.1%} against 3 random in {elapsed:.1f}s")
    assert rate >= 0.40


# ---------------------------------------------------------------------------------- legality


def _rule_sets() -> list[tuple[str, Rules]]:
    sets = [(name, Rules.preset(name)) for name in ("classic", "house", "minecraft")]
    sets.append(
        (
            "house+creepers+no_bluffing",
            dataclasses.replace(Rules.preset("house"), creepers=4, no_bluffing=True),
        )
    )
    return sets


@pytest.mark.parametrize(("name", "rules"), _rule_sets(), ids=[n for n, _ in _rule_sets()])
def test_never_illegal_and_always_calls_uno(name: str, rules: Rules) -> None:
    """Every action it returns is legal, and it never plays its second-to-last card uncalled."""
    seen: set[str] = set()
    checked = 0

    def check(game: Game, player: str, action: Action) -> None:
        nonlocal checked
        if player not in computers:
            return
        checked += 1
        assert action in game.legal_actions(player), (name, str(action))
        kind = action.type.value
        if action.type is ActionType.PLAY:
            if player != game.current_player:
                kind = "jump-in"
            elif game.pending is not None:
                kind = "answer"
            elif len(game.hands[player]) == 2:
                # Its second-to-last card on its own turn: UNO must have been called first.
                assert game.precall == player, "played the second-to-last card without UNO"
        seen.add(kind)

    expected = {"play", "draw", "pass", "accept", "challenge", "uno", "catch", "choose"}
    if rules.no_bluffing:
        # Nothing to challenge, and with passing on a penalty waits only when it can be answered.
        expected -= {"challenge", "accept"}
    if rules.first_card_number:
        expected.discard("choose")  # never a wild first card
    if rules.jump_in:
        expected |= {"jump-in", "answer"}
    # One pass over 2-10 players; more passes (new seeds) only while some kind of action has
    # not come up yet: a few are rare (it accepts a Wild Draw Four only from a short hand).
    for extra in range(4):
        if extra and expected <= seen:
            break
        for n in range(2, 11):
            for k in range(6):
                seed = n * 100 + k + extra * 10_000
                players = [f"p{i}" for i in range(n)]
                rng = random.Random(seed)
                # All computers, or computers in every other seat against random players.
                computers = set(players if k == 0 else players[k % 2 :: 2])
                game = Game.new(players, dataclasses.replace(rules, target=300), seed=seed)
                for _ in range(4):
                    if game.is_over:
                        break
                    _play_until_round_ends(game, computers, rng, check)
                    _check_jump_in_uno(game, computers, rng)
    print(f"{name}: {checked} computer actions checked, kinds: {sorted(seen)}")
    assert checked > 3000
    assert expected - seen == set()


def _check_jump_in_uno(game: Game, computers: set[str], rng: random.Random) -> None:
    """After the round, still: a computer left with one uncalled card calls it at once."""
    if game.catchable in computers:
        assert choose_action(game, game.catchable, rng) is A.UNO


def test_calls_uno_right_after_a_jump_in() -> None:
    """A jump-in cannot be announced before: the computer calls UNO at its next chance."""
    game = Game.from_position(
        ["a", "me", "c"],
        {"a": "r1 r2 r3", "me": "g4 y6", "c": "b1 b2 b3"},
        discard="g9 g4",
        draw="r5 r6 r7 r8",
        rules=Rules.preset("house"),
        current="a",
    )
    # Out of turn, with the identical card: it jumps in.
    assert choose_action(game, "me") == A.PLAY[Card.parse("g4")]
    game.apply("me", A.PLAY[Card.parse("g4")])
    assert game.catchable == "me"
    assert choose_action(game, "me") is A.UNO


def test_calls_uno_before_its_second_to_last_card() -> None:
    game = Game.from_position(
        ["me", "b"],
        {"me": "r5 g7", "b": "y1 y2 y3"},
        discard="r3",
        draw="b1 b2 b3 b4",
        current="me",
    )
    assert choose_action(game, "me") is A.UNO
    game.apply("me", A.UNO)
    action = choose_action(game, "me")
    assert action == A.PLAY[Card.parse("r5")]
    game.apply("me", action)
    assert game.catchable is None
    assert "me" in game.safe


def test_catches_a_player_who_forgot_uno() -> None:
    game = Game.from_position(
        ["b", "me", "c"],
        {"b": "r5 r6", "me": "g1 g2 g3", "c": "y1 y2 y3"},
        discard="r3",
        draw="b1 b2 b3 b4",
        current="b",
    )
    game.apply("b", A.PLAY[Card.parse("r5")])  # no UNO called
    assert game.catchable == "b"
    assert choose_action(game, "me") is A.CATCH  # on its turn
    assert choose_action(game, "c") is A.CATCH  # and off turn


# ---------------------------------------------------------------------------------- privacy


def _scrambled(game: Game, me: str, rng: random.Random) -> Game:
    """The same public position with every hidden card replaced (counts kept)."""
    data = game.to_dict()
    pool = [c for c in ALL_CARDS if c.text != "creeper" or game.rules.creepers]

    def cards(count: int) -> str:
        return " ".join(rng.choice(pool).text for _ in range(count))

    for p, hand in list(data["hands"].items()):
        if p != me:
            data["hands"][p] = cards(len(hand.split()))
    data["draw"] = cards(len(data["draw"].split()))
    if data["drawn"] is not None and game.current_player != me:
        data["drawn"] = data["hands"][game.current_player].split()[-1]
    if data["pending"] is not None:
        # Whether a Wild Draw Four was legal is the offender's secret until challenged.
        data["pending"]["legal"] = rng.random() < 0.5
    data["seed"] = rng.randrange(10**9)
    return Game.from_dict(data)


@pytest.mark.parametrize("preset", ["classic", "house", "minecraft"])
def test_never_reads_hidden_information(preset: str) -> None:
    """Decisions are unchanged when other hands, the draw pile and W4 legality are swapped."""
    compared = 0
    scramble_rng = random.Random(7)

    def check(game: Game, player: str, action: Action) -> None:
        nonlocal compared
        for me in computers:
            seed = scramble_rng.randrange(10**9)
            real = choose_action(game, me, random.Random(seed))
            other = choose_action(_scrambled(game, me, scramble_rng), me, random.Random(seed))
            assert real == other, (me, str(real), str(other))
            compared += 1

    for seed in range(40):
        n = 2 + seed % 5
        players = [f"p{i}" for i in range(n)]
        # Every seat a computer in half the rounds (they then also face computers' choices).
        computers = set(players) if seed % 2 else {players[seed % n]}
        rules = dataclasses.replace(Rules.preset(preset), target=1)
        game = Game.new(players, rules, seed=seed)
        _play_until_round_ends(game, computers, random.Random(seed), check)
    assert compared > 3000


# ---------------------------------------------------------------------------------- penalties


def _wild_four_on_me(
    discard: str, offender_hand: str, my_hand: str, call_uno: bool, named: str = "g"
) -> Game:
    game = Game.from_position(
        ["off", "me", "x"],
        {"off": offender_hand, "me": my_hand, "x": "y1 y2 y3 y4"},
        discard=discard,
        draw=" ".join(["b5"] * 30),
        current="off",
    )
    if call_uno:
        game.apply("off", A.UNO)
    game.apply("off", Action.parse(f"play wild4 {named}"))
    assert game.pending is not None and game.pending.target == "me"
    return game


def test_challenges_a_guilty_looking_wild_four() -> None:
    # Red was in play, almost no red seen, and the offender kept eleven cards.
    game = _wild_four_on_me(
        discard="y3 r3",
        offender_hand="wild4 r1 r2 y5 y6 b7 b8 g1 g2 g3 g4 g5",
        my_hand="b1 b2 y7",
        call_uno=False,
    )
    assert guilt_probability(game, "me") > 0.9
    assert choose_action(game, "me") is A.CHALLENGE
    events = game.apply("me", A.CHALLENGE)
    assert len(game.hands["off"]) == 11 + 4
    assert events


def test_does_not_challenge_an_innocent_looking_wild_four() -> None:
    # 24 of the 25 red cards are in sight and the offender kept one card: surely not red.
    reds_seen = "r0 r1 r1 r2 r2 r3 r3 r4 r4 r5 r5 r6 r6 r7 r7 r8 r8 r9 r9 rskip rskip"
    game = _wild_four_on_me(
        discard="y3 " + reds_seen,
        offender_hand="wild4 y9",
        my_hand="rrev rrev r+2 b2",
        call_uno=True,
    )
    assert guilt_probability(game, "me") < 0.05
    assert choose_action(game, "me") is A.ACCEPT


def test_guilt_probability_ignores_the_hidden_verdict() -> None:
    """The estimate is the same whether the offender was in fact guilty or innocent."""
    guilty = _wild_four_on_me("y3 r3", "wild4 r9 y5 y6", "b1 b2", call_uno=False)
    innocent = _wild_four_on_me("y3 r3", "wild4 y9 y5 y6", "b1 b2", call_uno=False)
    assert guilty.pending is not None and not guilty.pending.legal
    assert innocent.pending is not None and innocent.pending.legal
    assert guilt_probability(guilty, "me") == guilt_probability(innocent, "me")


def test_bluff_odds_weigh_the_guilt_unless_the_old_color_is_named_again() -> None:
    """With `bluff_odds` b the odds of guilt are multiplied by b (Bayes); naming the color that
    was in play before (red here) is what no honest player without red would do, so then the
    plain estimate stands."""
    game = _wild_four_on_me("y3 r3", "wild4 b9 y5 y6", "b1 b2", call_uno=False)
    plain = guilt_probability(game, "me")
    assert 0.2 < plain < 0.9
    odds = plain / (1 - plain) * 0.25
    assert guilt_probability(game, "me", 0.25) == pytest.approx(odds / (1 + odds))
    assert guilt_probability(game, "me", 1.0) == plain
    named_red = _wild_four_on_me("y3 r3", "wild4 b9 y5 y6", "b1 b2", call_uno=False, named="r")
    assert guilt_probability(named_red, "me", 0.25) == pytest.approx(plain)


def test_passes_a_draw_two_on_and_defends_in_house_rules() -> None:
    house = Rules.preset("house")
    game = Game.from_position(
        ["a", "me", "c"],
        {"a": "r+2 r1 r2", "me": "b+2 g5 g6", "c": "y1 y2 y3"},
        discard="r4",
        draw="b1 b2 b3 b4 b5 b6",
        rules=house,
        current="a",
    )
    game.apply("a", A.PLAY[Card.parse("r+2")])
    assert choose_action(game, "me") == A.PLAY[Card.parse("b+2")]

    game = Game.from_position(
        ["a", "me", "c"],
        {"a": "wild4 y1 y2", "me": "g+2 g5 b6", "c": "y1 y2 y3"},
        discard="r4",
        draw="b1 b2 b3 b4 b5 b6",
        rules=house,
        current="a",
    )
    game.apply("a", Action.parse("play wild4 g"))
    assert choose_action(game, "me") == A.PLAY[Card.parse("g+2")]


# ---------------------------------------------------------------------------------- play


def test_keeps_wilds_and_prefers_its_main_color() -> None:
    game = Game.from_position(
        ["me", "b"],
        {"me": "wild r7 g7 g1 g2 g3 g4 g5", "b": "y1 y2 y3 y4 y5 y6 y7"},
        discard="r3 r7",
        draw="b1 b2 b3 b4",
        current="me",
    )
    # r7 and g7 both play (and the wild); g7 moves to the color it holds most of.
    assert choose_action(game, "me") == A.PLAY[Card.parse("g7")]


def test_names_its_own_color_for_a_wild() -> None:
    game = Game.from_position(
        ["me", "b"],
        {"me": "wild b1 b2 y1", "b": "y2 y3 y4 y5 y6 y7"},
        discard="r8",
        draw="b4 b5 b6 b7",
        current="me",
    )
    assert choose_action(game, "me") == Action.parse("play wild b")


def test_hits_the_next_player_who_is_about_to_go_out() -> None:
    game = Game.from_position(
        ["me", "b", "c"],
        {"me": "r5 r6 r7 r+2 g1", "b": "y1", "c": "y2 y3 y4 y5 y6 y7"},
        discard="r3",
        draw="b1 b2 b3 b4",
        current="me",
    )
    assert choose_action(game, "me") == A.PLAY[Card.parse("r+2")]


def test_plays_a_playable_drawn_card() -> None:
    game = Game.from_position(
        ["me", "b"],
        {"me": "g1 g2", "b": "y1 y2 y3 y4"},
        discard="r3",
        draw="r9 b2 b3 b4",
        current="me",
    )
    assert choose_action(game, "me") is A.DRAW
    game.apply("me", A.DRAW)
    assert game.drawn == Card.parse("r9")
    assert choose_action(game, "me") == A.PLAY[Card.parse("r9")]


def test_keeps_its_last_wild_only_while_a_draw_may_help() -> None:
    hand = "wild y1 y2 y3 b1 b2"  # six cards, only the wild plays on r8
    position = {"me": hand, "b": "g1 g2 g3 g4 g5 g6"}
    game = Game.from_position(["me", "b"], position, discard="r8", draw="b4 b5", current="me")
    assert choose_action(game, "me") is A.DRAW
    # Nothing to draw (and nothing to reshuffle): keeping the wild would only pass the turn.
    game = Game.from_position(["me", "b"], position, discard="r8", draw="", current="me")
    assert choose_action(game, "me") == Action.parse("play wild y")
    # Two wilds: one is spent, the other still kept.
    position["me"] = "wild wild y1 y2 y3 b1"
    game = Game.from_position(["me", "b"], position, discard="r8", draw="b4 b5", current="me")
    assert choose_action(game, "me") == Action.parse("play wild y")


def test_never_bluffs_a_wild_draw_four() -> None:
    game = Game.from_position(
        ["me", "b"],
        {"me": "wild4 r5 g1", "b": "y1"},
        discard="r3",
        draw="b1 b2 b3 b4",
        current="me",
    )
    assert choose_action(game, "me") == A.PLAY[Card.parse("r5")]


def test_off_turn_it_has_nothing_to_do_without_jump_in() -> None:
    game = Game.new(["a", "b", "c"], Rules.preset("classic"), seed=3)
    assert game.catchable is None
    for other in game.players:
        if other != game.current_player:
            assert choose_action(game, other) is None


def test_random_action_is_uniform_over_legal_actions() -> None:
    game = Game.from_position(
        ["me", "b"],
        {"me": "r5 r6 g3 wild", "b": "y1 y2"},
        discard="r3",
        draw="b1 b2 b3 b4",
        current="me",
    )
    legal = game.legal_actions("me")
    rng = random.Random(1)
    counts = {a: 0 for a in legal}
    for _ in range(len(legal) * 300):
        action = random_action(game, "me", rng)
        assert action is not None
        counts[action] += 1
    assert min(counts.values()) > 200
    assert random_action(game, "b", rng) is None
