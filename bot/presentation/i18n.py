"""Fluent localization: every user-facing word lives in `locales/<lang>/*.ftl`, none in Python.

One `FluentBundle` per language holds every `*.ftl` file of `locales/<lang>/` (files are split by
topic: cards, events, reasons, rules, help, ...; adding a file needs no code change). Use the
process-wide `get_i18n()`; tests build `I18n(strict=True)`, which raises on any missing message,
unknown variable or formatting error instead of logging and returning the message id.

Message-id scheme (the same ids exist in every language):

- `color-<red|yellow|green|blue>` color name; `-card` the form said of a card ("red 7"),
  `-emoji`, `-shape`, `-letter` its swatch and color-blind marks
- `card-symbol-<skip|reverse|draw-two|wild|wild-four|creeper>`, `card-label*`, `card-name-*`
- `cards-count`, `points-count`: a number with its noun in the right plural form
- `event-<event name with - for _>[-variant]`: one line of the table log (see
  bot.presentation.event_text)
- `reason-<IllegalAction.reason with - for _>`, `reason-unknown`
- `preset-<name>`, `rules-<name>`, `opt-<Rules field, as is>` (`opt-jump_in`) and
  `opt-<field>-help`, `scoring-<winner|tally>` and `-help`
- `help-text`, `cmd-<command>` (description, at most 100 characters) and `cmd-<command>-name`
  (a Discord-localized command name)
- `console-*`: the terminal table (bot.console) and its command line (bot.__main__)
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast as fluent_ast

from core.cards import Card, Color, Kind

log = logging.getLogger(__name__)

LANGS: tuple[str, ...] = ("ru", "uk")
DEFAULT_LANG = "ru"
LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"

# The chat commands every adapter offers; each has `cmd-<name>` and `cmd-<name>-name` messages.
COMMANDS: tuple[str, ...] = (
    "new",
    "rematch",
    "join",
    "leave",
    "start",
    "addbot",
    "kill",
    "kick",
    "settings",
    "rules",
    "stats",
    "help",
    "uno",
    "challenge",
)

_UK_CODES = frozenset({"uk", "ua"})

_KIND_SYMBOL = {
    Kind.SKIP: "card-symbol-skip",
    Kind.REVERSE: "card-symbol-reverse",
    Kind.DRAW_TWO: "card-symbol-draw-two",
    Kind.WILD: "card-symbol-wild",
    Kind.WILD_FOUR: "card-symbol-wild-four",
    Kind.CREEPER: "card-symbol-creeper",
}
_KIND_NAME = {
    Kind.NUMBER: "card-name-number",
    Kind.SKIP: "card-name-skip",
    Kind.REVERSE: "card-name-reverse",
    Kind.DRAW_TWO: "card-name-draw-two",
    Kind.WILD: "card-name-wild",
    Kind.WILD_FOUR: "card-name-wild-four",
    Kind.CREEPER: "card-name-creeper",
}

Arg = str | int | float


class I18nError(LookupError):
    """A missing message or a formatting error (raised only by a strict `I18n`)."""


def normalize_lang(code: str | None) -> str:
    """A platform's language code ("uk", "uk-UA", "ua", "ru-RU", None...) to one of LANGS."""
    if not code:
        return DEFAULT_LANG
    base = code.strip().replace("_", "-").split("-", 1)[0].lower()
    return "uk" if base in _UK_CODES else DEFAULT_LANG


def dashed(name: str) -> str:
    """An engine code or field name as used in message ids: `not_your_turn` -> `not-your-turn`."""
    return name.replace("_", "-")


class I18n:
    def __init__(self, locales_dir: Path | None = None, *, strict: bool = False) -> None:
        self.strict = strict
        self.locales_dir = locales_dir or LOCALES_DIR
        self._bundles: dict[str, FluentBundle] = {}
        self._ids: dict[str, frozenset[str]] = {}
        for lang in LANGS:
            self._load(lang)

    # ---------------------------------------------------------------------------- loading

    def _problem(self, text: str) -> None:
        if self.strict:
            raise I18nError(text)
        log.error("i18n: %s", text)

    def _load(self, lang: str) -> None:
        bundle = FluentBundle([lang], use_isolating=False)
        ids: dict[str, str] = {}
        directory = self.locales_dir / lang
        files = sorted(directory.glob("*.ftl"))
        if not files:
            self._problem(f"no *.ftl files in {directory}")
        for path in files:
            resource = FluentResource(path.read_text(encoding="utf-8"))
            for entry in resource.body:
                if isinstance(entry, fluent_ast.Junk):
                    self._problem(f"{path}: syntax error near {(entry.content or '')[:60]!r}")
                elif isinstance(entry, fluent_ast.Message):
                    key = entry.id.name
                    if key in ids:
                        self._problem(f"{path}: {key!r} already defined in {ids[key]}")
                    ids[key] = path.name
            bundle.add_resource(resource)
        self._bundles[lang] = bundle
        self._ids[lang] = frozenset(ids)

    # ---------------------------------------------------------------------------- messages

    def ids(self, lang: str) -> set[str]:
        return set(self._ids[normalize_lang(lang)])

    def has(self, lang: str, key: str) -> bool:
        return key in self._ids[normalize_lang(lang)]

    def t(self, lang: str, key: str, /, **args: Arg) -> str:
        """The message `key` in `lang`, formatted with `args`.

        Not strict: a message missing in `lang` falls back to DEFAULT_LANG; a message missing
        everywhere or failing to format is logged and its id is returned.
        """
        lang = normalize_lang(lang)
        if key not in self._ids[lang]:
            if self.strict:
                raise I18nError(f"no message {key!r} in {lang!r}")
            log.error("i18n: no message %r in %r", key, lang)
            if key not in self._ids[DEFAULT_LANG]:
                return key
            lang = DEFAULT_LANG
        bundle = self._bundles[lang]
        message = bundle.get_message(key)
        if message.value is None:
            self._problem(f"message {key!r} in {lang!r} has no value")
            return key
        text, errors = bundle.format_pattern(message.value, args)
        if errors:
            self._problem(f"formatting {key!r} in {lang!r} with {args!r}: {errors!r}")
            return key
        return str(text)

    # ---------------------------------------------------------------------------- cards

    def color(self, lang: str, color: Color) -> str:
        """The color's name ("red" in the language), message `color-<name>`."""
        return self.t(lang, f"color-{color.name.lower()}")

    def swatch(self, lang: str, color: Color, colorblind: bool = False) -> str:
        """The color's mark: `🟥`; in color-blind mode also its shape and letter."""
        c = color.name.lower()
        emoji = self.t(lang, f"color-{c}-emoji")
        if not colorblind:
            return self.t(lang, "card-swatch", emoji=emoji)
        shape = self.t(lang, f"color-{c}-shape")
        letter = self.t(lang, f"color-{c}-letter")
        return self.t(lang, "card-swatch-colorblind", emoji=emoji, shape=shape, letter=letter)

    def card_label(
        self, lang: str, card: Card, color: Color | None = None, colorblind: bool = False
    ) -> str:
        """A short label: `🟥 7`, `🟦 ⊘`, `🌈`, `🌈 +4→🟩`; `color` is a played wild's choice."""
        if card.kind is Kind.NUMBER:
            symbol = str(card.number)
        else:
            symbol = self.t(lang, _KIND_SYMBOL[card.kind])
        if card.color is not None:
            return self.t(
                lang, "card-label", swatch=self.swatch(lang, card.color, colorblind), symbol=symbol
            )
        if color is None:
            return self.t(lang, "card-label-wild", symbol=symbol)
        return self.t(
            lang,
            "card-label-wild-chosen",
            symbol=symbol,
            swatch=self.swatch(lang, color, colorblind),
        )

    def card_labels(self, lang: str, cards: Iterable[Card], colorblind: bool = False) -> list[str]:
        return [self.card_label(lang, c, colorblind=colorblind) for c in cards]

    def card_list(self, lang: str, cards: Iterable[Card], colorblind: bool = False) -> str:
        """Labels of several cards in one line, in the given order."""
        return ", ".join(self.card_labels(lang, cards, colorblind))

    def card_name(self, lang: str, card: Card, color: Color | None = None) -> str:
        """The full name in the words of RULES.md section 7 ("red 7", "Creeper" in the language).

        With `color` (a played wild's choice) the chosen color is named too.
        """
        args: dict[str, Arg] = {}
        if card.kind is Kind.NUMBER:
            args["value"] = str(card.number)
        if card.color is not None:
            args["color"] = self.t(lang, f"color-{card.color.name.lower()}-card")
        name = self.t(lang, _KIND_NAME[card.kind], **args)
        if card.color is None and color is not None:
            return self.t(lang, "card-name-wild-chosen", card=name, color=self.color(lang, color))
        return name

    # ---------------------------------------------------------------------------- the rest

    def reason(self, lang: str, code: str) -> str:
        """Why an action was refused, for an `IllegalAction.reason` code."""
        key = f"reason-{dashed(code)}"
        if not self.strict and not self.has(lang, key):
            log.error("i18n: no text for reason %r", code)
            key = "reason-unknown"
        return self.t(lang, key)

    def count(self, lang: str, n: int) -> str:
        """A number of cards with the noun in its plural form (`cards-count`)."""
        return self.t(lang, "cards-count", count=n)

    def points(self, lang: str, n: int) -> str:
        """A number of points with the noun in its plural form (`points-count`)."""
        return self.t(lang, "points-count", count=n)

    def join(self, lang: str, items: Sequence[str]) -> str:
        """Names joined as "A", "A and B", "A, B and C" (message `list-and`)."""
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        return self.t(lang, "list-and", rest=", ".join(items[:-1]), last=items[-1])

    def preset_name(self, lang: str, preset: str) -> str:
        return self.t(lang, f"preset-{preset}")

    def rules_summary(self, lang: str, preset: str) -> str:
        return self.t(lang, f"rules-{preset}")

    def option_name(self, lang: str, field: str) -> str:
        return self.t(lang, f"opt-{field}")

    def option_help(self, lang: str, field: str) -> str:
        return self.t(lang, f"opt-{field}-help")

    def help_text(self, lang: str) -> str:
        return self.t(lang, "help-text")

    def command_description(self, lang: str, command: str) -> str:
        return self.t(lang, f"cmd-{command}")

    def command_name(self, lang: str, command: str) -> str:
        """A localized slash-command name (Discord name localizations)."""
        return self.t(lang, f"cmd-{command}-name")


@functools.cache
def get_i18n() -> I18n:
    """The process-wide instance: locales are read once."""
    return I18n()
