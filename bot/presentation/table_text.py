"""The group's table and the lobby in words: the top card, the direction, every seat.

A rematch's lobby names the people it invites and marks them, so that each adapter can turn the
names into mentions (`bot.presentation.mentions`).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.presentation.mentions import Marked, fill, marker
from bot.presentation.words import Words
from bot.service.views import HandView, Seat, TableView, is_bot
from core.actions import ActionType
from core.cards import Card, Color, Kind
from core.rules import Rules


class TableText(Words):
    def table(self, view: TableView, names: Mapping[str, str], *, recent: bool = True) -> str:
        return self.table_marked(view, names, recent=recent).text

    def table_marked(
        self, view: TableView, names: Mapping[str, str], *, recent: bool = True
    ) -> Marked:
        """The table, with the people it invites marked (only a rematch's lobby has any)."""
        if view.status == "lobby" or view.top is None:
            return self.lobby_marked(view, names)
        return Marked(self._game_table(view, names, recent=recent))

    def _game_table(self, view: TableView, names: Mapping[str, str], *, recent: bool) -> str:
        """A dealt game's table (never a lobby: `table_marked` shows those)."""
        lang = view.lang
        assert view.top is not None
        lines = [self.t(lang, "table-title", round=view.round_no)]
        if view.status == "running":
            lines.append(self.top_line(lang, view.top, view.color, view.colorblind))
            lines.append(self.direction_line(view))
        lines.append("")
        lines.extend(self.seat(view, seat, names) for seat in view.seats)
        lines.append("")
        lines.extend(self.turn_lines(view, names))
        texts = self.events(lang, view.recent, names, view.colorblind, scoring=view.rules.scoring)
        if recent and texts:
            lines.append("")
            lines.append(self.t(lang, "table-recent"))
            lines.extend("• " + text for text in texts[-5:])
        return "\n".join(lines)

    def turn_lines(self, view: TableView, names: Mapping[str, str]) -> list[str]:
        """Who is to act and on what (with the turn timer), or how the game ended."""
        lang = view.lang
        if view.status == "running" and view.current is not None:
            who = self.name(lang, view.current, names)
            if view.pending_target is not None:
                answer = self.penalty_answer(view.top, view.rules)
                count = view.pending_amount
                lines = [self.t(lang, "table-pending", name=who, count=count, answer=answer)]
            else:
                lines = [self.t(lang, "table-turn", name=who)]
            if view.timer is not None and not is_bot(view.current):
                lines.append(self.t(lang, "table-timer", seconds=view.timer))
            return lines
        if view.status == "finished":
            winners = ", ".join(self.name(lang, w, names) for w in view.winners)
            return [self.t(lang, "table-finished", names=winners, count=len(view.winners))]
        if view.status == "killed":
            return [self.t(lang, "table-killed")]
        return []

    def top_line(self, lang: str, top: Card, color: Color | None, colorblind: bool) -> str:
        """The discard pile's top card and the color in play."""
        card = self.card(lang, top, colorblind, color if top.is_wild else None)
        if color is None:
            return self.t(lang, "table-top-choosing", card=card)
        return self.t(lang, "table-top", card=card, color=self.color(lang, color, colorblind))

    def direction_line(self, view: TableView) -> str:
        """Which way the turn goes, and how many cards the draw pile holds."""
        arrow = "table-direction-cw" if view.direction == 1 else "table-direction-ccw"
        pile = self.t(view.lang, "table-draw-pile", count=view.draw_size)
        return self.t(view.lang, arrow) + " · " + pile

    def seat(
        self, view: TableView, seat: Seat, names: Mapping[str, str], *, idle: str = "    "
    ) -> str:
        """One player at the table: the turn's marker, name, cards, points, a called UNO.

        `idle` stands where the others have no marker (four spaces line up in chat fonts).
        """
        lang = view.lang
        marker = "▶️ " if seat.is_current else idle
        uno = " " + self.t(lang, "table-uno-mark") if seat.uno else ""
        name = self.name(lang, seat.id, names)
        text = self.t(lang, "table-seat", name=name, count=seat.cards, score=seat.score)
        return marker + text + uno

    @staticmethod
    def penalty_answer(top: Card | None, rules: Rules) -> str:
        """What the rules let a penalized player do instead of taking the cards (the `$answer`
        of `table-pending`): challenge a Wild Draw Four, pass a Draw Two on, defend with one."""
        if top is not None and top.kind is Kind.WILD_FOUR:
            challenge = not rules.no_bluffing
            if challenge and rules.defend_wild_four:
                return "challenge-defend"
            if rules.defend_wild_four:
                return "defend"
            return "challenge" if challenge else "none"
        if top is not None and top.kind is Kind.DRAW_TWO and rules.pass_draw_two:
            return "pass"
        return "none"

    @staticmethod
    def hand_answer(view: HandView) -> str:
        """The `$answer` of `hand-pending`, from the moves this hand may make now."""
        types = {c.action.type for c in view.choices}
        challenge = ActionType.CHALLENGE in types
        card = ActionType.PLAY in types
        if view.top is not None and view.top.kind is Kind.DRAW_TWO:
            return "pass" if card else "none"
        if challenge and card:
            return "challenge-defend"
        if card:
            return "defend"
        return "challenge" if challenge else "none"

    def lobby(self, view: TableView, names: Mapping[str, str]) -> str:
        return self.lobby_marked(view, names).text

    def lobby_marked(self, view: TableView, names: Mapping[str, str]) -> Marked:
        """The lobby; a rematch's invited people are named in it, and marked for mentions so
        that adapters can notify them (computer players are never invited, nor marked)."""
        lang = view.lang
        if view.status == "killed":
            return Marked(self.t(lang, "lobby-cancelled"))
        players = "\n".join(
            f"{i}. {self.name(lang, seat.id, names)}" for i, seat in enumerate(view.seats, 1)
        )
        head = [
            self.t(lang, "lobby-title"),
            self.t(lang, "lobby-players", count=len(view.seats)),
            players,
            "",
        ]
        # The robots' level matters only to a table that has robots (the button is always there).
        level = [self.t(lang, "lobby-bot-level", level=view.bot_level.value)]
        tail = [
            *(level if any(seat.is_bot for seat in view.seats) else []),
            self.t(lang, "lobby-rules", rules=self.rules_name(lang, view.rules)),
            self.t(lang, "lobby-closed" if view.closed else "lobby-hint"),
        ]
        people = [p for p in view.invited if not is_bot(p)]
        if not people:
            return Marked("\n".join(head + tail))
        # A rematch: whom it waits for, by name, so they know to join.
        marks = self.i18n.join(lang, [marker(i) for i in range(len(people))])
        line = self.t(lang, "lobby-invited", names=marks, count=len(people))
        labels = [self.name(lang, p, names) for p in people]
        start = len("\n".join(head)) + 1
        invited = fill(line, people, labels, offset=start)
        return Marked("\n".join([*head, invited.text, "", *tail]), invited.mentions)

    def rules_name(self, lang: str, rules: Rules) -> str:
        preset = rules.preset_name()
        if preset is not None:
            return self.t(lang, f"preset-{preset}")
        return self.t(lang, "preset-custom")
