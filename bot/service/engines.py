"""The running games' engines, kept in memory between their moves.

Loading a game's engine from its stored state costs more than the move itself, so the engine a
commit left behind is kept, keyed by the version it belongs to: a row of another version (a
move committed by another process) is loaded afresh. Only running games are kept; a game that
ends or fails leaves.
"""

from __future__ import annotations

from bot.service.match import Match
from bot.storage import GameRecord
from core.game import Game


class Engines:
    def __init__(self) -> None:
        self._by_game: dict[int, tuple[int, Game]] = {}  # game id -> (version, engine)

    def __len__(self) -> int:
        return len(self._by_game)

    def match_of(self, rec: GameRecord, *, take: bool) -> Match:
        """The typed match of a stored row; raises if it cannot be loaded (see `Work.active`).

        A use case that will change the engine `take`s it out, so that nobody else sees a move
        that is applied but not yet committed; the commit puts it back (`keep`).
        """
        game = None
        if rec.state is not None:
            kept = self._by_game.get(rec.id)
            if kept is not None and kept[0] == rec.version:
                game = kept[1]
                if take:
                    del self._by_game[rec.id]
            else:
                game = Game.from_dict(rec.state)
        return Match.from_record(rec, game)

    def keep(self, match: Match) -> None:
        if match.game is not None and match.status == "running":
            self._by_game[match.id] = (match.version, match.game)
        else:
            self._by_game.pop(match.id, None)

    def drop(self, game_id: int) -> None:
        self._by_game.pop(game_id, None)
