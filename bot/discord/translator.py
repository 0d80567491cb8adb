"""Slash-command names and descriptions in Russian and Ukrainian, from the Fluent files.

Every `locale_str` of the Cog carries its message id in `extras["fluent"]` (`cmd-new-name`,
`cmd-new`, ...); `FluentTranslator` looks it up for the `ru` and `uk` Discord locales, so the sync
payload carries `name_localizations` and `description_localizations` from the same locales as
every other text. The base (non-localized) name is the English command (`new`, as on Telegram);
the base description is the Russian one, the bot's fallback language.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.presentation.i18n import DEFAULT_LANG, I18n, get_i18n

DISCORD_LANGS: dict[discord.Locale, str] = {
    discord.Locale.russian: "ru",
    discord.Locale.ukrainian: "uk",
}


class FluentTranslator(app_commands.Translator):
    def __init__(self, i18n: I18n) -> None:
        self.i18n = i18n

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = DISCORD_LANGS.get(locale)
        key = string.extras.get("fluent")
        if lang is None or not isinstance(key, str) or not self.i18n.has(lang, key):
            return None
        return self.i18n.t(lang, key)


def localized(base: str, key: str) -> app_commands.locale_str:
    """A string Discord shows as `base` unless the client's locale is `ru` or `uk`."""
    return app_commands.locale_str(base, fluent=key)


def command_name(command: str) -> app_commands.locale_str:
    return localized(command, f"cmd-{command}-name")


def command_description(command: str) -> app_commands.locale_str:
    base = get_i18n().command_description(DEFAULT_LANG, command)
    return localized(base, f"cmd-{command}")


def option_description(key: str) -> app_commands.locale_str:
    return localized(get_i18n().t(DEFAULT_LANG, key), key)
