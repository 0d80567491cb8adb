"""`python -m bot stickers`: create the bot's sticker sets (or bring them up to date) once.

Reads the same configuration as the bot (`TELEGRAM_TOKEN`, `STICKER_OWNER_ID`, `DATABASE`,
`TELEGRAM_API_BASE`) and prints two lines per set: its link, and what changed. The bot does the
same at every start, so this is only needed to see it done (or before inline mode is enabled).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from bot.config import Settings
from bot.presentation.i18n import LANGS, get_i18n
from bot.telegram.app import create_bot
from bot.telegram.retry import SETUP_BUDGET, retrying
from bot.telegram.stickers import ManifestStore, sync

USAGE = """Create the bot's own sticker sets from the card art (one per language) with the
sticker owner STICKER_OWNER_ID, or bring them up to date; a second run changes nothing."""


async def make_sets(
    settings: Settings, store: ManifestStore, say: Callable[[str], object] = print
) -> int:
    """Create or update both sets; `store` keeps their manifests (the service)."""
    if settings.telegram_token is None or settings.sticker_owner_id is None:
        say("python -m bot stickers: set TELEGRAM_TOKEN and STICKER_OWNER_ID (see .env.example)")
        return 2
    bot = create_bot(settings)
    try:
        me = await retrying(bot.me, budget=SETUP_BUDGET)
        username = me.username or ""
        for lang in LANGS:
            report = await sync(
                bot,
                store,
                get_i18n(),
                owner=settings.sticker_owner_id,
                lang=lang,
                username=username,
            )
            say(f"https://t.me/addstickers/{report.name}")
            say(
                f"  {len(report.file_ids)} stickers; created: {report.created}, "
                f"added: {report.added}, replaced: {report.replaced}, deleted: {report.deleted}"
            )
    finally:
        await bot.session.close()
    return 0


def parse(argv: list[str]) -> None:
    """Only --help: the configuration comes from the environment, as the bot's."""
    parser = argparse.ArgumentParser(prog="python -m bot stickers", description=USAGE)
    parser.parse_args(argv)
