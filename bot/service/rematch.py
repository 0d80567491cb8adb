"""A rematch: the table of the chat's last match, again, without everyone adding themselves back.

The pure half of the rematch use case (`bot.service.lobby`): when a chat may have one, and what
its lobby holds. The service keeps the locking and storage around it, as for every other use case.
"""

from __future__ import annotations

from typing import Protocol

from bot.service.match import Lobby
from bot.service.views import BOT_PREFIX, is_bot
from core.rules import MAX_PLAYERS


class _Game(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def status(self) -> str: ...


def refusal(active: _Game | None, last: _Game | None, game_id: int | None) -> str | None:
    """Why the chat cannot have a rematch now (a message id), or None when it can.

    `active` is the chat's open lobby or running game, `last` its newest game (None also when
    it cannot be loaded), `game_id` the match a rematch button was shown under (None for the
    command).

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


def lobby_for(previous: Lobby, user_id: str, user_name: str) -> Lobby:
    """The new lobby from the previous match's. Who is in it:

    - the person asking, already joined, and the new lobby's creator (they asked for it, as
      with /new);
    - the previous match's computer players, renumbered from 1: nobody has to press "add a
      robot" again, and a robot has no consent to ask for;
    - the level the last lobby chose for its computer players with its button, if it chose
      one: the table asked for that match again. A level it left to the chat's setting stays
      with the setting, which may have changed since (the console's settings, /settings); the
      new lobby's button changes it either way;
    - nobody else. The previous match's people are only named in the lobby (`invited`), so
      that they know to join: joining them unasked would start sending them private hands, and
      whoever has had enough would have to leave a game they never chose to play.

    "The previous match" is its table as dealt (`Lobby.players`), also those who left during
    it: a player taken out by three timeouts may well be back at the keyboard, and naming
    someone costs them nothing.
    """
    seats = previous.players
    # The asking player may be new to this table; a full table then leaves a robot out.
    bots = [f"{BOT_PREFIX}{i}" for i in range(1, min(sum(map(is_bot, seats)), MAX_PLAYERS - 1) + 1)]
    invited = [p for p in seats if not is_bot(p) and p != user_id]
    return Lobby(
        creator=user_id,
        players=[user_id, *bots],
        names={
            user_id: user_name,
            **dict.fromkeys(bots, ""),
            **{p: previous.names.get(p, "") for p in invited},
        },
        bots=len(bots),
        invited=invited,
        bot_level=previous.bot_level,
    )
