"""Wiring: the Bot, a Dispatcher with the routers, the language middleware and the error handler;
polling by default, an aiohttp webhook server when WEBHOOK_URL is set.

Services reach the handlers as Dispatcher data (`service`, `ui`, `admins`); the timer loop of the
service (computer players, turn timeouts) publishes through the same `TelegramUI` as the handlers,
and so does the outbox's delivery loop (what a stopped process committed but had not sent). The
groups' send budget is shared through the database by every process of the bot.
The token is a SecretStr: it is read once to build the Bot and never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Protocol

from aiogram import BaseMiddleware, Bot, Dispatcher
from aiogram import methods as tg
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramAPIError
from aiogram.methods.base import Response
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    Chat,
    ErrorEvent,
    TelegramObject,
)
from aiogram.types import User as TgUser
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.config import Settings
from bot.delivery.outbox_loop import Delivery
from bot.delivery.timer_loop import TimerLoop
from bot.presentation.i18n import COMMANDS, LANGS, get_i18n, normalize_lang
from bot.presentation.render import Renderer
from bot.service import Outcome, Service
from bot.telegram.cache import CachingRenderer
from bot.telegram.common import PREFIX, Admins, chat_key
from bot.telegram.operation import Land
from bot.telegram.rate_limit import RESERVE
from bot.telegram.retry import SETUP_BUDGET, retrying
from bot.telegram.routers import all_routers
from bot.telegram.routers.inline import InlinePlay
from bot.telegram.sender import RateLimit, Sender
from bot.telegram.session import BotSession
from bot.telegram.sticker_sync import FIRST_WAIT, StickerSync
from bot.telegram.strangers import Strangers
from bot.telegram.ui import TelegramUI
from bot.telegram.web_table import WebTable

log = logging.getLogger(__name__)

PRIVATE_COMMANDS = ("start", "notify", "pictures", "help", "rules")
GROUP_LIMIT = RateLimit()  # Telegram: about 20 messages a minute in one group
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


# aiogram parses every answer as `Response[<the method's result>]`, a pydantic generic model that
# pydantic caches only weakly: once collected it is rebuilt, which costs milliseconds per API call.
# Holding the ones the bot uses keeps them built.
_RESPONSES: list[Any] = []


def _keep_response_models() -> None:
    if not _RESPONSES:
        methods = (
            tg.AnswerCallbackQuery,
            tg.AnswerInlineQuery,
            tg.DeleteMessage,
            tg.DeleteWebhook,
            tg.EditMessageReplyMarkup,
            tg.EditMessageText,
            tg.GetChatMember,
            tg.GetMe,
            tg.GetUpdates,
            tg.SendMessage,
            tg.SetMyCommands,
            tg.SetWebhook,
        )
        _RESPONSES.extend(Response[m.__returning__] for m in methods)  # type: ignore[name-defined]


class LangMiddleware(BaseMiddleware):
    """`lang` for the handlers: the group's setting (from the creator's language at first), or
    the user's own language in the private chat."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: TgUser | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        hint = user.language_code if user is not None else None
        if chat is not None and chat.type in ("group", "supergroup"):
            service: Service = data["service"]
            data["lang"] = await service.settings.lang(chat_key(chat.id), hint)
        else:
            data["lang"] = normalize_lang(hint)
        return await handler(event, data)


def create_bot(settings: Settings) -> Bot:
    if settings.telegram_token is None:
        raise ValueError("TELEGRAM_TOKEN is not set")
    if settings.telegram_api_base:
        session = BotSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
    else:
        session = BotSession()
    return Bot(settings.telegram_token.get_secret_value(), session=session)


def build_dispatcher(renderer: Renderer) -> Dispatcher:
    dp = Dispatcher(disable_fsm=True)  # no conversation states: the game state is the service's
    strangers = Strangers(renderer)
    for observer in (dp.message, dp.callback_query, dp.inline_query, dp.chosen_inline_result):
        observer.outer_middleware(strangers)
    lang = LangMiddleware()
    dp.message.middleware(lang)
    dp.callback_query.middleware(lang)
    dp.include_routers(*all_routers())

    async def on_error(event: ErrorEvent) -> bool:
        update, exc = event.update, event.exception
        if isinstance(exc, TelegramAPIError) and isinstance(exc.method, tg.AnswerCallbackQuery):
            # Only the answer failed (past its retries, or refused: the same press delivered
            # again, its query answered already): whatever the press did is done, so "try
            # again" would be wrong (a move would be refused as stale, or read as a second).
            log.warning("update %s: the press was not answered: %s", update.update_id, exc)
            return True
        log.error(
            "update %s failed: %s: %s", update.update_id, type(exc).__name__, exc, exc_info=exc
        )
        query = update.callback_query
        if query is not None:
            text = renderer.t(normalize_lang(query.from_user.language_code), "tg-error")
            with contextlib.suppress(Exception):
                await retrying(lambda: query.answer(text, show_alert=True))
        return True

    dp.errors.register(on_error)
    return dp


async def set_commands(bot: Bot, renderer: Renderer) -> None:
    """The command menus for groups and private chats, in Russian, Ukrainian and by default."""
    i18n = renderer.i18n
    for code in (*LANGS, None):
        lang = code or "ru"
        group = [
            BotCommand(command=c, description=i18n.command_description(lang, c)) for c in COMMANDS
        ]
        private = [
            BotCommand(
                command=c,
                description=renderer.t(lang, f"tg-cmd-{c}-private")
                if c in ("start", "notify", "pictures")
                else i18n.command_description(lang, c),
            )
            for c in PRIVATE_COMMANDS
        ]
        for commands, scope in (
            (group, BotCommandScopeAllGroupChats()),
            (private, BotCommandScopeAllPrivateChats()),
            (group, BotCommandScopeDefault()),
        ):
            await retrying(
                partial(bot.set_my_commands, commands, scope=scope, language_code=code),
                budget=SETUP_BUDGET,
            )


def group_limit(settings: Settings) -> RateLimit:
    """The group budget of the settings (`GROUP_LIMIT` in `GROUP_PERIOD` seconds; a test
    scales it down to see the budget at work in seconds rather than minutes)."""
    count = settings.group_limit
    return RateLimit(count, settings.group_period, burst=min(GROUP_LIMIT.burst, count - 1))


def webhook_url(settings: Settings) -> str:
    assert settings.webhook_url is not None
    url = settings.webhook_url.rstrip("/")
    path = "/" + settings.webhook_path.strip("/")
    return url if url.endswith(path) else url + path


class WebRelay(Protocol):
    """Where the web table (`bot.web.app.Relay`) hands the moves made on it to this bot."""

    publish: Callable[[Outcome], Awaitable[None]] | None


class TelegramApp:
    """The bot, its dispatcher and the pieces they share; `run_polling` or `run_webhook`."""

    def __init__(
        self,
        bot: Bot,
        service: Service,
        renderer: Renderer | None = None,
        *,
        group_limit: RateLimit | None = GROUP_LIMIT,
        wait: float = 2.0,
        commands: bool = True,
        freeze: bool = True,
        sticker_owner: int | None = None,
        sticker_wait: float = FIRST_WAIT,
        web_table: WebTable | None = None,
    ) -> None:
        _keep_response_models()
        self.web_table = web_table  # the web table's buttons (`bot.telegram.web_table`)
        self.bot = bot
        self.service = service
        self.renderer = CachingRenderer((renderer or Renderer(get_i18n())).i18n)
        # The outbox of the Telegram chats: from now on their commits write entries.
        self.delivery = Delivery(service.outbox, PREFIX)
        # The groups' budget is shared through the database when other processes may send too.
        shared = group_limit is not None and not service.outbox.sole_process
        budget = self._group_budget if shared else None
        self.sender = Sender(bot, group_limit=group_limit, budget=budget)
        self.admins = Admins()
        self.dp = build_dispatcher(self.renderer)
        self.wait = wait
        self.commands = commands
        self.freeze = freeze
        self.ui: TelegramUI | None = None
        self.inline = InlinePlay()
        self.sticker_owner = sticker_owner
        self.sticker_sync = StickerSync(self.inline.stickers, first_wait=sticker_wait)
        self.web_runner: web.AppRunner | None = None
        self.timers = TimerLoop(service.clock, self._publish, prefix=PREFIX)

    async def setup(self) -> TelegramUI:
        if self.ui is not None:
            return self.ui
        me = await retrying(self.bot.me, budget=SETUP_BUDGET)
        self.ui = TelegramUI(
            self.service,
            self.renderer,
            self.sender,
            me.username or "",
            wait=self.wait,
            inline=bool(me.supports_inline_queries),
            web=self.web_table,
        )
        self.ui.delivery = self.delivery
        self.ui.converge = not self.service.outbox.sole_process  # other processes edit too
        self.dp.workflow_data.update(
            service=self.service, ui=self.ui, admins=self.admins, inline=self.inline
        )
        if me.supports_inline_queries:  # in the background: text results until it is done
            self.sticker_sync.start(
                self.bot,
                self.service.settings,
                self.renderer.i18n,
                owner=self.sticker_owner,
                username=me.username or "",
            )
        if self.commands:
            await set_commands(self.bot, self.renderer)
        # Everything built so far (aiogram's and pydantic's types, the locales) lives as long as
        # the process: keep it out of the garbage collector's full passes.
        if self.freeze:
            gc.collect()
            gc.freeze()
        # What a stopped process committed but had not sent yet: its outbox entries first (the
        # results it never posted), then every running game's table and turn hands. With other
        # processes running (PostgreSQL), their games are live and the outbox alone brings
        # what a dead one left: showing every game again would only repeat their messages.
        await self.delivery.start(self._redeliver)
        if self.service.outbox.sole_process:
            await self.ui.show_open_games(PREFIX)
        self.timers.start()
        return self.ui

    async def _redeliver(self, out: Outcome) -> None:
        """An outbox entry another process (or an earlier one) left unsent."""
        assert self.ui is not None
        await self.ui.redeliver(out)

    async def _group_budget(self, chat_id: int, low: bool) -> float | Land:
        """A slot of the group's budget, shared with the bot's other processes. Its call may be
        in flight for the session's timeout, after what went before the request (a picture, a
        look-up): twice that."""
        limit = self.sender.group_limit
        assert limit is not None
        budget = self.service.send_budget
        flight = 2 * self.bot.session.timeout
        got = await budget.take_send_slot(
            chat_key(chat_id), limit.count, limit.period, flight, RESERVE if low else 0
        )
        return got if isinstance(got, float) else partial(budget.land_send_slot, got)

    async def _publish(self, out: Outcome) -> None:
        """A timer's outcome (a computer player moved, a turn timed out, a lobby expired)."""
        assert self.ui is not None
        await self.ui.publish(out, wait=False)

    async def publish(self, out: Outcome) -> None:
        """An outcome of another adapter in this process (a move on the web table); before the
        bot is set up, the outcome's outbox entry is delivered later instead."""
        if self.ui is not None:
            await self.ui.publish(out, wait=False)

    async def run_polling(self, *, handle_signals: bool = False, polling_timeout: int = 30) -> None:
        await self.setup()
        await retrying(
            lambda: self.bot.delete_webhook(drop_pending_updates=False), budget=SETUP_BUDGET
        )
        await self.dp.start_polling(
            self.bot,
            handle_signals=handle_signals,
            close_bot_session=False,
            polling_timeout=polling_timeout,
        )

    async def start_webhook(self, settings: Settings) -> web.AppRunner:
        """Serve the webhook (aiohttp) and register it with Telegram; returns the runner."""
        await self.setup()
        secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
        app = web.Application()
        SimpleRequestHandler(
            self.dp, self.bot, secret_token=secret, handle_in_background=False
        ).register(app, path="/" + settings.webhook_path.strip("/"))
        setup_application(app, self.dp, bot=self.bot)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, settings.webhook_host, settings.webhook_port).start()
        self.web_runner = runner
        await retrying(
            lambda: self.bot.set_webhook(
                webhook_url(settings),
                secret_token=secret,
                allowed_updates=self.dp.resolve_used_update_types(),
            ),
            budget=SETUP_BUDGET,
        )
        return runner

    async def run_webhook(self, settings: Settings) -> None:
        await self.start_webhook(settings)
        await asyncio.Event().wait()  # until cancelled

    async def stop_polling(self) -> None:
        with contextlib.suppress(RuntimeError):  # not polling
            await self.dp.stop_polling()

    async def close(self) -> None:
        """Stop the timers, deliver what is queued, close the web server and the session."""
        await self.timers.stop()
        await self.delivery.stop()
        await self.sticker_sync.stop()
        await self.sender.close()
        with contextlib.suppress(TimeoutError):  # its outbox entries marked sent, or not
            await self.delivery.settled(5.0)
        if self.web_runner is not None:
            await self.web_runner.cleanup()
            self.web_runner = None
        await self.bot.session.close()


async def run_telegram(settings: Settings, service: Service, relay: WebRelay | None = None) -> None:
    """`python -m bot` with TELEGRAM_TOKEN set: polling, or the webhook with WEBHOOK_URL;
    `relay` (the web table's, `bot.web.app.Relay`) is given this bot's way of showing an
    outcome, for the moves made on the web table."""
    app = TelegramApp(
        create_bot(settings),
        service,
        group_limit=group_limit(settings),
        sticker_owner=settings.sticker_owner_id,
        web_table=WebTable.of(settings),
    )
    if relay is not None:
        relay.publish = app.publish
    try:
        if settings.webhook_url:
            log.info(
                "telegram: webhook mode on %s:%s", settings.webhook_host, settings.webhook_port
            )
            await app.run_webhook(settings)
        else:
            log.info("telegram: polling")
            await app.run_polling(handle_signals=True)
    finally:
        await app.close()
