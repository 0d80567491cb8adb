"""Views into words: the text every adapter shows, so Telegram, Discord and the console agree.

Adapters add only their widgets (buttons, embeds, numbered prompts); labels for those come from
here too, so no adapter builds a user-facing string of its own. `Renderer` is every part in
one: the words (`words`), the table and lobby (`table_text`), the hand (`hand_text`), and here
the events, notices, settings, statistics and help.
"""

from __future__ import annotations

from bot.presentation.hand_text import HandText
from bot.service import Notice, Outcome
from bot.service.chat_settings import BOOL_OPTIONS, ChatSettings
from bot.service.statistics import StatRow


class Renderer(HandText):
    # ------------------------------------------------------------------ events and notices

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
