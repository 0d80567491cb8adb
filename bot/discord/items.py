"""The bot's buttons and select menus: `ui.DynamicItem`s whose custom id is all their state.

A custom id names the game (and, for a hand, the hand's version), so a button keeps working after
a restart and a press on an outdated hand is recognised. The items only parse their custom id and
hand the interaction to the `Controller` (`interaction.client.uno`): no game state lives here.

Custom ids (at most 100 characters):

- `uno:t:<game>`                 the table's "my cards" button
- `uno:l:<game>:<join|addbot|start>`   lobby buttons on the table
- `uno:h:<game>:<version>:<key>`  a hand button; `key` is a `Choice.key` (`play r7`, `draw`,
  `wild:wild4`), a wild's color (`play wild4 g`), `back` or `page:<n>`
- `uno:hs:<game>:<version>:<page>`  the hand's card menu when the cards do not fit as buttons
- `uno:s:<setting>`               a select of the /settings menu
- `uno:r:<game>`                 "rematch" under a match's result (`game` is that match)

An id none of these templates matches is answered by `UnoCog.on_interaction` (see `is_ours`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self, cast

import discord
from discord import ui

if TYPE_CHECKING:
    from bot.discord.controller import Controller

TABLE_ID = r"uno:t:(?P<game>\d+)"
LOBBY_ID = r"uno:l:(?P<game>\d+):(?P<op>join|addbot|start)"
HAND_ID = r"uno:h:(?P<game>\d+):(?P<ver>\d+):(?P<key>[\w: +-]{1,60})"
HAND_MENU_ID = r"uno:hs:(?P<game>\d+):(?P<ver>\d+):(?P<page>\d+)"
SETTINGS_ID = r"uno:s:(?P<key>preset|lang|timer|target|toggle)"
REMATCH_ID = r"uno:r:(?P<game>\d+)"
LOBBY_OPS: tuple[str, ...] = ("join", "addbot", "start")
SETTINGS_MENUS: tuple[str, ...] = ("preset", "lang", "timer", "target", "toggle")


def table_id(game: int) -> str:
    return f"uno:t:{game}"


def lobby_id(game: int, op: str) -> str:
    return f"uno:l:{game}:{op}"


def hand_id(game: int, version: int, key: str) -> str:
    return f"uno:h:{game}:{version}:{key}"


def hand_menu_id(game: int, version: int, page: int) -> str:
    return f"uno:hs:{game}:{version}:{page}"


def settings_id(key: str) -> str:
    return f"uno:s:{key}"


def rematch_id(game: int) -> str:
    return f"uno:r:{game}"


def controller(interaction: discord.Interaction[Any]) -> Controller:
    return cast("Controller", interaction.client.uno)


def _groups(item: ui.DynamicItem[Any]) -> dict[str, str]:
    match = item.template.fullmatch(item.custom_id)
    assert match is not None  # DynamicItem checked the template when it was made
    return match.groupdict()


class MyCardsButton(ui.DynamicItem[ui.Button[Any]], template=TABLE_ID):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        game = int(_groups(self)["game"])
        await controller(interaction).on_my_cards(interaction, game)


class LobbyButton(ui.DynamicItem[ui.Button[Any]], template=LOBBY_ID):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        groups = _groups(self)
        game, op = int(groups["game"]), groups["op"]
        await controller(interaction).on_lobby_button(interaction, game, op)


class HandButton(ui.DynamicItem[ui.Button[Any]], template=HAND_ID):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        groups = _groups(self)
        await controller(interaction).on_hand(
            interaction, int(groups["game"]), int(groups["ver"]), groups["key"]
        )


class HandMenu(ui.DynamicItem[ui.Select[Any]], template=HAND_MENU_ID):
    def __init__(self, select: ui.Select[Any], *, row: int | None = None) -> None:
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Select[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        groups = _groups(self)
        values = self.item.values
        key = values[0] if values else "back"
        await controller(interaction).on_hand(
            interaction, int(groups["game"]), int(groups["ver"]), key
        )


class SettingsMenu(ui.DynamicItem[ui.Select[Any]], template=SETTINGS_ID):
    def __init__(self, select: ui.Select[Any], *, row: int | None = None) -> None:
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Select[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if not values:
            await interaction.response.defer()
            return
        await controller(interaction).on_settings_menu(interaction, _groups(self)["key"], values[0])


class RematchButton(ui.DynamicItem[ui.Button[Any]], template=REMATCH_ID):
    def __init__(self, button: ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast("ui.Button[Any]", item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_rematch(interaction, int(_groups(self)["game"]))


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
