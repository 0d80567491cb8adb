"""Bot API calls per move in each Telegram play mode (private chat, group, both); run by
`bench/telegram.py` after its throughput windows, or alone (`python bench/telegram_modes.py`).

In one process: the fake Bot API of the tests with inline mode on and a sticker owner (the bot
makes its sticker sets at start; those calls are not counted), the real bot polling it, three
players in one group, a match to 100 points dealt from a fixed seed, played for --moves moves
(or to its end). The player to act moves as the tests' simulated player does (UNO, a card, a
wild then its color, take a penalty, draw, pass):

- private: presses the hand's buttons in the private chat;
- group: types the query of the table's "play here" button and chooses a result (one inline
  query answered per move; a wild's color is a button on the chosen sticker); no hand goes to
  a private chat;
- both: chooses inline results like `group`, while every hand is also kept up to date in the
  private chats (what a chat that never chose gets).

Counted per move, by kind: group (table edits and announcements), private (hands: sends,
edits, deletes), inline (answerInlineQuery, edits of chosen messages), callback answers.
Group edits go through the group's rate-limited queue in production; here it is off, so the
group figure is the upper bound (one table edit per move).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.game import Game  # noqa: E402
from core.rules import Rules  # noqa: E402
from tests.telegram.conftest import Harness, can_act  # noqa: E402
from tests.telegram.fake_bot_api import ApiCall, FakeBotAPI  # noqa: E402
from tests.telegram.players import policy  # noqa: E402
from tests.telegram.test_inline import REFUSED, choose, offered, set_mode  # noqa: E402

MODES = ("private", "group", "both")
KINDS = ("group", "private", "inline", "callback")


def kind_of(call: ApiCall) -> str | None:
    if call.is_("answerCallbackQuery"):
        return "callback"
    if call.is_("answerInlineQuery") or "inline_message_id" in call.params:
        return "inline"
    chat = call.chat_id
    if not isinstance(chat, int) or "Sticker" in call.method:
        return None
    return "group" if chat < 0 else "private"


async def measure(mode: str, moves: int, folder: Path) -> dict[str, float]:
    async with FakeBotAPI() as api:
        api.inline_mode = True
        owner = api.new_user("Owner")
        h = Harness(
            api,
            folder / f"{mode}.sqlite3",
            players=3,
            app_options={"sticker_owner": owner.id},
        )
        await h.start()
        try:
            await set_mode(h, mode)
            game_id = await h.new_game(players=3)
            ids = [str(u.id) for u in h.users]
            rules = dataclasses.replace(Rules.preset("classic"), target=100)
            await h.install(Game.new(ids, rules, 3))
            start = api.call_count
            done = 0
            while done < moves:
                assert h.storage is not None
                rec = await h.storage.get_game(game_id)
                if rec is None or rec.status != "running" or rec.state is None:
                    break
                player = Game.from_dict(rec.state).current_player
                user = h.user(player)
                if mode == "private":
                    acts = await can_act(h, user)
                    assert acts, "the player to act has no buttons"
                    act = policy(acts)
                    assert act is not None
                    answer = await h.act(user, act)
                    assert answer.text is None, answer
                else:
                    offer = await offered(h, user)
                    act = policy(offer[1])
                    assert act is not None
                    msg = await choose(h, user, act, offer)
                    assert not (msg.text or "").startswith(REFUSED)
                done += 1
            await h.settle()
            counts = dict.fromkeys(KINDS, 0)
            for call in api.calls()[start:]:
                kind = kind_of(call)
                if kind is not None and call.ok:
                    counts[kind] += 1
        finally:
            await h.stop()
    return {kind: counts[kind] / max(done, 1) for kind in KINDS} | {"moves": done}


async def run(moves: int) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="uno-modes-") as folder:
        return {mode: await measure(mode, moves, Path(folder)) for mode in MODES}


def report(results: dict[str, dict[str, float]]) -> None:
    print("Telegram calls per move by play mode (3 players, one match, group limit off):")
    for mode, r in results.items():
        total = sum(r[k] for k in KINDS)
        print(
            f"  {mode:8} {total:.2f} per move over {r['moves']:.0f} moves: group {r['group']:.2f},"
            f" private {r['private']:.2f}, inline {r['inline']:.2f}, callback {r['callback']:.2f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="moves measured in each mode")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    report(asyncio.run(run(args.moves)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
