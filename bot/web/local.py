"""`make run ARGS="--web"`: the web table on this computer, against computer players.

No Telegram here: the page is served on 127.0.0.1 only, and the person at the keyboard is known
by a random secret printed once, in the link (after `#`, so it never reaches a log). The table
has a SQLite file of its own (`bot.__main__` opens it beside the console's); a running match
there is picked up again, otherwise a new one is dealt. Computer players move on the service's
deadlines (`Clock.run_timers`), a little apart so that a person can follow them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Callable

from bot.config import Settings
from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service, User
from bot.web.app import make_app, serve
from bot.web.auth import Auth

CHAT = "web:local"
HOST = "127.0.0.1"
BOT_DELAY = 1.0  # seconds between computer moves, so that a person sees each one


def player(number: int, r: Renderer, lang: str) -> User:
    """The `number`th person at a local table (named in the table's language)."""
    name = r.t(lang, "console-you") if number == 1 else f"{r.t(lang, 'console-you')} {number}"
    return User(f"local:{number}", name, lang)


async def deal(
    service: Service,
    humans: list[User],
    *,
    bots: int,
    chat: str = CHAT,
    lang: str = "ru",
    preset: str | None = None,
    colorblind: bool | None = None,
    target: int | None = None,
) -> int:
    """A new match at a local table (any match there is stopped first); its game id."""
    host = humans[0]
    settings = [("lang", lang), ("timer", "off")]
    if colorblind is not None:
        settings.append(("colorblind", "on" if colorblind else "off"))
    if preset is not None:
        settings.append(("preset", preset))
    if target is not None:
        settings.append(("target", str(target)))
    for key, value in settings:
        await service.settings.change_setting(chat, host, key, value, is_admin=True)
    if (await service.queries.table(chat)).table is not None:
        await service.lobby.kill(chat, host, is_admin=True)
    await service.lobby.new_game(chat, host)
    for person in humans[1:]:
        await service.lobby.join(chat, person)
    for _ in range(bots):
        await service.lobby.add_bot(chat, host)
    out = await service.lobby.start_game(chat, host)
    if out.table is None:
        raise RuntimeError(f"the local match did not start: {out.error}")
    return out.table.game_id


async def resumed(service: Service, user: User) -> int | None:
    """The local table's running match, when `user` plays in it."""
    table = (await service.queries.table(CHAT)).table
    if table is None or table.status != "running":
        return None
    return table.game_id if any(seat.id == user.id for seat in table.seats) else None


async def run_local(
    service: Service,
    args: argparse.Namespace,
    settings: Settings,
    say: Callable[[str], object] = print,
) -> int:
    """Serve the local table until stopped (Ctrl+C); `args` are the console's options."""
    r = Renderer(get_i18n())
    lang = args.lang or (await service.settings.settings(CHAT)).lang or "ru"
    user = player(1, r, lang)
    game = None if args.new else await resumed(service, user)
    if game is None:
        game = await deal(
            service, [user], bots=args.bots, lang=lang, preset=args.preset,
            colorblind=args.colorblind,
        )  # fmt: skip
    auth = Auth(token=None, max_age=settings.webapp_max_age)
    link = f"http://{HOST}:{settings.web_port}/#local={auth.add_local(user)}&game={game}"
    timers = asyncio.create_task(service.clock.run_timers(lambda _out: None))
    try:
        say(r.t(lang, "web-local-ready", url=link))
        say(r.t(lang, "web-local-stop", keys="Ctrl+C"))
        await serve(make_app(service, r, auth), HOST, settings.web_port)
    finally:
        timers.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await timers
    return 0
