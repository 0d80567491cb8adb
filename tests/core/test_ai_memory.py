"""The table's memory of who could not play on what, and how the strong player reads it."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from core import actions as A
from core.actions import Action
from core.ai import easy, guilt_probability
from core.ai.arena import Observer, Policy, play_round
from core.ai.baselines import greedy_player, random_player
from core.ai.memory import KEEP, Memory, Void
from core.ai.worlds import Worlds, unseen_cards
from core.cards import Card, Color, standard_deck
from core.game import Game
from core.rules import Rules


def _full_deck(
    hands: dict[str, str], discard: str, current: str, rules: Rules | None = None
) -> Game:
    """A position whose draw pile holds every card not in a hand or the discard pile."""
    rest = Counter(standard_deck())
    rest.subtract(Card.parse_many(" ".join([*hands.values(), discard])))
    draw = " ".join(c.text for c in sorted(rest.elements(), key=str))
    return Game.from_position(list(hands), hands, discard, draw, rules, current)


def _seen(memory: Memory, game: Game, player: str, text: str) -> None:
    action = Action.parse(text)
    memory.observe(game, player, action)
    game.apply(player, action)


def test_a_draw_by_choice_and_the_pass_after_it_are_remembered() -> None:
    game = _full_deck({"a": "y1 y2 g7", "b": "r1 r2"}, discard="r5", current="a")
    memory = Memory()
    _seen(memory, game, "a", "draw")
    [fact] = memory.of("a")
    assert (fact.top, fact.color, fact.count) == (Card.parse("r5"), Color.RED, 3)
    assert fact.excluded == Card.parse("r5").playable_on[Color.RED]
    if A.PASS in game.legal_actions("a"):  # the drawn card did not play: it counts as well
        _seen(memory, game, "a", "pass")
        assert memory.of("a")[0].count == 4
    assert memory.of("b") == []


def test_a_play_from_the_known_cards_lowers_the_count_one_drawn_since_does_not() -> None:
    # "a" could not play on b5 with three cards, and has drawn one since.
    game = _full_deck({"a": "y1 y2 g7 r9", "b": "b2 r1"}, discard="r3", current="a")
    memory = Memory(round_no=game.round_no, voids={"a": [Void(Card.parse("b5"), Color.BLUE, 3)]})
    _seen(memory, game, "a", "play r9")  # r9 does not play on b5: it may be one of the three
    assert memory.of("a")[0].count == 2
    game = _full_deck({"a": "y1 y2 g7 b9", "b": "b2 r1"}, discard="b3", current="a")
    memory = Memory(round_no=game.round_no, voids={"a": [Void(Card.parse("b5"), Color.BLUE, 3)]})
    _seen(memory, game, "a", "play b9")  # blue would have played on b5: drawn since
    assert memory.of("a")[0].count == 3


def test_the_count_never_exceeds_the_hand_and_an_empty_fact_goes() -> None:
    game = _full_deck({"a": "y1 y2", "b": "b2 r1"}, discard="y3", current="a")
    memory = Memory(round_no=game.round_no, voids={"a": [Void(Card.parse("b5"), Color.BLUE, 2)]})
    _seen(memory, game, "a", "play y1")
    assert memory.of("a")[0].count == 1
    game = _full_deck({"a": "y1", "b": "b2 r1"}, discard="y3", current="a")
    memory = Memory(round_no=game.round_no, voids={"a": [Void(Card.parse("b5"), Color.BLUE, 1)]})
    memory.observe(game, "a", Action.parse("play y1"))
    assert memory.of("a") == []


def test_a_new_round_and_a_swap_of_hands_forget_everything() -> None:
    rules = Rules.preset("classic").with_option("seven_zero", True)
    game = _full_deck({"a": "r7 y2", "b": "b2 r1"}, discard="r3", current="a", rules=rules)
    memory = Memory(round_no=game.round_no, voids={"b": [Void(Card.parse("y5"), Color.YELLOW, 2)]})
    memory.observe(game, "a", Action.parse("play r7 @b"))
    assert memory.voids == {}
    memory = Memory(
        round_no=game.round_no + 1, voids={"b": [Void(Card.parse("y5"), Color.YELLOW, 2)]}
    )
    memory.observe(game, "a", Action.parse("play y2"))
    assert memory.voids == {} and memory.round_no == game.round_no


def test_only_the_newest_facts_are_kept() -> None:
    memory = Memory()
    for i in range(KEEP + 2):
        game = _full_deck({"a": "y1 y2 g7", "b": "b2 r1"}, discard=f"r{i}", current="a")
        memory.round_no = game.round_no
        memory.observe(game, "a", A.DRAW)
    assert [f.top for f in memory.voids["a"]] == [Card.parse(f"r{i}") for i in range(2, KEEP + 2)]


@pytest.mark.parametrize("preset", ["classic", "house", "minecraft"])
@pytest.mark.parametrize("baseline", [random_player, greedy_player], ids=["random", "greedy"])
def test_against_players_who_play_when_they_can_every_fact_holds(
    preset: str, baseline: Policy
) -> None:
    """The baselines draw only when nothing plays, so whatever the memory says of a hand is
    true of the real hand at every moment of 30 rounds (at least `count` of its cards are
    outside `excluded`), and it does say something."""
    rules = dataclasses.replace(Rules.preset(preset), target=1)
    players = ["p0", "p1", "p2", "p3"]
    checked: list[int] = []
    for seed in range(30):
        memory = Memory()
        game = Game.new(players, rules, seed=seed)
        rngs = {p: random.Random(f"{seed}:{p}") for p in players}
        observe = _checked_memory(memory, checked)
        play_round(game, dict.fromkeys(players, baseline), rngs, random.Random(seed), observe)
    assert len(checked) > 100


def _checked_memory(memory: Memory, checked: list[int]) -> Observer:
    """An observer that feeds `memory` and checks every fact against the real hands."""

    def observe(game: Game, player: str, action: Action) -> None:
        memory.observe(game, player, action)
        for p, facts in memory.voids.items():
            hand = game.hands[p]
            for fact in facts:
                outside = sum(1 for c in hand if c not in fact.excluded)
                assert fact.count <= len(hand)
                assert outside >= fact.count, (p, fact, [str(c) for c in hand])
                checked.append(fact.count)

    return observe


def test_a_stored_memory_reads_back_and_a_broken_one_is_forgotten() -> None:
    memory = Memory(
        round_no=2,
        voids={
            "a": [Void(Card.parse("r5"), Color.RED, 3), Void(Card.parse("gskip"), Color.BLUE, 1)]
        },
    )
    again = Memory.from_dict(memory.to_dict())
    assert again == memory
    assert again.voids["a"][1].excluded == Card.parse("gskip").playable_on[Color.BLUE]
    for broken in ({"voids": {"a": [["r55", "r", 1]]}}, {"voids": []}, {"round": "x"}, [], None):
        assert Memory.from_dict(broken) == Memory()  # type: ignore[arg-type]


def test_after_leaves_the_old_memory_as_it_was() -> None:
    game = _full_deck({"a": "y1 y2 g7", "b": "r1 r2"}, discard="r5", current="a")
    memory = Memory()
    later = memory.after(game, "a", A.DRAW)
    assert memory.of("a") == [] and len(later.of("a")) == 1


# ---------------------------------------------------------------------------------- readers


def test_worlds_deal_the_known_cards_outside_what_they_could_not_play() -> None:
    game = _full_deck(
        {"me": "b1 b2", "a": "y1 y2 g7 g8 y9", "b": "r1 r2 r3 r4 r5"}, discard="r6", current="me"
    )
    memory = Memory(round_no=game.round_no, voids={"a": [Void(Card.parse("r6"), Color.RED, 4)]})
    unseen = unseen_cards(game, "me")
    assert unseen is not None
    worlds = Worlds(game, "me", unseen, memory)
    rng = random.Random(1)
    fifth = set()
    for _ in range(50):
        world = worlds.deal(rng)
        hand = world.hand("a")
        assert len(hand) == 5
        assert sum(1 for c in hand if c not in memory.voids["a"][0].excluded) >= 4
        cards = [c for p in world.players for c in world.hand(p)] + world.discard
        assert Counter(cards + world.draw_pile) == Counter(standard_deck())
        fifth.update(c for c in hand if c in memory.voids["a"][0].excluded)
    assert fifth  # one card is not covered by the fact: it may be anything


def test_worlds_still_deal_every_card_when_the_memory_was_wrong() -> None:
    """Facts that cannot all hold (a player who drew while holding a playable card): the hand
    takes what is left, and the deck still adds up."""
    game = _full_deck({"me": "b1 b2", "a": "y1 y2 g7", "b": "r1 r2"}, discard="r6", current="me")
    every = frozenset(standard_deck())
    wrong = Void(Card.parse("r6"), Color.RED, 3)
    wrong.excluded = every  # nothing could be held
    memory = Memory(round_no=game.round_no, voids={"a": [wrong]})
    unseen = unseen_cards(game, "me")
    assert unseen is not None
    world = Worlds(game, "me", unseen, memory).deal(random.Random(0))
    cards = [c for p in world.players for c in world.hand(p)] + world.discard + world.draw_pile
    assert Counter(cards) == Counter(standard_deck()) and len(world.hand("a")) == 3


def test_the_next_player_known_to_hold_nothing_that_follows_is_surely_stuck() -> None:
    game = _full_deck({"me": "r3 b7 y1", "a": "g1 g2 g4", "b": "y2 y4"}, discard="r3", current="me")
    memory = Memory(round_no=game.round_no, voids={"a": [Void(Card.parse("r3"), Color.RED, 3)]})
    style = dataclasses.replace(easy.EASY, block=1.0)
    knows = easy._View(game, "me", style, memory)
    blind = easy._View(game, "me", style, None)
    r3 = Card.parse("r3")
    assert knows.stuck(r3, Color.RED) == pytest.approx(1.0)
    assert blind.stuck(r3, Color.RED) < 0.5
    assert knows.stuck(r3, Color.RED, remembered=False) == blind.stuck(r3, Color.RED)
    b7 = Card.parse("b7")  # blue follows b7, and the known cards may well be blue
    assert knows.stuck(b7, Color.BLUE) < blind.stuck(b7, Color.BLUE)


def test_a_wild_draw_four_from_a_player_known_to_lack_the_old_color_was_no_bluff() -> None:
    game = _full_deck({"off": "wild4 y1 y2", "me": "b1 b2"}, discard="r3", current="off")
    memory = Memory(round_no=game.round_no, voids={"off": [Void(Card.parse("r3"), Color.RED, 2)]})
    memory.observe(game, "off", Action.parse("play wild4 g"))
    assert memory.of("off")[0].count == 2  # the Wild Draw Four was drawn since
    game.apply("off", Action.parse("play wild4 g"))
    assert guilt_probability(game, "me", 1.0, memory) == 0.0
    assert guilt_probability(game, "me", 1.0) > 0.3
