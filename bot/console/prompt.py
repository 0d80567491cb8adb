"""The console's prompt: a number typed in a range, and the letter commands every prompt takes.

`q` leaves (or goes back); at a prompt that is not a step back, `s` opens the settings and `r`
shows the rules, as /settings and /rules do in a chat. Each letter is also taken as the key it
sits on in the keyboard's Cyrillic layout (the locale's `console-*-keys`), so that a player need
not switch the layout to answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.console.stdin import StdinLines
from bot.presentation.render import Renderer

Ask = Callable[[str], Awaitable[str | None]]
Menu = Callable[[], Awaitable[bool]]  # shows a menu until the player goes back; False: input ended
QUIT_WORDS = frozenset({"q", "quit", "exit"})  # and the locale's `console-quit-keys`
SETTINGS_WORDS = frozenset({"s"})  # and `console-settings-keys`
RULES_WORDS = frozenset({"r"})  # and `console-rules-keys`
# What `Prompt.number` answers when the settings or the rules were shown at its prompt: the
# caller shows its question again (the screen has scrolled, and the language may have changed).
SHOWN_MENU = -1


class Prompt:
    def __init__(
        self,
        renderer: Renderer,
        say: Callable[[str], None],
        *,
        settings: Menu,
        rules: Menu,
        ask: Ask | None = None,
    ) -> None:
        self.r = renderer
        self.say = say
        self.settings = settings
        self.rules = rules
        self.ask = ask or StdinLines()

    async def number(self, lang: str, low: int, high: int, *, back: bool = False) -> int | None:
        """A number typed in [low, high]. `q` leaves (None), or with `back` goes back (0);
        the input's end (Ctrl-D) always leaves. Without `back`, `s` opens the settings and `r`
        shows the rules; then the answer is SHOWN_MENU."""
        key = "console-prompt-back" if back else "console-prompt"
        while True:
            text = await self.ask(self.r.t(lang, key, low=low, high=high))
            if text is None:
                self.say("")
                return None
            word = text.strip().lower()
            if word in self._words(lang, QUIT_WORDS, "console-quit-keys"):
                return 0 if back else None
            if not back and word in self._words(lang, SETTINGS_WORDS, "console-settings-keys"):
                return SHOWN_MENU if await self.settings() else None
            if not back and word in self._words(lang, RULES_WORDS, "console-rules-keys"):
                return SHOWN_MENU if await self.rules() else None
            try:
                number = int(text.strip())
            except ValueError:
                number = -1
            if low <= number <= high:
                return number
            self.say(self.r.t(lang, "console-bad-number", low=low, high=high))

    def _words(self, lang: str, latin: frozenset[str], key: str) -> frozenset[str]:
        """What may be typed for a letter command: the letter, and the key it is on in the
        keyboard's Cyrillic layout (from the locale)."""
        return latin | frozenset(self.r.t(lang, key).split())
