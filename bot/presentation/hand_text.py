"""A player's private hand in words: the cards, what the player may do now, each move's label."""

from __future__ import annotations

from collections.abc import Mapping

from bot.presentation.table_text import TableText
from bot.service.views import Choice, HandView
from core.actions import Action, ActionType


class HandText(TableText):
    def hand(self, view: HandView, names: Mapping[str, str]) -> str:
        lang = view.lang
        if view.left:
            return self.t(lang, "hand-left")
        lines = [self.t(lang, "hand-title", count=len(view.cards))]
        lines.append(self.cards(lang, view.cards, view.colorblind) or "—")
        lines.append("")
        if view.status != "running":
            lines.append(self.t(lang, "hand-finished"))
            return "\n".join(lines)
        if view.waiting:  # nothing here may go stale (`HandView.waiting`)
            lines.append(self.t(lang, "hand-waiting-quiet"))
            return "\n".join(lines)
        if view.top is not None:
            lines.append(self.top_line(lang, view.top, view.color, view.colorblind))
        lines.extend(self.hand_status(view, names))
        return "\n".join(lines)

    def hand_status(self, view: HandView, names: Mapping[str, str]) -> list[str]:
        """What the hand's owner is to do now: the turn's task, or whom they wait for."""
        lang = view.lang
        if view.status != "running":
            return [self.t(lang, "hand-finished")]
        if view.is_turn:
            if view.pending_amount:
                answer = self.hand_answer(view)
                return [self.t(lang, "hand-pending", count=view.pending_amount, answer=answer)]
            if view.color is None:
                return [self.t(lang, "hand-choose-color")]
            if view.drawn is not None:
                drawn = self.card(lang, view.drawn, view.colorblind)
                return [self.t(lang, "hand-drawn", card=drawn)]
            return [self.t(lang, "hand-your-turn")]
        if view.current is None:
            return []
        lines = [self.t(lang, "hand-waiting", name=self.name(lang, view.current, names))]
        if any(c.action.type is ActionType.PLAY for c in view.choices):
            lines.append(self.t(lang, "hand-out-of-turn"))
        return lines

    def choice(self, lang: str, choice: Choice, colorblind: bool, pending: int = 0) -> str:
        """The label of one button."""
        return self.action(lang, choice.action, colorblind, pending, wild_menu=bool(choice.colors))

    def action(
        self,
        lang: str,
        action: Action,
        colorblind: bool,
        pending: int = 0,
        *,
        wild_menu: bool = False,
    ) -> str:
        t = action.type
        if t is ActionType.PLAY:
            assert action.card is not None
            if wild_menu or action.color is None:
                return self.card(lang, action.card, colorblind)
            return self.card(lang, action.card, colorblind, action.color)
        if t is ActionType.CHOOSE:
            assert action.color is not None
            return self.color(lang, action.color, colorblind)
        if t is ActionType.ACCEPT:
            return self.t(lang, "btn-accept", count=pending)
        return self.t(lang, f"btn-{t.value}")
