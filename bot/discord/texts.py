"""What the bot writes on Discord: every text with the chat commands under their localized names
and names with their markdown escaped, cut to what a message holds, and the widgets under it.

Pure functions of the views (plus the card emoji, when they exist): the handlers, the message
operations and the publisher all write through one `Texts`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping

import discord
from discord import ui

from bot.discord import layout
from bot.discord.emoji import CardEmoji
from bot.discord.hand_row import ROOM_LEFT, hand_row
from bot.discord.mentions import with_mentions
from bot.discord.reply import MAX_CONTENT, fit
from bot.presentation import notes, steps
from bot.presentation.i18n import COMMANDS, Arg
from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, public_event
from bot.service.chat_settings import ChatSettings
from bot.service.views import HandView, TableView

# Ten players with 32-character names overflow a message: names are cut until the table fits.
NAME_LIMITS: tuple[int | None, ...] = (None, 20, 12, 8)
_COMMAND_RE = re.compile(r"/(" + "|".join(sorted(COMMANDS, key=len, reverse=True)) + r")\b")

Message = tuple[str, ui.View | None]  # a message's text and its buttons


def shorten(names: Mapping[str, str], limit: int | None) -> Mapping[str, str]:
    """Names cut to `limit` characters (None: whole), so that a full table fits one message."""
    if limit is None:
        return names
    return {k: v if len(v) <= limit else v[: limit - 1] + "…" for k, v in names.items()}


def escaped(names: Mapping[str, str]) -> dict[str, str]:
    """Player names safe inside a message (Discord markdown escaped)."""
    return {k: discord.utils.escape_markdown(v) for k, v in names.items()}


class Texts:
    def __init__(self, renderer: Renderer, emoji: CardEmoji) -> None:
        self.r = renderer
        self.emoji = emoji

    # ------------------------------------------------------------------ words

    def localize(self, lang: str, text: str) -> str:
        """Chat commands as Discord shows them in `lang` (`/join` becomes the localized name)."""
        return _COMMAND_RE.sub(lambda m: "/" + self.r.i18n.command_name(lang, m[1]), text)

    def t(self, lang: str, key: str, **args: Arg) -> str:
        return self.localize(lang, self.r.t(lang, key, **args))

    def notice(self, lang: str, notice: Notice) -> str:
        """A service notice; its text arguments are names (`/join`'s "X joined"), escaped."""
        args = {
            k: discord.utils.escape_markdown(v) if isinstance(v, str) else v
            for k, v in notice.args.items()
        }
        return self.localize(lang, self.r.notice(lang, Notice(notice.key, args)))

    def public_lines(self, out: Outcome) -> list[str]:
        """What everybody may read about an outcome's events, one line each."""
        names = escaped(out.names)
        colorblind = out.table.colorblind if out.table is not None else False
        lines = []
        for event in out.events:
            shown = public_event(event)
            if shown is None:
                continue
            text = self.r.event(out.lang, shown, names, colorblind, scoring=out.scoring)
            if text:
                lines.append(self.localize(out.lang, text))
        return lines

    def announcements(self, out: Outcome) -> list[str]:
        safe = dataclasses.replace(out, names=escaped(out.names))
        return [self.localize(out.lang, text) for text in self.r.announcements(safe)]

    def private_notes(self, out: Outcome, player: str, colorblind: bool) -> list[str]:
        safe = dataclasses.replace(out, names=escaped(out.names))
        texts = notes.private(self.r, safe, player, colorblind)
        return [self.localize(out.lang, text) for text in texts]

    # ------------------------------------------------------------------ messages

    def table_message(self, table: TableView, names: Mapping[str, str]) -> Message:
        """The table's text (a rematch lobby's invited people as mentions) and its buttons."""
        for limit in NAME_LIMITS:
            marked = self.r.table_marked(table, escaped(shorten(names, limit)))
            text = self.localize(table.lang, with_mentions(marked))
            if len(text) <= MAX_CONTENT:
                break
        return fit(text), layout.table_view(table, self.r)

    def hand_message(
        self,
        hand: HandView,
        names: Mapping[str, str],
        notes: Collection[str] = (),
        *,
        page: int = 0,
        header: str | None = None,
    ) -> Message:
        """The hand's text under `header` and `notes`, with its cards as pictures where they
        fit (`bot.discord.hand_row`: under the text line of the cards), and its buttons."""
        lang = hand.lang
        before = [self.localize(lang, part) for part in ([header] if header else []) + list(notes)]
        lines = self.localize(lang, self.r.hand(hand, escaped(names))).split("\n")
        plain = "\n\n".join([*before, "\n".join(lines)])
        row = hand_row(hand, self.emoji, self.r, MAX_CONTENT - ROOM_LEFT - len(plain) - 1)
        if row is not None:  # the title, the cards' text line, then their pictures
            lines.insert(2, row)
        text = "\n\n".join([*before, "\n".join(lines)])
        return fit(text), layout.hand_view(hand, self.r, page=page, emoji=self.emoji)

    def step_message(self, hand: HandView, names: Mapping[str, str], step: str) -> Message:
        """The hand with the question of a move's second step, and that step's buttons."""
        question = self.localize(hand.lang, steps.step_title(self.r, hand, step))
        content, _ = self.hand_message(hand, names)
        view = layout.step_view(hand, step, self.r, escaped(names))
        return fit(content + "\n\n" + question), view

    def result_view(self, out: Outcome) -> ui.View | None:
        """The rematch button, when `out` is a match's result."""
        if not out.match_finished or out.table is None:
            return None
        return layout.rematch_view(out.table.game_id, out.lang, self.r)

    def settings_message(self, lang: str, settings: ChatSettings, *, ping: bool = False) -> Message:
        text = self.r.settings(lang, settings) + "\n\n" + self.r.t(lang, "dc-settings-hint")
        view = layout.settings_view(lang, settings, self.r, ping=ping)
        return fit(self.localize(lang, text)), view
