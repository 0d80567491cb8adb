"""The bot's buttons and select menus: `ui.DynamicItem`s whose custom id is all their state.

A custom id is a key of `bot.presentation.buttons` (the grammar both platforms share, at most 100
characters here), so a button keeps working after a restart and a press on an outdated hand is
recognised. The items only parse their custom id and hand the interaction to the `Controller`
(`interaction.client.uno`): no game state lives here.

Each item takes every id of its kind (`h:...`, `l:...`) and `dispatch`es it by its parsed key;
one that does not parse (forged, or a number out of range) is answered like a component of no
kind at all (`Controller.on_unknown_component`), before anything reaches the service.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self, cast

import discord
from discord import ui

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

if TYPE_CHECKING:
    from bot.discord.controller import Controller

SETTINGS_MENUS: tuple[str, ...] = ("preset", "lang", "timer", "target", "toggle")


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


def controller(interaction: discord.Interaction[Any]) -> Controller:
    return cast("Controller", interaction.client.uno)


async def dispatch(
    interaction: discord.Interaction[Any], key: Key | None, item: ui.Item[Any]
) -> None:
    """Hand a pressed component to the Controller by its key; a key that did not parse (or a
    key on a component of the wrong type) is answered as stale."""
    c = controller(interaction)
    values = list(item.values) if isinstance(item, ui.Select) else None
    if isinstance(key, HandMenuKey):
        key = key.choose(values[0]) if values else None
    if isinstance(key, CardsKey):
        await c.on_my_cards(interaction, key.game)
    elif isinstance(key, LobbyKey):
        await c.on_lobby_button(interaction, key)
    elif isinstance(key, HandKey):
        await c.on_hand(interaction, key)
    elif isinstance(key, RematchKey):
        await c.on_rematch(interaction, key.game)
    elif (
        isinstance(key, SettingKey)
        and key.setting in SETTINGS_MENUS
        and not key.value
        and values is not None
    ):
        if values:
            await c.on_settings_menu(interaction, key.setting, values[0])
        else:
            await interaction.response.defer()
    else:
        await c.on_unknown_component(interaction)


class MyCardsButton(ui.DynamicItem[ui.Button[Any]], template=r"t:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, parse(self.custom_id), self.item)


class LobbyButton(ui.DynamicItem[ui.Button[Any]], template=r"l:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, parse(self.custom_id), self.item)


class HandButton(ui.DynamicItem[ui.Button[Any]], template=r"h:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, parse(self.custom_id), self.item)


class HandMenu(ui.DynamicItem[ui.Select[Any]], template=r"hm:.*"):
    def __init__(self, select: ui.Select[Any], *, row: int | None = None) -> None:
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Select[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, parse(self.custom_id), self.item)


class SettingsMenu(ui.DynamicItem[ui.Select[Any]], template=r"s:.*"):
    def __init__(self, select: ui.Select[Any], *, row: int | None = None) -> None:
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Select[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, parse(self.custom_id), self.item)


class RematchButton(ui.DynamicItem[ui.Button[Any]], template=r"r:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, parse(self.custom_id), self.item)


class Legacy(ui.DynamicItem[ui.Item[Any]], template=r"uno:.*"):
    """A component sent before the shared grammar (`uno:<key>`): a running game's table and
    lobby keep working across the upgrade; keys of the old hand menus (`wild:`, `page:`) are
    refused like any outdated press, with a fresh hand."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, parse(self.custom_id[len("uno:") :]), self.item)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    MyCardsButton,
    LobbyButton,
    HandButton,
    HandMenu,
    SettingsMenu,
    RematchButton,
    Legacy,
)


def is_ours(custom_id: str) -> bool:
    """Whether a DynamicItem takes this custom id, so that discord.py runs its callback.

    Every view of `layout` holds only these items (no stored views), so an id none of them
    matches would reach no code at all and the user would see "This interaction failed":
    `UnoCog.on_interaction` answers those. Deciding by the same templates discord.py uses,
    rather than by whether a response went out, never answers an interaction twice.
    """
    return any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id) is not None
        for item in DYNAMIC_ITEMS
    )
