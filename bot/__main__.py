"""`python -m bot`: the chat adapters when tokens are configured, otherwise the console table."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.presentation.i18n import LANGS, get_i18n, normalize_lang
from bot.presentation.render import Renderer
from bot.service import Service
from bot.storage import DatabaseInUse, Storage, open_storage, sqlite_path
from core.rules import MAX_PLAYERS, PRESET_NAMES

MIN_BOTS, MAX_BOTS = 1, MAX_PLAYERS - 1
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class BadArguments(Exception):
    """A command line the console cannot use: `text` says why, in one localized line."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # Only reached for what `parse_known_args` leaves to it; `parse_args` below turns that
        # into a localized line instead of argparse's English usage message.
        raise argparse.ArgumentError(None, message)


def _lang_hint(argv: Sequence[str]) -> str:
    """The language to complain in: `--lang` if it is one, else the system's."""
    for i, arg in enumerate(argv):
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value in LANGS:
            return value
    system = os.environ.get("LC_ALL") or os.environ.get("LANG") or os.environ.get("LANGUAGE")
    return normalize_lang(system)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options; BadArguments for any the console cannot use (never argparse's exit)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = _lang_hint(argv)
    i18n = get_i18n()

    def t(key: str, **args: str | int) -> str:
        return i18n.t(lang, key, **args)

    usage = t("console-help-usage")

    class Formatter(argparse.HelpFormatter):
        def add_usage(self, *args: Any, **kwargs: Any) -> None:
            kwargs["prefix"] = usage + " "
            super().add_usage(*args, **kwargs)

    parser = _Parser(
        prog="python -m bot",
        description=t("console-help"),
        allow_abbrev=False,
        exit_on_error=False,
        add_help=False,
        formatter_class=Formatter,
    )
    parser._optionals.title = t("console-help-options")
    parser.add_argument("-h", "--help", action="help", help=t("console-help-help"))
    parser.add_argument("--console", action="store_true", help=t("console-help-console"))
    parser.add_argument("--web", action="store_true", help=t("console-help-web"))
    parser.add_argument("--lang", metavar="{" + ",".join(LANGS) + "}", help=t("console-help-lang"))
    parser.add_argument(
        "--preset", metavar="{" + ",".join(PRESET_NAMES) + "}", help=t("console-help-preset")
    )
    parser.add_argument("--bots", metavar=f"{MIN_BOTS}-{MAX_BOTS}", help=t("console-help-bots"))
    parser.add_argument(
        "--db", type=Path, metavar=t("console-help-file"), help=t("console-help-db")
    )
    parser.add_argument("--new", action="store_true", help=t("console-help-new"))
    parser.add_argument(
        "--colorblind", action=argparse.BooleanOptionalAction, help=t("console-help-colorblind")
    )
    try:
        args, unknown = parser.parse_known_args(argv)
    except argparse.ArgumentError as exc:
        raise BadArguments(
            t("console-arg-bad", value=exc.argument_name or " ".join(argv), help="--help")
        ) from None
    if unknown:
        raise BadArguments(t("console-arg-unknown", value=" ".join(unknown), help="--help"))
    if args.lang is not None and args.lang not in LANGS:
        names = ", ".join(LANGS)
        raise BadArguments(t("console-arg-lang", value=args.lang, names=names, help="--help"))
    if args.preset is not None and args.preset not in PRESET_NAMES:
        names = ", ".join(PRESET_NAMES)
        raise BadArguments(t("console-arg-preset", value=args.preset, names=names, help="--help"))
    if args.bots is None:
        args.bots = 3
    else:
        text = args.bots
        try:
            args.bots = int(text)
        except ValueError:
            args.bots = 0
        if not MIN_BOTS <= args.bots <= MAX_BOTS:
            raise BadArguments(
                t("console-arg-bots", value=text, min=MIN_BOTS, max=MAX_BOTS, help="--help")
            )
    return args


def console_path(args: argparse.Namespace, settings: Settings) -> Path:
    """The console table's own SQLite file: ``--db``, or beside the bot's SQLite database (in
    ``data/`` when the bot's database is a PostgreSQL server)."""
    beside = sqlite_path(settings.database) or Path("data/uno.sqlite3")
    return Path(args.db or beside.with_name("console.sqlite3"))


async def run_console(args: argparse.Namespace, settings: Settings) -> int:
    from bot.console.table import ConsoleTable

    storage = await Storage.open(console_path(args, settings))
    try:
        service = Service(storage, bot_delay=0.0, lobby_idle=settings.lobby_idle)
        await service.start()
        table = ConsoleTable(
            service,
            Renderer(get_i18n()),
            lang=args.lang,
            preset=args.preset,
            bots=args.bots,
            new=args.new,
            colorblind=args.colorblind,
        )
        await table.run()
    finally:
        await storage.close()
    return 0


async def run_web(args: argparse.Namespace, settings: Settings) -> int:
    """The web table on 127.0.0.1 against computer players (bot.web.local), its own file."""
    from bot.web.local import BOT_DELAY, run_local

    storage = await Storage.open(console_path(args, settings).with_name("web.sqlite3"))
    try:
        service = Service(storage, bot_delay=BOT_DELAY, lobby_idle=None)
        await service.start()
        return await run_local(service, args, settings)
    finally:
        await storage.close()


async def run_chats(settings: Settings) -> int:
    storage = await open_storage(settings.database)
    try:
        # A SQLite file is this process's alone; a PostgreSQL database other processes share.
        shared = sqlite_path(settings.database) is None
        service = Service(
            storage,
            bot_delay=settings.bot_delay,
            lobby_idle=settings.lobby_idle,
            deadline_lease=settings.deadline_lease,
            deadline_poll=settings.deadline_poll,
            settings_ttl=settings.settings_ttl if shared else None,
            outbox_lease=settings.outbox_lease,
        )
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


async def run_stickers(say: Callable[[str], object] = print) -> int:
    """Telegram's sticker sets, their manifests kept through the service (bot.telegram.setup)."""
    from bot.telegram.setup import make_sets

    settings = Settings()
    storage = await open_storage(settings.database)
    try:
        return await make_sets(settings, Service(storage).settings, say)
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["cards"]:  # `python -m bot cards --out DIR`: the card pictures (bot.art)
        from bot.art.cli import main as cards_main

        return cards_main(argv[1:])
    if argv[:1] == ["stickers"]:  # `python -m bot stickers`: the bot's sticker sets (Telegram)
        from bot.telegram.setup import parse

        parse(argv[1:])
        logging.basicConfig(level=logging.WARNING, format=LOG_FORMAT)
        return asyncio.run(run_stickers())
    try:
        args = parse_args(argv)
    except BadArguments as bad:
        print(bad.text, file=sys.stderr)
        return 2
    settings = Settings()
    level = settings.log_level.upper()
    if args.web:
        logging.basicConfig(level=level, format=LOG_FORMAT)
        try:
            return asyncio.run(run_web(args, settings))
        except KeyboardInterrupt:
            return 130
    if args.console or (settings.telegram_token is None and settings.discord_token is None):
        # The terminal belongs to the game: the log goes to a file next to its database.
        log_file = console_path(args, settings).with_suffix(".log")
        log_file.parent.mkdir(parents=True, exist_ok=True)
        logging.basicConfig(level=level, format=LOG_FORMAT, filename=log_file, encoding="utf-8")
        # Ctrl+C must leave the table even when the bot was started by something that ignores
        # SIGINT (a shell's background job, nohup scripts): Python only installs its handler
        # when SIGINT is not ignored at start.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            return asyncio.run(run_console(args, settings))
        except KeyboardInterrupt:  # the table has said that the match is saved
            return 130
        except DatabaseInUse:  # another console plays at this table right now
            lang = args.lang or _lang_hint([])
            path = str(console_path(args, settings))
            text = get_i18n().t(lang, "console-db-in-use", path=path, option="--db")
            print(text, file=sys.stderr)
            return 1
    logging.basicConfig(level=level, format=LOG_FORMAT)
    try:
        return asyncio.run(run_chats(settings))
    except DatabaseInUse as exc:  # a second bot on the same file: refuse, plainly
        print(f"python -m bot: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
