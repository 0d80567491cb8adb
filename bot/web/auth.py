"""Who opened the page: Telegram's signed `initData`, or a local session's secret.

Telegram gives a Mini App its launch data signed with the bot's token (HMAC-SHA256, checked
by aiogram's `safe_parse_webapp_init_data`); data signed for another bot fails the same check.
`auth_date` must be no older than `max_age` seconds, so a copied link stops working. A local
table (`make run ARGS="--web"`) has no Telegram: each seat gets a random secret, printed only in
its link, that stands in for `initData`.

A refusal names the locale key the page is told (`Refused.key`); nothing about a refused page
reaches the service.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiogram.utils.web_app import safe_parse_webapp_init_data

from bot.presentation.buttons import number
from bot.service import User

MAX_INIT_DATA = 4096  # characters; Telegram's are well under 1 KB
CLOCK_SKEW = 60.0  # seconds an auth_date may lie in the future (clocks differ)


class Refused(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class Who:
    user: User
    game: int | None  # the game the launch named (the Mini App link's start parameter)
    telegram: bool  # a Telegram user: may see only Telegram games


@dataclass
class Auth:
    token: str | None  # the bot's token (None: Telegram pages are refused)
    max_age: float
    local: dict[str, User] = field(default_factory=dict)  # secret -> seat of a local table
    clock: Callable[[], float] = time.time

    def add_local(self, user: User) -> str:
        """A new secret for `user` at a local table."""
        secret = secrets.token_urlsafe(24)
        self.local[secret] = user
        return secret

    def check(self, hello: Mapping[str, Any]) -> Who:
        """The user a page's first message proves to be; Refused otherwise."""
        game = _game(hello.get("game"))
        local = hello.get("local")
        if isinstance(local, str) and local:
            for secret, user in self.local.items():
                if secrets.compare_digest(secret.encode(), local.encode()):
                    return Who(user, game, telegram=False)
            raise Refused("web-refused-auth")
        init_data = hello.get("init_data")
        if not isinstance(init_data, str) or not init_data:
            raise Refused("web-refused-auth")
        if self.token is None or len(init_data) > MAX_INIT_DATA:
            raise Refused("web-refused-auth")
        try:
            data = safe_parse_webapp_init_data(self.token, init_data)
        except ValueError:  # forged, another bot's, or not init data at all
            raise Refused("web-refused-auth") from None
        age = self.clock() - data.auth_date.timestamp()
        if age > self.max_age or age < -CLOCK_SKEW:
            raise Refused("web-refused-expired")
        if data.user is None:
            raise Refused("web-refused-auth")
        user = User(str(data.user.id), _full_name(data.user), data.user.language_code)
        if data.start_param is not None:  # opened from the group's link: that game, or none
            game = _game(data.start_param)
        return Who(user, game, telegram=True)


def _game(value: object) -> int | None:
    return number(value) if isinstance(value, str) else None


def _full_name(user: Any) -> str:
    return " ".join(p for p in (user.first_name, user.last_name) if p)
