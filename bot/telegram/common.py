"""Small pieces every router uses: chat keys, users, admin checks."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import User as TgUser

from bot.service import Outcome, User, chat_keys
from bot.telegram.retry import retrying

log = logging.getLogger(__name__)

PREFIX = chat_keys.prefix(chat_keys.TELEGRAM)
ADMIN_STATUSES = frozenset({"creator", "administrator"})
ADMIN_TTL = 60.0
ADMIN_CACHE = 10_000


def chat_key(chat_id: int) -> str:
    return chat_keys.chat_key(chat_keys.TELEGRAM, chat_id)


def personal_key(user: int | str) -> str:
    """Where the service keeps a person's own switches (`TURN_PING`, `PICTURES`)."""
    return chat_keys.personal_key(chat_keys.TELEGRAM, str(user))


def chat_id_of(key: str) -> int | None:
    """The Telegram chat id of a service chat key, None for another platform's chat."""
    return chat_keys.chat_id(key, chat_keys.TELEGRAM)


def user_of(user: TgUser) -> User:
    return User.of(chat_keys.TELEGRAM, user.id, user.full_name, user.language_code)


class Admins:
    """Is a user an administrator of a group? getChatMember, remembered for a minute."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}

    async def check(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        key = (chat_id, user_id)
        known = self._known.get(key)
        if known is not None and known[1] > self.clock():
            return known[0]
        try:
            member = await retrying(lambda: bot.get_chat_member(chat_id, user_id))
        except TelegramAPIError as exc:
            log.warning("getChatMember failed in chat %s: %s", chat_id, exc)
            return False
        result = member.status in ADMIN_STATUSES
        if len(self._known) > ADMIN_CACHE:
            self._known.clear()
        self._known[key] = (result, self.clock() + ADMIN_TTL)
        return result


async def as_admin_if_needed(
    call: Callable[[bool], Awaitable[Outcome]],
    is_admin: Callable[[], Awaitable[bool]],
    refusals: tuple[str, ...] = ("error-not-allowed",),
) -> Outcome:
    """Try as an ordinary user; only a refusal costs a getChatMember call."""
    out = await call(False)
    if out.error is not None and out.error.key in refusals and await is_admin():
        out = await call(True)
    return out
