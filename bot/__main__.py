"""`python -m bot`: the chat adapters when tokens are configured, otherwise the console table."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.config import Settings
from bot.i18n import get_i18n
from bot.render import Renderer
from bot.service import UnoService
from bot.storage import DatabaseInUse, Storage
from core.rules import PRESET_NAMES


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--console", action="store_true", help="the console even with tokens set")
    parser.add_argument("--lang", choices=("ru", "uk"), default="ru")
    parser.add_argument("--preset", choices=PRESET_NAMES, default="classic")
    parser.add_argument("--bots", type=int, default=3, help="computer players, 1-9")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file (default from .env)")
    return parser.parse_args(argv)


async def run_console(args: argparse.Namespace, settings: Settings) -> int:
    from bot.console.table import ConsoleTable

    path = args.db or settings.database.with_name("console.sqlite3")
    storage = await Storage.open(path)
    try:
        service = UnoService(storage, bot_delay=0.0, lobby_idle=settings.lobby_idle)
        await service.start()
        table = ConsoleTable(
            service, Renderer(get_i18n()), lang=args.lang, preset=args.preset, bots=args.bots
        )
        await table.run()
    finally:
        await storage.close()
    return 0


async def run_chats(settings: Settings) -> int:
    storage = await Storage.open(settings.database)
    try:
        service = UnoService(storage, bot_delay=settings.bot_delay, lobby_idle=settings.lobby_idle)
        await service.start()
        tasks = []
        if settings.telegram_token is not None:
            from bot.telegram.app import run_telegram

            tasks.append(run_telegram(settings, service))
        if settings.discord_token is not None:
            from bot.discord.app import run_discord

            tasks.append(run_discord(settings, service))
        await asyncio.gather(*tasks)
    finally:
        await storage.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        if args.console or (settings.telegram_token is None and settings.discord_token is None):
            if not args.console:
                logging.getLogger("bot").info("no TELEGRAM_TOKEN or DISCORD_TOKEN: console table")
            logging.getLogger().setLevel(logging.WARNING)
            try:
                return asyncio.run(run_console(args, settings))
            except KeyboardInterrupt:
                return 130
        return asyncio.run(run_chats(settings))
    except DatabaseInUse as exc:  # a second bot on the same file: refuse, plainly
        print(f"python -m bot: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
