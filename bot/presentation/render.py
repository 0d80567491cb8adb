"""Views into words: the text every adapter shows, so Telegram, Discord and the console agree.

Adapters add only their widgets (buttons, embeds, numbered prompts); labels for those come from
here too, so no adapter builds a user-facing string of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.presentation.event_text import event_lines, event_text
from bot.presentation.i18n import Arg, I18n
from bot.presentation.mentions import Marked, fill, marker
from bot.service import Notice, Outcome
from bot.service.chat_settings import BOOL_OPTIONS, ChatSettings
from bot.service.statistics import StatRow
from bot.service.views import BOT_PREFIX, Choice, HandView, Seat, TableView, is_bot
from core.actions import Action, ActionType
from core.cards import Card, Color, Kind
from core.events import Event
from core.rules import Rules, Scoring


class Renderer:
    def __init__(self, i18n: I18n) -> None:
        self.i18n = i18n

    def t(self, lang: str, key: str, **args: Arg) -> str:
        return self.i18n.t(lang, key, **args)

    # ------------------------------------------------------------------ names and cards

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

    # ------------------------------------------------------------------ table and lobby

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
        if view.status == "running" and view.current is not None:
            who = self.name(lang, view.current, names)
            if view.pending_target is not None:
                answer = self.penalty_answer(view.top, view.rules)
                lines.append(
                    self.t(
                        lang, "table-pending", name=who, count=view.pending_amount, answer=answer
                    )
                )
            else:
                lines.append(self.t(lang, "table-turn", name=who))
            if view.timer is not None and not is_bot(view.current):
                lines.append(self.t(lang, "table-timer", seconds=view.timer))
        elif view.status == "finished":
            winners = ", ".join(self.name(lang, w, names) for w in view.winners)
            lines.append(self.t(lang, "table-finished", names=winners, count=len(view.winners)))
        elif view.status == "killed":
            lines.append(self.t(lang, "table-killed"))
        texts = self.events(lang, view.recent, names, view.colorblind, scoring=view.rules.scoring)
        if recent and texts:
            lines.append("")
            lines.append(self.t(lang, "table-recent"))
            lines.extend("• " + text for text in texts[-5:])
        return "\n".join(lines)

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

    # ------------------------------------------------------------------ the private hand

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

    # ------------------------------------------------------------------ events and notices

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

    def notice(self, lang: str, notice: Notice) -> str:
        return self.t(lang, notice.key, **notice.args)

    def announcements(self, outcome: Outcome) -> list[str]:
        """Public messages worth posting on their own (results, a caught UNO, a challenge, an
        expired lobby, a game the timer stopped): every adapter posts these, for a command and
        for a timer alike. Cards in them carry the color-blind marks when the chat uses them."""
        texts = self.events(
            outcome.lang,
            outcome.announcements,
            outcome.names,
            self.colorblind(outcome),
            scoring=outcome.scoring,
            score_once=True,  # posted one after another: the final score is said once
        )
        texts.extend(self.notice(outcome.lang, notice) for notice in outcome.notices)
        return texts

    def private(self, outcome: Outcome, player: str, colorblind: bool = False) -> list[str]:
        """What only `player` may read: the cards they drew, a hand shown to them (with the
        color-blind marks if asked for or if the chat uses them)."""
        return self.events(
            outcome.lang,
            outcome.private_events(player),
            outcome.names,
            colorblind or self.colorblind(outcome),
            viewer=player,
            scoring=outcome.scoring,
        )

    @staticmethod
    def colorblind(outcome: Outcome) -> bool:
        """Whether the chat of `outcome` has color-blind mode on (known from its table)."""
        return outcome.table is not None and outcome.table.colorblind

    # ------------------------------------------------------------------ settings, stats, help

    def settings(self, lang: str, settings: ChatSettings) -> str:
        lines = [self.t(lang, "settings-title")]
        lines += [line for _, line in self.setting_lines(lang, settings)]
        return "\n".join(lines)

    def setting_lines(self, lang: str, settings: ChatSettings) -> list[tuple[str, str]]:
        """Each setting's line, keyed by the setting (`ChatSettings.changed`'s keys): the
        /settings text lists them all, the console's settings menu those a terminal has."""
        rules = settings.rules()
        on, off = self.t(lang, "value-on"), self.t(lang, "value-off")
        timer = settings.timer
        lines = [
            ("preset", self.t(lang, "settings-preset", preset=self.rules_name(lang, rules))),
            (
                "lang",
                self.t(
                    lang, "settings-lang", language=self.t(lang, f"lang-{settings.lang or lang}")
                ),
            ),
            (
                "timer",
                self.t(lang, "settings-timer", seconds=timer)
                if timer
                else self.t(lang, "settings-timer-off"),
            ),
            (
                "colorblind",
                self.t(lang, "settings-colorblind", value=on if settings.colorblind else off),
            ),
            (
                "strong_bots",
                self.t(lang, "settings-strong-bots", value=on if settings.strong_bots else off),
            ),
            (
                "scoring",
                self.t(
                    lang, "settings-scoring", scoring=self.t(lang, f"scoring-{rules.scoring.value}")
                ),
            ),
            ("target", self.t(lang, "settings-target", count=rules.target)),
            ("creepers", self.t(lang, "settings-creepers", count=rules.creepers)),
        ]
        for option in BOOL_OPTIONS:
            value = on if getattr(rules, option) else off
            lines.append((option, f"{self.t(lang, 'opt-' + option)}: {value}"))
        return lines

    def stats(self, lang: str, rows: list[StatRow]) -> str:
        """The leaderboard in the order given (the storage ranks it by the chat's scoring).

        Each row names the points of every mode the player has games in: winner points and
        tally (penalty) points count in opposite directions, so they are never added up.
        """
        if not rows:
            return self.t(lang, "stats-empty")
        lines = [self.t(lang, "stats-title")]
        for i, row in enumerate(rows, 1):
            points = []
            if row.games > row.tally_games:
                points.append(self.i18n.points(lang, row.points))
            if row.tally_games:
                points.append(self.t(lang, "stats-tally-points", count=row.tally_points))
            lines.append(
                f"{i}. "
                + self.t(
                    lang,
                    "stats-row",
                    name=row.name,
                    wins=row.wins,
                    games=row.games,
                    points=self.i18n.join(lang, points),
                )
            )
        return "\n".join(lines)

    def rules_text(self, lang: str, settings: ChatSettings) -> str:
        text = self.t(lang, f"rules-{settings.preset}")
        if settings.options:
            # The preset's summary no longer tells the whole story: the list below decides.
            text += "\n\n" + self.t(lang, "rules-changed")
        return text + "\n\n" + self.settings(lang, settings)

    def help(self, lang: str) -> str:
        return self.t(lang, "help-text")
