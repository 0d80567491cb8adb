"""The one grammar of button keys, the same on Telegram (callback data) and Discord (custom id).

A button carries all its state in its key, so it keeps working after a restart and a press on an
outdated message is recognised:

- `h:<game>:<version>:<act>`   a hand button. `act` is an action in the engine's notation
  (`play r7`, `play wild4 g`, `play r7 @<player>`, `draw`), `pick <first part>` to open the
  second step of the actions sharing that first part (`pick play wild4`: the four colors;
  `pick play r7`: the players a 7 swaps with), `back` to close it, or `page <n>` (Discord's
  card menu when the cards do not fit as buttons), or `hold <card>`: a card shown but not
  playable now (Telegram's inline results show the whole hand; choosing a dimmed card is
  refused without reaching the service).
- `hm:<game>:<version>:<page>` Discord's card menu; the chosen option's value is an `act`.
- `l:<game>:<join|addbot|start>`  the lobby's buttons; `l:<game>:<easy|strong>` asks for that
  level of the computer players (the level wanted, not "switch": two quick presses of the same
  button cannot cancel each other).
- `r:<game>`                    "rematch" under a match's result (`game` is that match).
- `t:<game>`                    Discord's "my cards" under the table.
- `s:<setting>[:<value>]`       the /settings panel (a Discord select carries no value: the
  option chosen is the value).

Every number is range-checked when parsed (decimal digits only, below 2**63, the largest id the
storage holds): a key that does not parse is stale or forged, and the adapter answers it with its
stale-button notice before anything reaches the service. Telegram takes at most 64 bytes of
callback data and Discord 100 characters of custom id: `pack` refuses a key over `limit`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.ai import Level

TELEGRAM_LIMIT = 64  # bytes of callback data
DISCORD_LIMIT = 100  # characters of a custom id
MAX_ID = 2**63 - 1  # the storage's INTEGER: ids and versions above this are forged
MAX_PAGE = 99

PICK = "pick "
BACK = "back"
PAGE = "page "
HOLD = "hold "
LEVEL_OPS: tuple[str, ...] = tuple(level.value for level in Level)
LOBBY_OPS: tuple[str, ...] = ("join", "addbot", "start", *LEVEL_OPS)

_NUMBER = re.compile(r"[0-9]{1,19}")
# An act: engine notation, a player id after `@` (digits, or a computer player's `ai:<n>`).
_ACT = re.compile(r"[a-z0-9][a-z0-9 +@:_-]{0,59}")
_WORD = re.compile(r"[a-z_]{1,32}")
_VALUE = re.compile(r"[a-z0-9_]{1,16}")


def number(text: str, maximum: int = MAX_ID) -> int | None:
    """`text` as a non-negative int up to `maximum`; None for anything else ('-1', '+1', '1e3',
    '١', 2**63)."""
    if not _NUMBER.fullmatch(text):
        return None
    value = int(text)
    return value if value <= maximum else None


@dataclass(frozen=True)
class HandKey:
    game: int
    version: int
    act: str

    @property
    def opens(self) -> str | None:
        """The first part whose second step this press opens (`pick play wild4`)."""
        return self.act[len(PICK) :] if self.act.startswith(PICK) else None

    @property
    def page(self) -> int | None:
        """The page of Discord's card menu this press turns to."""
        return number(self.act[len(PAGE) :], MAX_PAGE) if self.act.startswith(PAGE) else None

    @property
    def holds(self) -> bool:
        """A card shown only (dimmed): never a move."""
        return self.act.startswith(HOLD)

    @property
    def is_move(self) -> bool:
        """Whether the press is a move for the service (not a step of the hand's own menus)."""
        return self.act != BACK and not self.act.startswith((PICK, PAGE, HOLD))

    def pack(self) -> str:
        return f"h:{self.game}:{self.version}:{self.act}"


@dataclass(frozen=True)
class HandMenuKey:
    game: int
    version: int
    page: int

    def pack(self) -> str:
        return f"hm:{self.game}:{self.version}:{self.page}"

    def choose(self, act: str) -> HandKey | None:
        """The press of one option of the menu (its value is an act)."""
        return HandKey(self.game, self.version, act) if _ACT.fullmatch(act) else None


@dataclass(frozen=True)
class LobbyKey:
    game: int
    op: str

    @property
    def level(self) -> Level | None:
        """The computer players' level this press asks for (None: another lobby button)."""
        return Level(self.op) if self.op in LEVEL_OPS else None

    @staticmethod
    def switch_level(game: int, current: Level) -> LobbyKey:
        """The level button of a lobby whose robots play at `current`: it asks for the other."""
        wanted = Level.EASY if current is Level.STRONG else Level.STRONG
        return LobbyKey(game, wanted.value)

    def pack(self) -> str:
        return f"l:{self.game}:{self.op}"


@dataclass(frozen=True)
class RematchKey:
    game: int

    def pack(self) -> str:
        return f"r:{self.game}"


@dataclass(frozen=True)
class CardsKey:
    game: int

    def pack(self) -> str:
        return f"t:{self.game}"


@dataclass(frozen=True)
class SettingKey:
    setting: str
    value: str = ""

    def pack(self) -> str:
        return f"s:{self.setting}:{self.value}" if self.value else f"s:{self.setting}"


Key = HandKey | HandMenuKey | LobbyKey | RematchKey | CardsKey | SettingKey


def parse(data: str) -> Key | None:
    """The key a button carries; None when it is not one the bot could have made."""
    kind, _, rest = data.partition(":")
    if kind == "h":
        game, version, act = _split(rest, 3)
        g, v = number(game), number(version)
        if g is None or v is None or not _ACT.fullmatch(act):
            return None
        key = HandKey(g, v, act)
        if act.startswith(PAGE) and key.page is None:
            return None
        return key
    if kind == "hm":
        game, version, page = _split(rest, 3)
        g, v, p = number(game), number(version), number(page, MAX_PAGE)
        return None if g is None or v is None or p is None else HandMenuKey(g, v, p)
    if kind == "l":
        game, op = _split(rest, 2)
        g = number(game)
        return None if g is None or op not in LOBBY_OPS else LobbyKey(g, op)
    if kind in ("r", "t"):
        g = number(rest)
        if g is None:
            return None
        return RematchKey(g) if kind == "r" else CardsKey(g)
    if kind == "s":
        setting, sep, value = rest.partition(":")
        if not _WORD.fullmatch(setting) or (sep and not _VALUE.fullmatch(value)):
            return None
        return SettingKey(setting, value)
    return None


def pack(key: Key, limit: int) -> str:
    """The key as button data; ValueError if a platform would refuse it (see the limits)."""
    data = key.pack()
    size = len(data.encode()) if limit == TELEGRAM_LIMIT else len(data)
    if size > limit or parse(data) != key:
        raise ValueError(f"not a valid button key within {limit}: {data!r}")
    return data


def _split(rest: str, parts: int) -> list[str]:
    """`rest` split on ':' into exactly `parts` fields (the last keeps its colons)."""
    fields = rest.split(":", parts - 1)
    return fields if len(fields) == parts else [""] * parts
