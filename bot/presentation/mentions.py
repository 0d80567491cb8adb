"""Where a text names people, so that each adapter can turn those names into mentions.

A rematch lobby names the previous match's people so that they know to join, and a name in plain
text notifies nobody. Telegram needs each name's place in the text (a `text_mention` entity over
the name), Discord needs `<@id>` in the name's place: both come from the spans kept here.

The spans are found by rendering the line with markers in place of the names and putting the
names in afterwards. A name is whatever its owner typed, so it is never searched for in the text
(it may equal another name, a word of the message, or contain anything at all).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_MARK = re.compile("\x00([0-9]+)\x00")


def marker(i: int) -> str:
    """A stand-in for the `i`-th name: no message text contains NUL."""
    return f"\x00{i}\x00"


@dataclass(frozen=True)
class Mention:
    """`player` is named by `text[start:end]` (Python string indices)."""

    player: str
    start: int
    end: int


@dataclass(frozen=True)
class Marked:
    """A text and the places in it that name people to mention."""

    text: str
    mentions: tuple[Mention, ...] = ()

    def replaced(self, mention: Callable[[str], str]) -> str:
        """The text with each marked name replaced by `mention(player)`."""
        text = self.text
        for m in sorted(self.mentions, key=lambda m: m.start, reverse=True):
            text = text[: m.start] + mention(m.player) + text[m.end :]
        return text


def fill(template: str, players: Sequence[str], labels: Sequence[str], offset: int = 0) -> Marked:
    """`template` (rendered with `marker(i)` for player i) with the labels put in their place.

    `offset` is where the template will start in the whole text: the spans count from there.
    A marker the message left out names nobody; one it repeats is a mention each time.
    """
    parts: list[str] = []
    mentions: list[Mention] = []
    at, length = 0, offset
    for found in _MARK.finditer(template):
        before, at = template[at : found.start()], found.end()
        parts.append(before)
        length += len(before)
        i = int(found[1])
        if i < len(players):  # (a marker of nobody is dropped)
            parts.append(labels[i])
            mentions.append(Mention(players[i], length, length + len(labels[i])))
            length += len(labels[i])
    parts.append(template[at:])
    return Marked("".join(parts), tuple(mentions))
