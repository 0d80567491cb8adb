"""Seeded matches replay exactly as the engine played them when they were recorded.

`fixtures/replays.json` was recorded from the engine as of commit 479cc3f by running this
module: `python -m tests.core.test_replays --record`. Each match is driven by a seeded random choice
among all players' legal actions (on and off turn, as in `test_properties`), with now and then a
refused action, a timeout or a player leaving. Everything observable goes into a running
SHA-256 digest, step by step: the legal actions of every player and of a stranger, the move,
its events (`event_to_dict`), the refusal's reason code, `default_action` and `to_dict()`. The
fixture keeps the digest every `CHECKPOINT` steps (so that a difference is found near where it
starts), the number of steps and the final `to_dict()` in full.

Any change to the order of the legal actions, to an event, to a reason code or to the stored
state fails here, with the first checkpoint that differs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from core.actions import Action, ActionType
from core.cards import ALL_CARDS, COLORS
from core.errors import IllegalAction
from core.events import event_to_dict
from core.game import Game
from core.rules import Rules, Scoring
from tests.core.helpers import PRESETS, seats

FIXTURE = Path(__file__).parent / "fixtures" / "replays.json"
CHECKPOINT = 250
MAX_STEPS = 20_000
SPACE: tuple[Action, ...] = (
    *(Action(ActionType.PLAY, card, color) for card in ALL_CARDS for color in (None, *COLORS)),
    *(Action(t) for t in ActionType if t not in (ActionType.PLAY, ActionType.CHOOSE)),
    *(Action(ActionType.CHOOSE, color=color) for color in COLORS),
)
# (preset, options, players, target): every preset with the options from other tables, alone
# and together, no bluffing and tally scoring, two to ten players.
MATCHES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("classic", {}, 4, 1),
    ("classic", {}, 4, 1),
    ("classic", {}, 2, 250),
    ("classic", {"stacking": True}, 4, 250),
    ("classic", {"seven_zero": True}, 3, 250),
    ("classic", {"draw_until_playable": True, "no_bluffing": True}, 5, 250),
    ("classic", {"jump_in": True, "scoring": Scoring.TALLY}, 10, 250),
    ("house", {}, 4, 250),
    ("house", {}, 2, 250),
    ("house", {"stacking": True, "pass_draw_two": False, "defend_wild_four": False}, 6, 250),
    ("house", {"seven_zero": True, "draw_until_playable": True}, 4, 250),
    ("house", {"no_bluffing": True, "two_player_reverse_skips": False}, 2, 250),
    ("minecraft", {}, 4, 250),
    ("minecraft", {"stacking": True, "seven_zero": True}, 7, 250),
    ("minecraft", {"draw_until_playable": True, "jump_in": True}, 3, 250),
    ("minecraft", {"scoring": Scoring.TALLY, "creepers": 8}, 4, 250),
)
assert {m[0] for m in MATCHES} == set(PRESETS)


def _rules(preset: str, options: dict[str, Any], target: int) -> Rules:
    return dataclasses.replace(Rules.preset(preset), target=target, **options)


def _line(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def replay(index: int) -> dict[str, Any]:
    """Play match `index` of MATCHES with its seeds; the digests, the step count, the end."""
    preset, options, n, target = MATCHES[index]
    rng = random.Random(index)
    game = Game.new(seats(n), _rules(preset, options, target), seed=1000 + index)
    digest = hashlib.sha256(_line([event_to_dict(e) for e in game.opening_events]))
    checkpoints: list[str] = []
    step = 0
    while not game.is_over:
        step += 1
        assert step <= MAX_STEPS, "the match does not end"
        listed = {p: game.legal_actions(p) for p in [*game.players, "stranger"]}
        record: dict[str, Any] = {
            "legal": {p: [str(a) for a in acts] for p, acts in listed.items()},
            "default": {p: str(game.default_action(p)) for p in game.players},
        }
        if step % 3 == 0:  # a refused action: its reason code
            player = rng.choice([*game.players, "stranger"])
            action = rng.choice(SPACE)
            if action not in listed[player]:
                with pytest.raises(IllegalAction) as info:
                    game.apply(player, action)
                record["refused"] = [player, str(action), info.value.reason]
        roll = rng.random()
        if roll < 0.002:
            leaver = rng.choice(game.players)
            record["move"] = [leaver, "leave"]
            events = game.remove_player(leaver)
        elif roll < 0.01:
            record["move"] = [game.current_player, "timeout"]
            events = game.time_out(game.current_player)
        else:
            moves = [(p, a) for p, acts in listed.items() for a in acts]
            plays = [m for m in moves if m[1].type is ActionType.PLAY]
            player, action = rng.choice(plays if plays and rng.random() < 0.6 else moves)
            record["move"] = [player, str(action)]
            events = game.apply(player, action)
        record["events"] = [event_to_dict(e) for e in events]
        record["state"] = game.to_dict()
        digest.update(_line(record))
        if step % CHECKPOINT == 0:
            checkpoints.append(digest.hexdigest()[:16])
    checkpoints.append(digest.hexdigest()[:16])
    return {"steps": step, "checkpoints": checkpoints, "final": game.to_dict()}


def _stored() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(FIXTURE.read_text())
    return data


@pytest.mark.parametrize("index", range(len(MATCHES)))
def test_a_seeded_match_replays_exactly(index: int) -> None:
    want = _stored()[index]
    got = replay(index)
    for i, (a, b) in enumerate(zip(got["checkpoints"], want["checkpoints"], strict=False)):
        assert a == b, f"first difference before step {(i + 1) * CHECKPOINT}"
    assert got["steps"] == want["steps"]
    assert got["checkpoints"] == want["checkpoints"]
    assert got["final"] == want["final"]


def test_the_replays_cover_long_matches() -> None:
    stored = _stored()
    assert len(stored) == len(MATCHES)
    assert sum(s["steps"] for s in stored) > 5_000
    assert all(s["final"]["winners"] for s in stored)


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    FIXTURE.write_text(json.dumps([replay(i) for i in range(len(MATCHES))], indent=1) + "\n")
