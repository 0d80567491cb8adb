"""aiogram's aiohttp session, leaner on the bot's hot path.

Every move costs a few Bot API calls (the hands' edits, the callback's answer), and most of their
CPU time is aiogram's generic machinery rather than the network. Two shortcuts, same requests:

- the form is url-encoded directly (aiogram builds an aiohttp `FormData`, which also prepares a
  multipart writer it never uses); a request with files (a picture's upload) is multipart, its
  fields prepared the same way (aiogram's own form dumps the whole method first, which a
  keyboard set as JSON after validation does not survive) and its body built whole, so that it
  goes out in one write rather than one per part (measured: most of a picture's cost);
- the results of edits, deletions and callback answers are never read by the bot, so a
  successful answer to those is not parsed into a `Message` (errors are parsed as usual, so
  429, 403 and "message is not modified" raise the same exceptions); a 5xx answered by the
  gateway in front of the Bot API, with a page of its own rather than the API's JSON, raises
  `TelegramServerError` as a 5xx of the API does (aiogram would fail to decode it).

A network error never carries the request's URL (it holds the token) into its message or its
chain: aiogram logs those messages when polling fails.

`close()` waits for TLS shutdown only when talking HTTPS (aiogram always sleeps 250 ms).
"""

from __future__ import annotations

import asyncio
import re
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import urlencode

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import ClientDecodeError, TelegramNetworkError, TelegramServerError
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    EditMessageReplyMarkup,
    EditMessageText,
    TelegramMethod,
)
from aiogram.methods.base import TelegramType
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputFile
from aiohttp import ClientError, ClientResponseError, ClientTimeout, FormData

UNREAD_RESULTS = (AnswerCallbackQuery, DeleteMessage, EditMessageReplyMarkup, EditMessageText)
FORM_TYPE = "application/x-www-form-urlencoded"
_OK = re.compile(r'\s*\{\s*"ok"\s*:\s*true\b')  # a successful answer, without parsing it all


class BotSession(AiohttpSession):
    def _fields(
        self, bot: Bot, method: TelegramMethod[Any], files: dict[str, InputFile]
    ) -> dict[str, Any]:
        fields = {}
        for key, value in method:
            if value is None:
                continue
            if isinstance(value, str):  # a bot.telegram.sender.Keyboard too: already JSON
                prepared: Any = value
            elif isinstance(value, InlineKeyboardMarkup):
                prepared = value.model_dump_json(exclude_none=True)
            else:
                prepared = self.prepare_value(value, bot=bot, files=files)
            if prepared:
                fields[key] = prepared
        return fields

    def _form(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        files: dict[str, InputFile] = {}
        fields = self._fields(bot, method, files)
        return None if files else urlencode(fields)

    async def _body(self, bot: Bot, method: TelegramMethod[Any]) -> tuple[bytes, str]:
        """The request's body and its content type: url-encoded, or multipart with files (a
        picture's upload), built whole so that it goes out in one write."""
        files: dict[str, InputFile] = {}
        fields = self._fields(bot, method, files)
        if not files:
            return urlencode(fields).encode(), FORM_TYPE
        form = FormData(quote_fields=False)
        for key, value in fields.items():
            form.add_field(key, value)
        for key, file in files.items():
            data = file.data if isinstance(file, BufferedInputFile) else await _read(file, bot)
            form.add_field(key, data, filename=file.filename or key)
        writer = form()
        return await writer.as_bytes(), writer.content_type

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        body, content_type = await self._body(bot, method)
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(
                url,
                data=body,
                headers={"Content-Type": content_type},
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
            ) as resp:
                raw = await resp.text()
        except TimeoutError:
            raise TelegramNetworkError(method=method, message="Request timeout error") from None
        except ClientError as exc:
            # Not chained, and without the URL: it holds the token (see `_describe`).
            raise TelegramNetworkError(method=method, message=_describe(exc, bot.token)) from None
        if resp.status == 200 and isinstance(method, UNREAD_RESULTS) and _OK.match(raw):
            return cast(TelegramType, True)
        try:
            response = self.check_response(
                bot=bot, method=method, status_code=resp.status, content=raw
            )
        except ClientDecodeError:
            if resp.status < HTTPStatus.INTERNAL_SERVER_ERROR:
                raise
            # The gateway in front of the Bot API (its own page, not the API's JSON): a
            # server error like any other, one that passes (`bot.telegram.retry`).
            message = f"HTTP {resp.status} {resp.reason or ''}".strip()
            raise TelegramServerError(method=method, message=message) from None
        return cast(TelegramType, response.result)

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
            if self.api.base.startswith("https"):
                await asyncio.sleep(0.25)  # TLS connections close in the background


def _describe(exc: ClientError, token: str) -> str:
    """A client error in words fit for a log: aiohttp puts the request's URL, which carries the
    bot's token, into some errors' text (a `ClientResponseError` for a malformed answer)."""
    if isinstance(exc, ClientResponseError):
        text = f"{type(exc).__name__}: {exc.status}, message={exc.message!r}"
    else:
        text = f"{type(exc).__name__}: {exc}"
    return text.replace(token, "<token>")


async def _read(file: InputFile, bot: Bot) -> bytes:
    return b"".join([chunk async for chunk in file.read(bot)])
