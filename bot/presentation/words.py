"""The words every text is made of: a message by its id, a name, a card, a color, an event.

The other parts of `bot.presentation.render` build their texts from these, so a name or a card
reads the same in a table, a hand, an event and a result.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.presentation.event_text import event_lines, event_text
from bot.presentation.i18n import Arg, I18n
from bot.service.views import BOT_PREFIX, is_bot
from core.cards import Card, Color
from core.events import Event
from core.rules import Scoring


class Words:
    def __init__(self, i18n: I18n) -> None:
        self.i18n = i18n

    def t(self, lang: str, key: str, **args: Arg) -> str:
        return self.i18n.t(lang, key, **args)

    def name(self, lang: str, player: str, names: Mapping[str, str]) -> str:
        if is_bot(player):
            return self.t(lang, "bot-name", number=int(player[len(BOT_PREFIX) :]))
        return names.get(player) or self.t(lang, "player-unknown")

    def card(self, lang: str, card: Card, colorblind: bool, color: Color | None = None) -> str:
        return self.i18n.card_label(lang, card, color=color, colorblind=colorblind)

    def cards(self, lang: str, cards: list[Card], colorblind: bool) -> str:
        return "  ".join(self.card(lang, c, colorblind) for c in cards)

    def color(self, lang: str, color: Color, colorblind: bool) -> str:
        return f"{self.i18n.swatch(lang, color, colorblind)} {self.i18n.color(lang, color)}"

    def event(
        self,
        lang: str,
        event: Event,
        names: Mapping[str, str],
        colorblind: bool = False,
        viewer: str | None = None,
        *,
        scoring: Scoring,
    ) -> str | None:
        """One event's line; `scoring` is the match's (see `bot.presentation.event_text`)."""
        return event_text(
            self.i18n,
            lang,
            event,
            lambda p: self.name(lang, p, names),
            viewer,
            scoring=scoring,
            colorblind=colorblind,
        )

    def events(
        self,
        lang: str,
        events: list[Event],
        names: Mapping[str, str],
        colorblind: bool = False,
        viewer: str | None = None,
        *,
        scoring: Scoring,
        score_once: bool = False,
    ) -> list[str]:
        """The lines of several events (`bot.presentation.event_text.event_lines`): with
        `score_once`, where they are read one after another, a match's final score is said once, not
        twice."""
        return event_lines(
            self.i18n,
            lang,
            events,
            lambda p: self.name(lang, p, names),
            viewer,
            scoring=scoring,
            colorblind=colorblind,
            score_once=score_once,
        )
