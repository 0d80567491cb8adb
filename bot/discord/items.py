"""The bot's buttons and select menus: `ui.DynamicItem`s whose custom id is all their state.

A custom id is a key of `bot.presentation.buttons` (the grammar both platforms share, at most 100
characters here), so a button keeps working after a restart and a press on an outdated hand is
recognised. Each item takes every id of its kind (`h:...`, `l:...`) and hands its parsed key to
the cog that handles it (found on the bot by the handler class it implements: items import no
cog). What they all do the same is `Press`: an id that does not parse (forged, or a number out
of range), or that its item refuses, gets the stale answer before anything reaches the service.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self, TypeVar

import discord
from discord import ui
from discord.ext import commands

from bot.presentation.buttons import (
    DISCORD_LIMIT,
    CardsKey,
    HandKey,
    HandMenuKey,
    Key,
    LobbyKey,
    RematchKey,
    SettingKey,
    pack,
    parse,
)

Interaction = discord.Interaction[Any]
SETTINGS_MENUS: tuple[str, ...] = ("preset", "lang", "timer", "target", "toggle")
LEGACY = "uno:"  # the prefix of the ids sent before the shared grammar
Values = list[str] | None  # a select menu's chosen options (None: a button)


def custom_id(key: Key) -> str:
    return pack(key, DISCORD_LIMIT)


def table_id(game: int) -> str:
    return custom_id(CardsKey(game))


def lobby_id(game: int, op: str) -> str:
    return custom_id(LobbyKey(game, op))


def hand_id(game: int, version: int, act: str) -> str:
    return custom_id(HandKey(game, version, act))


def hand_menu_id(game: int, version: int, page: int) -> str:
    return custom_id(HandMenuKey(game, version, page))


def settings_id(menu: str) -> str:
    return custom_id(SettingKey(menu))


def rematch_id(game: int) -> str:
    return custom_id(RematchKey(game))


# ------------------------------------------------------------------ who handles what
# The cogs implement these (plain classes: a Protocol's or an ABC's metaclass does not mix with
# a Cog's); an item finds its cog on the bot by them, so that no item imports a cog.


class PlayHandler:
    """The cog of a player's hand: "my cards" and the hand's buttons and card menu."""

    async def show_hand(self, interaction: Interaction, game: int) -> None:
        raise NotImplementedError

    async def press_hand(self, interaction: Interaction, key: HandKey) -> None:
        raise NotImplementedError


class LobbyHandler:
    """The cog of the lobby's buttons and of "rematch" under a match's result."""

    async def press_lobby(self, interaction: Interaction, key: LobbyKey) -> None:
        raise NotImplementedError

    async def press_rematch(self, interaction: Interaction, game: int) -> None:
        raise NotImplementedError


class SettingsHandler:
    """The cog of the /settings panel's menus."""

    async def choose_setting(self, interaction: Interaction, menu: str, value: str) -> None:
        raise NotImplementedError


class StaleHandler:
    """The cog that answers a component the bot cannot take (forged, or long outdated)."""

    async def answer_stale(self, interaction: Interaction) -> None:
        raise NotImplementedError


H = TypeVar("H")


def handler(interaction: Interaction, kind: type[H]) -> H:
    """The bot's cog that implements `kind`."""
    client = interaction.client
    for cog in client.cogs.values() if isinstance(client, commands.Bot) else ():
        if isinstance(cog, kind):
            return cog
    raise LookupError(f"no cog is a {kind.__name__}")


def is_private(interaction: Interaction) -> bool:
    """Whether the pressed component sits on a message only its presser sees (an ephemeral
    or a DM): the only place a hand's buttons are honoured. Replayed on the public table,
    a hand button would otherwise put that hand on the table for everyone."""
    message = interaction.message
    if message is None:
        return False
    return interaction.guild_id is None or message.flags.ephemeral


# ------------------------------------------------------------------ the items


class Press(ui.DynamicItem[ui.Item[Any]], template=r"(?!)"):
    """What every item does with a press: its custom id parsed into a key and, when the key is
    of the item's `kind` and the item `allows` it here, handed to its cog (`handle`); anything
    else gets the stale answer. Each subclass names its ids' `prefix` (its template is every id
    of that prefix, so that no id of its kind goes unanswered) and their `kind`."""

    kind: ClassVar[type[Any]]

    def __init_subclass__(cls, *, prefix: str, kind: type[Any] = object) -> None:
        super().__init_subclass__(template=re.escape(prefix) + ":.*")
        cls.kind = kind

    def __init__(self, item: ui.Item[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(item)

    def key(self) -> Key | None:
        return parse(self.custom_id)

    async def callback(self, interaction: Interaction) -> None:
        values = list(self.item.values) if isinstance(self.item, ui.Select) else None
        if not await self.take(interaction, self.key(), values):
            await handler(interaction, StaleHandler).answer_stale(interaction)

    @classmethod
    async def take(cls, interaction: Interaction, key: Key | None, values: Values) -> bool:
        """Hand the press to its cog; False when this item does not take it."""
        if not isinstance(key, cls.kind) or not cls.allows(interaction, key, values):
            return False
        await cls.handle(interaction, key, values)
        return True

    @classmethod
    def allows(cls, interaction: Interaction, key: Any, values: Values) -> bool:
        """Whether a key of the item's kind may be pressed here, with these values."""
        return True

    @classmethod
    async def handle(cls, interaction: Interaction, key: Any, values: Values) -> None:
        raise NotImplementedError


class MyCardsButton(Press, prefix="t", kind=CardsKey):
    """ "My cards", under the running table and under a turn prompt."""

    @classmethod
    async def handle(cls, interaction: Interaction, key: CardsKey, values: Values) -> None:
        await handler(interaction, PlayHandler).show_hand(interaction, key.game)


class HandButton(Press, prefix="h", kind=HandKey):
    """A hand's button: a move, a step of a two-step move, a page of the card menu, back.
    Only where its presser alone sees it (`is_private`)."""

    @classmethod
    def allows(cls, interaction: Interaction, key: HandKey, values: Values) -> bool:
        return is_private(interaction)

    @classmethod
    async def handle(cls, interaction: Interaction, key: HandKey, values: Values) -> None:
        await handler(interaction, PlayHandler).press_hand(interaction, key)


class HandMenu(Press, prefix="hm", kind=HandMenuKey):
    """The card menu of a hand whose cards do not fit as buttons: the option chosen is the
    act, pressed as that hand button would be."""

    @classmethod
    async def take(cls, interaction: Interaction, key: Key | None, values: Values) -> bool:
        chosen = key.choose(values[0]) if isinstance(key, HandMenuKey) and values else None
        return await HandButton.take(interaction, chosen, None)


class LobbyButton(Press, prefix="l", kind=LobbyKey):
    """The lobby's join, add a robot, start, and the robots' level."""

    @classmethod
    async def handle(cls, interaction: Interaction, key: LobbyKey, values: Values) -> None:
        await handler(interaction, LobbyHandler).press_lobby(interaction, key)


class RematchButton(Press, prefix="r", kind=RematchKey):
    """ "Rematch", under the message announcing a match's result."""

    @classmethod
    async def handle(cls, interaction: Interaction, key: RematchKey, values: Values) -> None:
        await handler(interaction, LobbyHandler).press_rematch(interaction, key.game)


class SettingsMenu(Press, prefix="s", kind=SettingKey):
    """A menu of the /settings panel: the option chosen is the value."""

    @classmethod
    def allows(cls, interaction: Interaction, key: SettingKey, values: Values) -> bool:
        return key.setting in SETTINGS_MENUS and not key.value and values is not None

    @classmethod
    async def handle(cls, interaction: Interaction, key: SettingKey, values: Values) -> None:
        if not values:
            await interaction.response.defer()
            return
        await handler(interaction, SettingsHandler).choose_setting(
            interaction, key.setting, values[0]
        )


KINDS: tuple[type[Press], ...] = (
    MyCardsButton,
    LobbyButton,
    HandButton,
    HandMenu,
    SettingsMenu,
    RematchButton,
)


class Legacy(Press, prefix=LEGACY[:-1]):
    """A component sent before the shared grammar (`uno:<key>`): a running game's table and
    lobby keep working across the upgrade, taken by the item of the key's kind; keys of the
    old hand menus (`wild:`, `page:`) are refused like any outdated press, with a fresh hand."""

    def key(self) -> Key | None:
        return parse(self.custom_id[len(LEGACY) :])

    @classmethod
    async def take(cls, interaction: Interaction, key: Key | None, values: Values) -> bool:
        for kind in KINDS:
            if await kind.take(interaction, key, values):
                return True
        return False


DYNAMIC_ITEMS: tuple[type[Press], ...] = (*KINDS, Legacy)


def is_ours(custom_id: str) -> bool:
    """Whether a DynamicItem takes this custom id, so that discord.py runs its callback.

    Every view of `layout` holds only these items (no stored views), so an id none of them
    matches would reach no code at all and the user would see "This interaction failed":
    the `Stale` cog's listener answers those. Deciding by the same templates discord.py uses,
    rather than by whether a response went out, never answers an interaction twice.
    """
    return any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id) is not None
        for item in DYNAMIC_ITEMS
    )
