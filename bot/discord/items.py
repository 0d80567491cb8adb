"""The bot's buttons and select menus: `ui.DynamicItem`s whose custom id is all their state.

A custom id is a key of `bot.buttons` (the grammar both platforms share, at most 100 characters
here), so a button keeps working after a restart and a press on an outdated hand is recognised.
The items only parse their custom id and hand the interaction to the `Controller`
(`interaction.client.uno`): no game state lives here.

Each item takes every id of its kind (`h:...`, `l:...`); one that does not parse as a key (forged,
or a number out of range) is answered like a component of no kind at all
(`Controller.on_unknown_component`), before anything reaches the service.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self, cast

import discord
from discord import ui

from bot.buttons import (
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


def _values(item: ui.Item[Any]) -> list[str]:
    """The options chosen in a select menu (none for a button that carries a menu's id)."""
    return list(item.values) if isinstance(item, ui.Select) else []


class MyCardsButton(ui.DynamicItem[ui.Button[Any]], template=r"t:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        key = parse(self.custom_id)
        if not isinstance(key, CardsKey):
            await controller(interaction).on_unknown_component(interaction)
            return
        await controller(interaction).on_my_cards(interaction, key.game)


class LobbyButton(ui.DynamicItem[ui.Button[Any]], template=r"l:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        key = parse(self.custom_id)
        if not isinstance(key, LobbyKey):
            await controller(interaction).on_unknown_component(interaction)
            return
        await controller(interaction).on_lobby_button(interaction, key.game, key.op)


class HandButton(ui.DynamicItem[ui.Button[Any]], template=r"h:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        key = parse(self.custom_id)
        if not isinstance(key, HandKey):
            await controller(interaction).on_unknown_component(interaction)
            return
        await controller(interaction).on_hand(interaction, key)


class HandMenu(ui.DynamicItem[ui.Select[Any]], template=r"hm:.*"):
    def __init__(self, select: ui.Select[Any], *, row: int | None = None) -> None:
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Select[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        menu = parse(self.custom_id)
        values = _values(self.item)
        key = menu.choose(values[0]) if isinstance(menu, HandMenuKey) and values else None
        if key is None:
            await controller(interaction).on_unknown_component(interaction)
            return
        await controller(interaction).on_hand(interaction, key)


class SettingsMenu(ui.DynamicItem[ui.Select[Any]], template=r"s:.*"):
    def __init__(self, select: ui.Select[Any], *, row: int | None = None) -> None:
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Select[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        key = parse(self.custom_id)
        valid = isinstance(key, SettingKey) and key.setting in SETTINGS_MENUS and not key.value
        if not valid or not isinstance(self.item, ui.Select):
            await controller(interaction).on_unknown_component(interaction)
            return
        assert isinstance(key, SettingKey)
        values = self.item.values
        if not values:
            await interaction.response.defer()
            return
        await controller(interaction).on_settings_menu(interaction, key.setting, values[0])


class RematchButton(ui.DynamicItem[ui.Button[Any]], template=r"r:.*"):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        key = parse(self.custom_id)
        if not isinstance(key, RematchKey):
            await controller(interaction).on_unknown_component(interaction)
            return
        await controller(interaction).on_rematch(interaction, key.game)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    MyCardsButton,
    LobbyButton,
    HandButton,
    HandMenu,
    SettingsMenu,
    RematchButton,
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
