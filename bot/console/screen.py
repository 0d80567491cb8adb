"""What a turn shows in the terminal: the table, the hand and the numbered choices.

Built from the views alone, so that a test can read a whole screen without a service, and
measured in terminal columns (`bot.console.layout`), so that the biggest turn fits 80x24.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.console.layout import flow, grid, wrap
from bot.presentation.render import Renderer
from bot.service.views import HandView, TableView
from core.actions import Action, ActionType


class Screen:
    def __init__(self, renderer: Renderer, columns: int) -> None:
        self.r = renderer
        self.columns = columns

    def turn_lines(self, table: TableView, view: HandView, names: Mapping[str, str]) -> list[str]:
        """The table once and the hand once, in as few lines as fit the terminal's width."""
        lang, colorblind = view.lang, view.colorblind
        head = self.r.t(lang, "table-title", round=table.round_no)
        lines = wrap(head + " · " + self.r.direction_line(table), self.columns)
        if table.top is not None:
            top = self.r.top_line(lang, table.top, table.color, colorblind)
            lines += wrap(top, self.columns)
        seats = [self.r.seat(table, seat, names, idle="   ") for seat in table.seats]
        lines += grid(seats, self.columns)
        title = self.r.t(lang, "hand-title", count=len(view.cards))
        cards = [self.r.card(lang, card, colorblind) for card in view.cards]
        lines += flow([title, *cards], self.columns)
        for status in self.r.hand_status(view, names):
            lines += wrap(status, self.columns)
        return lines

    def menu(self, view: HandView) -> list[list[Action]]:
        """The choices: each a group of actions that differ only after their first two words
        (a wild card's four colors, or any second choice the engine lists for one card)."""
        groups: dict[str, list[Action]] = {}
        for choice in view.choices:
            for action in choice.colors or (choice.action,):
                words = str(action).split()
                key = " ".join(words[:2]) if len(words) > 2 else str(action)
                groups.setdefault(key, []).append(action)
        return list(groups.values())

    def menu_lines(self, view: HandView, groups: list[list[Action]]) -> list[str]:
        lang, colorblind = view.lang, view.colorblind
        cards: list[str] = []
        others: list[str] = []
        for number, group in enumerate(groups, 1):
            label = self.r.action(
                lang, group[0], colorblind, view.pending_amount, wild_menu=len(group) > 1
            )
            play = group[0].type is ActionType.PLAY
            (cards if play else others).append(f"{number}. {label}")
        if not view.is_turn:
            others.append(f"0. {self.r.t(lang, 'console-wait')}")
        return flow(cards, self.columns, "  ") + flow(others, self.columns, "  ")

    def variant(self, lang: str, action: Action, colorblind: bool, names: Mapping[str, str]) -> str:
        """A second step's label: a named color as the chats show it, or the player chosen."""
        if action.color is not None:
            return self.r.color(lang, action.color, colorblind)
        target = getattr(action, "target", None)
        if isinstance(target, str):
            return self.r.name(lang, target, names)
        return self.r.action(lang, action, colorblind)
