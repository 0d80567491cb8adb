"""What happened since the player last chose: noted as outcomes arrive, printed before the next
screen, so that a turn shows the other players' moves together rather than scattered among
prompts."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.console.layout import wrap
from bot.presentation.render import Renderer
from bot.service import Outcome


class Moves:
    def __init__(self, renderer: Renderer, say: Callable[[str], None], columns: int) -> None:
        self.r = renderer
        self.say = say
        self.columns = columns
        self.lines: list[str] = []

    def note(self, out: Outcome, names: Mapping[str, str], viewer: str, colorblind: bool) -> None:
        """An outcome's lines (a refusal, the events, the notices), as `viewer` sees them."""
        if out.error is not None:
            self.lines.append("⚠️ " + self.r.notice(out.lang, out.error))
        texts = self.r.events(
            out.lang,
            out.events,
            names,
            colorblind,
            viewer=viewer,
            scoring=out.scoring,
            score_once=True,
        )
        texts += [self.r.notice(out.lang, notice) for notice in out.notices]
        self.lines.extend("• " + text for text in texts)

    def flush(self, lang: str, room: int | None = None) -> None:
        """Print what happened since the last screen. With `room` (the lines left on the
        screen for it), moves that will not stay in sight are followed by a line saying how
        many are above, so that the last screen still shows where its moves begin."""
        moves = [line for move in self.lines for line in wrap(move, self.columns)]
        self.lines = []
        if room is not None and 1 + len(moves) > room > 1:
            hidden = len(moves) - (room - 1)
            note = self.r.t(lang, "console-more-moves", count=hidden)
            moves = [*moves[:hidden], note, *moves[hidden:]]
        for line in moves:
            self.say(line)
