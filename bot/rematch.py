"""A rematch: the table of the chat's last match, again, without everyone adding themselves back.

The pure half of `UnoService.rematch`: when a chat may have one, and what its lobby holds. The
service keeps the locking and storage around it, as for every other use case.

Who is in the new lobby:

- the person asking, already joined, and the new lobby's creator (they asked for it, as with
  /new);
- the previous match's computer players, renumbered from 1: nobody has to press "add a robot"
  again, and a robot has no consent to ask for;
- nobody else. The previous match's people are only named in the lobby (`invited`), so that
  they know to join: joining them unasked would start sending them private hands, and whoever
  has had enough would have to leave a game they never chose to play.

"The previous match" is its table as dealt (`meta["players"]`), also those who left during it:
a player taken out by three timeouts may well be back at the keyboard, and naming someone
costs them nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.storage import GameRecord
from bot.views import BOT_PREFIX, is_bot
from core.rules import MAX_PLAYERS


def refusal(active: GameRecord | None, last: GameRecord | None, game_id: int | None) -> str | None:
    """Why the chat cannot have a rematch now (a message id), or None when it can.

    `active` is the chat's open lobby or running game, `last` its newest game, `game_id` the
    match a rematch button was shown under (None for the command).

    - An open lobby or game: one open game per chat. This is also the answer to a rematch
      button pressed after someone already opened the next lobby: it must neither open a second
      one nor join the presser to the new one.
    - A button of another match than the chat's last one is stale: its table may not be the
      one people were just playing at.
    - The last game did not finish (stopped by /kill, abandoned, a lobby that was cancelled or
      expired) or there is none: there is no result to answer with a rematch.
    """
    if active is not None:
        return "error-game-exists"
    if game_id is not None and (last is None or last.id != game_id):
        return "error-rematch-stale"
    if last is None or last.status != "finished":
        return "error-no-rematch"
    return None


def lobby_meta(previous: Mapping[str, Any], user_id: str, user_name: str) -> dict[str, Any]:
    """The new lobby's metadata from the previous match's (see the module's docstring)."""
    seats: list[str] = list(previous.get("players", ()))
    names: Mapping[str, str] = previous.get("names", {})
    # The asking player may be new to this table; a full table then leaves a robot out.
    bots = [f"{BOT_PREFIX}{i}" for i in range(1, min(sum(map(is_bot, seats)), MAX_PLAYERS - 1) + 1)]
    invited = [p for p in seats if not is_bot(p) and p != user_id]
    return {
        "creator": user_id,
        "players": [user_id, *bots],
        "names": {
            user_id: user_name,
            **dict.fromkeys(bots, ""),
            **{p: names.get(p, "") for p in invited},
        },
        "closed": False,
        "bots": len(bots),
        "invited": invited,
    }


def still_invited(meta: Mapping[str, Any]) -> tuple[str, ...]:
    """The previous match's people the lobby is still waiting for (not joined yet)."""
    joined = set(meta.get("players", ()))
    return tuple(p for p in meta.get("invited", ()) if p not in joined)
