"""An in-process fake of the Telegram Bot API for end-to-end tests of the aiogram bot.

Why a fake server rather than mocking ``Bot``: the real aiogram stack (session, form encoding,
response parsing, error classes, ``Dispatcher.start_polling``) is exercised exactly as in
production, so tests catch the bugs that only show up against Telegram, such as
"message is not modified", 403 for users who never opened the DM, or 429 flood control.

Typical use::

    async with FakeBotAPI() as api:
        bot = api.make_bot()  # or Bot(token, session=AiohttpSession(api=...from_base(base_url)))
        polling = asyncio.create_task(dp.start_polling(bot, handle_signals=False))
        alice = api.new_user("Alice")
        group = api.new_group("UNO night")
        api.send_message(alice, group, f"/new@{api.bot.username}")
        await api.idle()  # every update fetched and the bot went quiet
        assert "game" in api.last_message(group.id).plain_text
        await dp.stop_polling()
        await polling

Users the bot has never seen get "chat not found"; users it knows but who never opened the DM
get 403; any private message from a user (``/start`` included) counts as opening the DM.
Update types outside aiogram's ``allowed_updates`` are dropped, as Telegram does.

Who a message notifies is recorded in ``notifications``: every user a sent message mentions by
id (a ``text_mention`` entity, or ``<a href="tg://user?id=...">`` with HTML parse mode), as
Telegram notifies them; an edit notifies nobody, as on Telegram. Entities must lie inside the
text (offsets and lengths in UTF-16 code units), else 400 "can't parse entities".

Inline keyboards are refused as Telegram refuses them: callback data over 64 bytes
(``BUTTON_DATA_INVALID``), a ``web_app`` button anywhere but in a private chat
(``BUTTON_TYPE_INVALID``; a group opens a Mini App by a t.me link), a link that is not http(s)
or tg://, or a Mini App that is not HTTPS (``BUTTON_URL_INVALID``).

Photos (``sendPhoto``, ``editMessageMedia``, ``editMessageCaption``) are checked as Telegram
checks them: a caption of at most 1024 characters, an upload of at most 10 MB whose width and
height add up to at most 10000 with a side ratio of at most 20, a known ``file_id``; every upload
gets new file ids (one per size, as Telegram's ``PhotoSize`` list) and ``picture(msg)`` gives the
bytes a photo message shows. A photo has no text: ``editMessageText`` on it is refused;
``editMessageMedia`` turns a text message into a photo (Bot API 9).

Deliberate simplifications (documented so nobody relies on them by accident):
HTML/Markdown is stored as sent (``StoredMessage.text`` keeps tags; ``plain_text`` strips HTML);
"not modified" compares the raw text, entities and inline keyboard; privacy mode is off (every
injected group message is delivered); deleting or pinning never checks admin rights.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import io
import itertools
import json
import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Update
from aiohttp import ClientError, ClientSession, ClientTimeout, web
from PIL import Image

__all__ = [
    "ApiCall",
    "CallbackAnswer",
    "FakeBotAPI",
    "FakeChat",
    "FakeUser",
    "LocalAiohttpSession",
    "Notification",
    "StoredMessage",
]

Json = dict[str, Any]

# Form fields that must stay strings even when they look like JSON ("123", "true", "[x]").
_STRING_FIELDS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "inline_message_id",
        "language_code",
        "url",
        "description",
        "short_description",
        "name",
        "title",
        "emoji",
        "custom_title",
        "query",
        "business_connection_id",
        "message_effect_id",
    }
)
_COMMAND_RE = re.compile(r"[a-z0-9_]{1,32}")
_HTML_MENTION_RE = re.compile(r"""<a\s+href=["']tg://user\?id=(\d+)["']""", re.IGNORECASE)
_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a content and reply markup of the current content of the message"
)
DELETE_WINDOW = 48 * 3600  # seconds a bot may delete a message after it was sent
CAPTION_LIMIT = 1024  # a caption's characters (UTF-16 code units)
PHOTO_BYTES = 10 * 1024 * 1024  # an uploaded photo at most
PHOTO_SIDES = 10_000  # a photo's width and height together at most
PHOTO_RATIO = 20  # a photo's long side at most this many times its short side
_BAD_QUERY = "Bad Request: query is too old and response timeout expired or query ID is invalid"
_ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
    "can_send_welcome_messages",
)
_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request: injected failure",
    403: "Forbidden: bot was blocked by the user",
    409: "Conflict: terminated by other getUpdates request",
    500: "Internal Server Error",
}


@dataclass(frozen=True)
class FakeUser:
    """A Telegram user (or the bot itself, with ``is_bot=True``)."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "ru"
    is_bot: bool = False

    def to_api(self) -> Json:
        data: Json = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass(frozen=True)
class FakeChat:
    """A chat; a private chat's id equals its user's id, group ids are negative."""

    id: int
    type: str = "group"
    title: str | None = None
    username: str | None = None
    first_name: str | None = None

    @classmethod
    def private(cls, user: FakeUser) -> FakeChat:
        return cls(user.id, "private", username=user.username, first_name=user.first_name)

    def to_api(self) -> Json:
        data: Json = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data


def _button_url(url: str, *, web_app: bool) -> bool:
    """Whether Telegram takes `url` for a button: http(s) or tg:// for a link, HTTPS for a
    Mini App (`web_app`)."""
    parts = urlsplit(url)
    if web_app:
        return parts.scheme == "https" and bool(parts.netloc)
    return (parts.scheme in ("http", "https") and bool(parts.netloc)) or parts.scheme == "tg"


def _chat_of(msg: StoredMessage) -> FakeChat | None:
    """The chat whose rules a message's keyboard follows (None: one sent through inline mode)."""
    return None if msg.via_bot else msg.chat


@dataclass
class StoredMessage:
    """Current server-side state of one message (edits update it in place)."""

    message_id: int
    chat: FakeChat
    sender: FakeUser
    date: int
    text: str | None = None
    entities: list[Json] | None = None
    parse_mode: str | None = None
    reply_markup: Json | None = None  # only inline keyboards stick to a message
    reply_to: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    sticker: str | None = None  # the file id of a sticker message
    via_bot: bool = False  # sent by a user through the bot's inline mode (the bot may edit it)
    inline_message_id: str | None = None  # such a message with a keyboard: how the bot edits it
    caption: str | None = None  # a photo's caption (a photo message has no text)
    photo: list[Json] | None = None  # a photo's sizes (PhotoSize), the original last

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def buttons(self) -> list[Json]:
        """All inline buttons, row by row, as dicts (``text``, ``callback_data``, ...)."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    @property
    def plain_text(self) -> str:
        """The text as a user would see it (HTML tags stripped); a photo's caption."""
        return _visible_text(self.text or self.caption or "", self.parse_mode)

    def to_api(self) -> Json:
        data: Json = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_api(),
            "from": self.sender.to_api(),
        }
        if self.text is not None:
            data["text"] = self.text
        if self.sticker is not None:
            data["sticker"] = {"file_id": self.sticker}
        if self.entities:
            data["entities"] = self.entities
        if self.photo is not None:
            data["photo"] = self.photo
        if self.caption is not None:
            data["caption"] = self.caption
        if self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.edit_date:
            data["edit_date"] = self.edit_date
        return data


@dataclass
class ApiCall:
    """One request the bot made, with decoded params and the JSON body we answered."""

    method: str
    params: Json
    response: Json
    status: int
    time: float  # when it was answered
    arrived: float = 0.0  # when the request came in (what a rate limit counts)
    via: str = ""  # the caller, when its base URL names it (`/w1/bot.../method`)

    @property
    def ok(self) -> bool:
        return bool(self.response.get("ok"))

    @property
    def result(self) -> Any:
        return self.response.get("result")

    @property
    def description(self) -> str | None:
        return self.response.get("description")

    @property
    def chat_id(self) -> int | str | None:
        value = self.params.get("chat_id")
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
            return int(value)
        return value

    def is_(self, method: str) -> bool:
        """Telegram method names are case-insensitive."""
        return self.method.lower() == method.lower()


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot passed to answerCallbackQuery (``ok`` is False for a rejected repeat)."""

    text: str | None
    show_alert: bool
    url: str | None
    ok: bool


@dataclass(frozen=True)
class Notification:
    """A user notified because a message the bot sent mentions them."""

    chat_id: int
    message_id: int
    user_id: int


@dataclass
class _Failure:
    method: str
    status: int
    description: str
    parameters: Json | None
    count: int
    chat_id: int | str | None
    kind: str = "api"  # "api": the Bot API's JSON; "gateway": a page; "drop": no answer


@dataclass
class _Hold:
    method: str
    chats: frozenset[str] | None  # None: every call of the method
    arrived: asyncio.Event
    resumed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class _PendingUpdate:
    update_id: int
    type: str
    payload: Json


@dataclass(frozen=True)
class Delivery:
    """One POST of an update to a webhook: to which worker, and its answer (None: no answer,
    the worker was down or died while handling it)."""

    update_id: int
    type: str
    url: str
    status: int | None
    started: float
    ended: float


class LocalAiohttpSession(AiohttpSession):
    """aiogram's ``AiohttpSession.close()`` sleeps 250 ms for TLS shutdown; plain HTTP to
    127.0.0.1 needs none, and a quarter second per test adds up."""

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


class ApiError(Exception):
    """Raised by a method implementation to answer with a Telegram error."""

    def __init__(self, status: int, description: str, parameters: Json | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def body(self) -> Json:
        body: Json = {"ok": False, "error_code": self.status, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def _visible_text(text: str, parse_mode: str | None) -> str:
    if (parse_mode or "").upper() == "HTML":
        return html.unescape(re.sub(r"<[^>]*>", "", text))
    return text


def _utf16_len(text: str) -> int:
    """Telegram measures lengths and entity offsets in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _decode_field(key: str, value: str) -> Any:
    if key in _STRING_FIELDS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _as_int(value: Any, name: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        return int(value)
    if value is None:
        raise ApiError(400, f"Bad Request: {name} is empty")
    raise ApiError(400, f"Bad Request: invalid {name} specified")


def _chat_id_of(chat: FakeChat | int) -> int:
    return chat.id if isinstance(chat, FakeChat) else chat


class FakeBotAPI:
    """Fake Bot API server on 127.0.0.1 with realistic state, errors and long polling."""

    def __init__(self, bot: FakeUser | None = None) -> None:
        self.bot = bot or FakeUser(7000001, "UNO Test Bot", "uno_test_bot", None, is_bot=True)
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.commands: dict[tuple[str, str], list[Json]] = {}
        self.pinned: dict[int, int] = {}
        self.dropped_updates: list[Json] = []
        self._started_users: set[int] = set()
        self._blocked_users: set[int] = set()
        self._admins: dict[int, list[FakeUser]] = {}
        self._owners: dict[int, FakeUser] = {}
        self._messages: dict[int, dict[int, StoredMessage]] = {}
        self._next_message_id: dict[int, int] = {}
        self._calls: list[ApiCall] = []
        self._failures: list[_Failure] = []
        self._holds: list[_Hold] = []
        self.held: list[tuple[str, int]] = []  # (method, chat id or 0) of every call held
        self._updates: list[_PendingUpdate] = []
        self._allowed_updates: set[str] | None = None
        self._callback_answers: dict[str, list[CallbackAnswer]] = {}
        self._queries: dict[str, Json] = {}  # query id -> its update, to deliver again
        # Inline mode and sticker sets (see the block of their methods below).
        self.inline_mode = False  # what getMe says: /setinline at @BotFather turns it on
        self.sticker_sets: dict[str, FakeStickerSet] = {}
        self._sticker_files: dict[str, FakeSticker] = {}
        self._inline_queries: dict[str, tuple[FakeUser, str]] = {}
        self._inline_answers: dict[str, list[InlineAnswer]] = {}
        self._inline_messages: dict[str, StoredMessage] = {}
        self.photos: dict[str, bytes] = {}  # every photo's file id (each size's) -> its bytes
        self._photo_files: dict[str, list[Json]] = {}  # any size's file id -> the photo's sizes
        self.notifications: list[Notification] = []
        self._ids = itertools.count(1)
        self._update_ids = itertools.count(10_000)
        self._poll_generation = 0
        self._inflight = 0
        self._waiting_polls = 0
        self._last_activity = time.monotonic()
        self._changed = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        # Webhook mode (setWebhook): updates are POSTed instead of waiting for getUpdates, to
        # the registered URL or, behind a load balancer (`balance`), to a random worker.
        self.webhook: Json | None = None
        self.workers: list[str] = []
        self.deliveries: list[Delivery] = []  # every POST of an update, answered or not
        self.last_update_id = 0  # the id of the update injected last
        self.rng = random.Random(15)
        self._delivering: set[asyncio.Task[None]] = set()
        self._client: ClientSession | None = None
        # Telegram method names are case-insensitive; implementations are the _m_* methods.
        self._methods: dict[str, Callable[[Json], Any]] = {
            name[3:].lower(): getattr(self, name) for name in dir(self) if name.startswith("_m_")
        }

    # ------------------------------------------------------------------ lifecycle

    @property
    def token(self) -> str:
        """A token aiogram accepts; any token works, its numeric part is the bot id."""
        return f"{self.bot.id}:TEST-token"

    def session(self) -> AiohttpSession:
        """An aiogram session pointed at this server (call after :meth:`start`)."""
        return LocalAiohttpSession(api=TelegramAPIServer.from_base(self.base_url))

    def make_bot(self, **kwargs: Any) -> Bot:
        """A real ``aiogram.Bot`` talking to this server; kwargs go to ``Bot`` (e.g. default)."""
        return Bot(self.token, session=self.session(), **kwargs)

    async def start(self) -> None:
        app = web.Application(client_max_size=50 * 2**20)  # Telegram takes 50 MB uploads
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        # A base URL with a path of its own names the caller (one of several bot processes).
        app.router.add_route("*", "/{via}/bot{token}/{method}", self._handle)
        # handler_cancellation: a long poll whose client went away (stop_polling) is cancelled
        # instead of lingering until its timeout and answering into the void.
        self._runner = web.AppRunner(
            app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"

    async def stop(self) -> None:
        """Wake every pending long poll (answering ``[]``) so shutdown is instant."""
        self._closing = True
        self._notify()
        for task in list(self._delivering):
            task.cancel()
        await asyncio.gather(*self._delivering, return_exceptions=True)
        if self._client is not None:
            await self._client.close()
            self._client = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeBotAPI:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ world setup

    def new_user(
        self, first_name: str, *, username: str | None = None, language_code: str | None = "ru"
    ) -> FakeUser:
        """Create and register a user with a fresh id."""
        user = FakeUser(100_000 + next(self._ids), first_name, username, language_code)
        self.users[user.id] = user
        return user

    def new_group(self, title: str = "UNO group", *, supergroup: bool = True) -> FakeChat:
        """Create and register a (super)group chat with a fresh negative id."""
        n = next(self._ids)
        chat_id = -1_001_000_000_000 - n if supergroup else -1000 - n
        chat = FakeChat(chat_id, "supergroup" if supergroup else "group", title)
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: FakeUser) -> FakeChat:
        self.users.setdefault(user.id, user)
        return self.chats.setdefault(user.id, FakeChat.private(user))

    def user_starts_bot(self, user: FakeUser) -> None:
        """Mark that ``user`` opened the DM, so the bot may write to them (no update sent)."""
        self.private_chat(user)
        self._started_users.add(user.id)
        self._blocked_users.discard(user.id)

    def user_blocks_bot(self, user: FakeUser) -> None:
        self.private_chat(user)
        self._blocked_users.add(user.id)

    def set_admins(
        self, chat: FakeChat | int, admins: Iterable[FakeUser], owner: FakeUser | None = None
    ) -> None:
        """Configure getChatMember/getChatAdministrators; include ``api.bot`` to make it admin."""
        chat_id = _chat_id_of(chat)
        self._admins[chat_id] = list(admins)
        for user in self._admins[chat_id]:
            self.users.setdefault(user.id, user)
        if owner is not None:
            self.users.setdefault(owner.id, owner)
            self._owners[chat_id] = owner

    def fail_next(
        self,
        method: str,
        status: int = 429,
        retry_after: int | None = None,
        count: int = 1,
        chat_id: int | str | None = None,
        description: str | None = None,
        migrate_to_chat_id: int | None = None,
        gateway: bool = False,
    ) -> None:
        """Make the next ``count`` calls of ``method`` (optionally only to ``chat_id``) fail.

        429 defaults to ``retry_after=1``; the description mimics Telegram unless given.
        ``gateway``: the answer is the HTML page of the proxy in front of the Bot API (as a
        502 or 504 from it is), not the API's JSON.
        """
        parameters: Json = {}
        if status == 429:
            retry_after = 1 if retry_after is None else retry_after
            description = description or f"Too Many Requests: retry after {retry_after}"
        if retry_after is not None:
            parameters["retry_after"] = retry_after
        if migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = migrate_to_chat_id
        description = description or _DEFAULT_DESCRIPTIONS.get(status, f"Error {status}")
        kind = "gateway" if gateway else "api"
        self._failures.append(
            _Failure(method.lower(), status, description, parameters or None, count, chat_id, kind)
        )

    def drop_next(self, method: str, count: int = 1, chat_id: int | str | None = None) -> None:
        """The next ``count`` calls of ``method`` (optionally only to ``chat_id``) lose their
        connection: it is closed unanswered, and nothing of the call is done."""
        self._failures.append(_Failure(method.lower(), 0, "", None, count, chat_id, "drop"))

    def hold(self, methods: Iterable[str], chats: Iterable[int] | None = None) -> asyncio.Event:
        """Calls of these methods to these chats (None: any call of them, as the sticker
        methods, which name no chat) are not answered (and change nothing): the bot waits on
        them as on a network that stopped, until it is killed or `resume_holds`. The event is
        set when the first such call arrives; `held` lists them."""
        arrived = asyncio.Event()
        names = None if chats is None else frozenset(str(c) for c in chats)
        for method in methods:
            assert method.lower() != "getupdates", "a long poll is not held"
            self._holds.append(_Hold(method.lower(), names, arrived))
        return arrived

    def release_holds(self) -> None:
        """Calls made from now on are answered again (held ones stay unanswered)."""
        self._holds.clear()

    def resume_holds(self) -> None:
        """The network is back: held calls go on (and are answered), later ones are not held."""
        for hold in self._holds:
            hold.resumed.set()
        self._holds.clear()

    # ------------------------------------------------------------------ update injection

    def inject(self, payload: Json) -> int:
        """Queue a raw update (without ``update_id``); validated now so tests fail loudly.

        A malformed update would otherwise make aiogram's polling loop retry forever.
        """
        update_id = self.last_update_id = next(self._update_ids)
        full = {"update_id": update_id, **payload}
        update = Update.model_validate(full)
        try:
            update_type = update.event_type
        except LookupError as exc:
            raise ValueError(f"update has no known event type: {payload!r}") from exc
        self._updates.append(_PendingUpdate(update_id, update_type, full))
        if self.webhook is not None:
            self._start_deliveries()
        self._notify()
        return update_id

    # ------------------------------------------------------------------ webhook mode

    def balance(self, workers: Iterable[str]) -> None:
        """Stand for a load balancer in front of these webhook URLs: each update goes to one
        of them at random (whatever URL the bot registered), and one that does not answer 200
        is retried on another, as Telegram retries a webhook that failed."""
        self.workers = list(workers)

    @property
    def delivering(self) -> int:
        """Updates being POSTed (or waiting to be retried) right now."""
        return len(self._delivering)

    def _start_deliveries(self) -> None:
        self._drop_unwanted_updates()
        for update in self._updates:
            task = asyncio.get_running_loop().create_task(self._deliver(update))
            self._delivering.add(task)
            task.add_done_callback(self._delivered)
        self._updates = []

    def _delivered(self, task: asyncio.Task[None]) -> None:
        self._delivering.discard(task)
        self._notify()

    async def _deliver(self, update: _PendingUpdate) -> None:
        """POST the update until a worker answers 200 (Telegram keeps retrying a webhook that
        fails; here every 50 ms, doubling up to a second)."""
        assert self.webhook is not None
        if self._client is None:
            self._client = ClientSession(timeout=ClientTimeout(total=30))
        headers = {"Content-Type": "application/json"}
        if self.webhook.get("secret_token"):
            headers["X-Telegram-Bot-Api-Secret-Token"] = str(self.webhook["secret_token"])
        body = json.dumps(update.payload)
        failures = 0
        while not self._closing:
            url = self.rng.choice(self.workers) if self.workers else str(self.webhook["url"])
            status: int | None = None
            started = time.monotonic()
            try:
                async with self._client.post(url, data=body, headers=headers) as resp:
                    status = resp.status
                    await resp.read()
            except (ClientError, OSError, TimeoutError):
                status = None
            self.deliveries.append(
                Delivery(update.update_id, update.type, url, status, started, time.monotonic())
            )
            self._notify()
            if status == 200:
                return
            failures += 1
            await asyncio.sleep(min(1.0, 0.05 * 2 ** (failures - 1)))

    def send_message(
        self,
        user: FakeUser,
        chat: FakeChat | int,
        text: str,
        *,
        reply_to: int | None = None,
    ) -> StoredMessage:
        """``user`` writes ``text`` in ``chat``; a leading ``/cmd[@bot]`` gets its entity.

        Writing in the private chat implies the user pressed Start, so it is marked started.
        """
        self.users.setdefault(user.id, user)
        target = self._chat_for_injection(user, chat)
        msg = StoredMessage(self._peek_message_id(target.id), target, user, int(time.time()))
        msg.text = text
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            msg.entities = [{"type": "bot_command", "offset": 0, "length": _utf16_len(command)}]
        payload = msg.to_api()
        if reply_to is not None:
            msg.reply_to = reply_to
            payload["reply_to_message"] = self.message(target.id, reply_to).to_api()
        self.inject({"message": payload})
        self._store(msg)
        if target.type == "private":
            self._started_users.add(user.id)
        return msg

    def press(
        self,
        user: FakeUser,
        chat: FakeChat | int,
        message_id: int,
        callback_data: str,
        *,
        strict: bool = True,
    ) -> str:
        """``user`` presses an inline button; returns the callback query id.

        With ``strict`` the button must exist on the message's current keyboard (pass
        ``strict=False`` to simulate pressing a stale keyboard).
        """
        self.users.setdefault(user.id, user)
        msg = self.message(_chat_id_of(chat), message_id)
        if strict and callback_data not in [b.get("callback_data") for b in msg.buttons]:
            raise ValueError(
                f"no button {callback_data!r} on message {message_id}: {msg.buttons!r}"
            )
        query_id = str(5_000_000_000 + next(self._ids))
        self._queries[query_id] = {
            "callback_query": {
                "id": query_id,
                "from": user.to_api(),
                "message": msg.to_api(),
                "chat_instance": str(abs(msg.chat.id) * 7919),
                "data": callback_data,
            }
        }
        self.inject(self._queries[query_id])
        self._callback_answers[query_id] = []
        return query_id

    def press_again(self, query_id: str) -> None:
        """The press's update delivered once more, as Telegram does when it did not learn in
        time that the first delivery arrived (a webhook answered late): the same query, which
        can be answered only once."""
        self.inject(self._queries[query_id])

    def press_button(
        self, user: FakeUser, chat: FakeChat | int, match: str | Callable[[Json], bool]
    ) -> str:
        """Find the newest message with a matching button and press it; returns query id."""
        msg, button = self._find_button(_chat_id_of(chat), match, None)
        return self.press(user, msg.chat, msg.message_id, button["callback_data"])

    # ------------------------------------------------------------------ inspection

    @property
    def call_count(self) -> int:
        """Use as ``since=`` for :meth:`wait_for` to ignore earlier calls."""
        return len(self._calls)

    @property
    def pending_updates(self) -> int:
        """Injected updates not yet confirmed by a later getUpdates offset."""
        return len(self._updates)

    def last_update(self) -> Json:
        """The newest injected update not yet fetched (for a test that hands it to a handler
        itself, as one of several processes would get it)."""
        return self._updates[-1].payload

    @property
    def waiting_polls(self) -> int:
        """getUpdates requests currently parked in a long poll (the bot is listening)."""
        return self._waiting_polls

    def calls(self, method: str | None = None, chat_id: int | None = None) -> list[ApiCall]:
        return [
            c
            for c in self._calls
            if (method is None or c.is_(method)) and (chat_id is None or c.chat_id == chat_id)
        ]

    def messages(self, chat_id: int, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Messages of a chat in id order (both the bot's and injected ones)."""
        stored = self._messages.get(chat_id, {})
        return [m for _, m in sorted(stored.items()) if include_deleted or not m.deleted]

    def message(self, chat_id: int, message_id: int) -> StoredMessage:
        try:
            return self._messages[chat_id][message_id]
        except KeyError:
            raise LookupError(f"no message {message_id} in chat {chat_id}") from None

    def last_message(self, chat_id: int, *, from_bot: bool = True) -> StoredMessage:
        """Newest non-deleted message (by default: sent by the bot); LookupError if none."""
        for msg in reversed(self.messages(chat_id)):
            if msg.from_bot or not from_bot:
                return msg
        raise LookupError(f"no message in chat {chat_id}: {self.messages(chat_id)!r}")

    def sent_texts(self, chat_id: int | None = None) -> list[str]:
        """Every text (or a photo's caption) the bot successfully sent or edited to, in call
        order."""
        texts = []
        for c in self.calls(chat_id=chat_id):
            if not c.ok:
                continue
            if c.is_("sendMessage") or c.is_("editMessageText"):
                texts.append(str(c.params.get("text")))
            elif c.is_("sendPhoto"):
                texts.append(str(c.params.get("caption") or ""))
            elif c.is_("editMessageMedia"):
                texts.append(str((c.params.get("media") or {}).get("caption") or ""))
        return texts

    def find_button(
        self,
        chat_id: int,
        match: str | Callable[[Json], bool],
        *,
        message_id: int | None = None,
    ) -> str:
        """callback_data of the newest button whose text equals ``match`` (or satisfies it)."""
        _, button = self._find_button(chat_id, match, message_id)
        return str(button["callback_data"])

    def callback_answers(self, query_id: str) -> list[CallbackAnswer]:
        """Every answerCallbackQuery attempt for the query (a repeat is recorded not ok)."""
        return list(self._callback_answers.get(query_id, []))

    def callback_answer(self, query_id: str) -> CallbackAnswer | None:
        """The accepted answer, or None if the bot has not answered (yet)."""
        return next((a for a in self._callback_answers.get(query_id, []) if a.ok), None)

    def my_commands(
        self, scope: str | Json | None = None, language_code: str = ""
    ) -> list[Json] | None:
        """Commands set for a scope (``"all_group_chats"`` or a scope dict) and language."""
        if isinstance(scope, str):
            scope = {"type": scope}
        return self.commands.get((self._scope_key(scope), language_code))

    # ------------------------------------------------------------------ synchronisation

    async def wait_for(
        self,
        predicate: str | Callable[[ApiCall], bool],
        timeout: float = 5.0,
        *,
        since: int = 0,
    ) -> ApiCall:
        """First recorded call (index >= ``since``) matching predicate or method name."""
        check = (lambda c: c.is_(predicate)) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        seen = since
        while True:
            changed = self._changed
            for call in self._calls[seen:]:
                if check(call):
                    return call
            seen = max(seen, len(self._calls))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no matching API call within {timeout}s; {self._summary()}")
            await self._wait(changed, remaining)

    async def wait_until(self, check: Callable[[], bool], timeout: float = 5.0) -> None:
        """Until ``check()`` holds, looking again after every call the bot makes."""
        deadline = time.monotonic() + timeout
        while True:
            changed = self._changed
            if check():
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"not so within {timeout}s; {self._summary()}")
            await self._wait(changed, remaining)

    async def idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until every injected update was fetched and no call came for ``quiet`` s.

        "Fetched" means confirmed by the next getUpdates offset, i.e. aiogram has taken it.
        Handlers that pause longer than ``quiet`` without calling the API fool this.
        """
        deadline = time.monotonic() + timeout
        while True:
            changed = self._changed
            now = time.monotonic()
            remaining = quiet
            if not self._updates and not self._inflight and not self._delivering:
                remaining = self._last_activity + quiet - now
                if remaining <= 0:
                    return
            if now >= deadline:
                raise TimeoutError(
                    f"not idle after {timeout}s: {len(self._updates)} update(s) not fetched "
                    f"(is the bot polling?), {self._inflight} call(s) in flight; {self._summary()}"
                )
            await self._wait(changed, min(remaining, deadline - now))

    # ------------------------------------------------------------------ internals

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    @staticmethod
    async def _wait(event: asyncio.Event, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max(timeout, 0.001))

    def _summary(self) -> str:
        tail = ", ".join(f"{c.method}({c.chat_id})->{c.status}" for c in self._calls[-10:])
        return f"last calls: [{tail}]"

    def _chat_for_injection(self, user: FakeUser, chat: FakeChat | int) -> FakeChat:
        if isinstance(chat, FakeChat):
            return self.chats.setdefault(chat.id, chat)
        if chat == user.id:
            return self.private_chat(user)
        if chat not in self.chats:
            raise LookupError(f"unknown chat {chat}; create it with new_group()")
        return self.chats[chat]

    def _peek_message_id(self, chat_id: int) -> int:
        return self._next_message_id.get(chat_id, 1)

    def _store(self, msg: StoredMessage) -> None:
        self._messages.setdefault(msg.chat.id, {})[msg.message_id] = msg
        self._next_message_id[msg.chat.id] = msg.message_id + 1

    def _find_button(
        self, chat_id: int, match: str | Callable[[Json], bool], message_id: int | None
    ) -> tuple[StoredMessage, Json]:
        check = (lambda b: b.get("text") == match) if isinstance(match, str) else match
        for msg in reversed(self.messages(chat_id)):
            if message_id is not None and msg.message_id != message_id:
                continue
            for button in msg.buttons:
                if "callback_data" in button and check(button):
                    return msg, button
        raise LookupError(f"no button matching {match!r} in chat {chat_id}")

    @staticmethod
    def _scope_key(scope: Json | None) -> str:
        return json.dumps(scope or {"type": "default"}, sort_keys=True)

    async def _read_params(self, request: web.Request) -> Json:
        params: Json = {k: _decode_field(k, v) for k, v in request.query.items()}
        if request.content_type == "application/json":
            body = await request.json()
            params.update(body if isinstance(body, dict) else {})
        elif request.can_read_body:
            for key, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    params[key] = Upload(f"<file {value.filename}>", value.file.read())
                else:
                    params[key] = _decode_field(key, str(value))
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        arrived = time.monotonic()
        method = request.match_info["method"]
        key = method.lower()
        counted = key != "getupdates"  # a waiting long poll is not "busy"
        self._inflight += counted
        self._last_activity = time.monotonic()
        self._notify()
        params: Json = {}
        broken = None
        try:
            params = await self._read_params(request)
            broken = self._broken(key, params)
            if broken is None:
                status, body = await self._dispatch(key, params)
            else:
                status, body = broken.status, {}
        except ValueError:
            status, body = 400, ApiError(400, "Bad Request: can't parse request").body()
        finally:
            self._inflight -= counted
            self._last_activity = time.monotonic()
        via = request.match_info.get("via", "")
        self._calls.append(ApiCall(method, params, body, status, time.monotonic(), arrived, via))
        self._notify()
        if broken is not None and broken.kind == "drop":
            assert request.transport is not None
            request.transport.close()
            return web.Response()  # never reaches the client
        if broken is not None:
            page = f"<html><body><h1>{status} {broken.description}</h1></body></html>"
            return web.Response(text=page, status=status, content_type="text/html")
        return web.json_response(body, status=status)

    async def _dispatch(self, key: str, params: Json) -> tuple[int, Json]:
        try:
            self._raise_injected_failure(key, params)
            await self._held(key, params)
            implementation = self._methods.get(key)
            if implementation is None:
                raise ApiError(404, "Not Found: method not found")
            result = implementation(params)
            if asyncio.iscoroutine(result):
                result = await result
        except ApiError as exc:
            return exc.status, exc.body()
        return 200, {"ok": True, "result": result}

    def _raise_injected_failure(self, key: str, params: Json) -> None:
        failure = self._take_failure(key, params, "api")
        if failure is not None:
            raise ApiError(failure.status, failure.description, failure.parameters)

    def _broken(self, key: str, params: Json) -> _Failure | None:
        """A failure of the transport injected for this call: a gateway's page, a drop."""
        return self._take_failure(key, params, "gateway", "drop")

    def _take_failure(self, key: str, params: Json, *kinds: str) -> _Failure | None:
        for failure in self._failures:
            if failure.method != key or failure.kind not in kinds:
                continue
            if failure.chat_id is not None and str(failure.chat_id) != str(params.get("chat_id")):
                continue
            failure.count -= 1
            if failure.count <= 0:
                self._failures.remove(failure)
            return failure
        return None

    async def _held(self, key: str, params: Json) -> None:
        for hold in self._holds:
            chat = params.get("chat_id")
            if hold.method == key and (hold.chats is None or str(chat) in hold.chats):
                self.held.append((key, 0 if chat is None else _as_int(chat, "chat_id")))
                hold.arrived.set()
                # A held call is not activity to wait for (`idle`): the network stopped.
                self._inflight -= 1
                try:
                    await hold.resumed.wait()  # or until the client goes away
                finally:
                    self._inflight += 1
                return

    def _chat(self, params: Json) -> FakeChat:
        value = params.get("chat_id")
        if isinstance(value, str) and value.startswith("@"):
            for chat in self.chats.values():
                if chat.username and "@" + chat.username == value:
                    return chat
            raise ApiError(400, "Bad Request: chat not found")
        chat_id = _as_int(value, "chat_id")
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id in self.users:
            return self.private_chat(self.users[chat_id])
        raise ApiError(400, "Bad Request: chat not found")

    def _writable_chat(self, params: Json) -> FakeChat:
        chat = self._chat(params)
        if chat.type == "private":
            if chat.id in self._blocked_users:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if chat.id not in self._started_users:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _bot_message(self, params: Json, action: str) -> StoredMessage:
        if "inline_message_id" in params and "message_id" not in params:
            return self._inline_message(params)
        chat = self._chat(params)
        msg = self._messages.get(chat.id, {}).get(_as_int(params.get("message_id"), "message_id"))
        if msg is None or msg.deleted:
            raise ApiError(400, f"Bad Request: message to {action} not found")
        return msg

    @staticmethod
    def _inline_markup(params: Json, chat: FakeChat | None = None) -> Json | None:
        """The inline keyboard of a message to `chat` (None: an inline result, or a message
        sent through inline mode), refused as Telegram refuses it."""
        markup = params.get("reply_markup")
        if not isinstance(markup, dict) or "inline_keyboard" not in markup:
            return None
        for row in markup["inline_keyboard"]:
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                # A Mini App button only in a private chat (a group gets a t.me link instead).
                if "web_app" in button and (chat is None or chat.type != "private"):
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                url = button.get("url", button.get("web_app", {}).get("url"))
                if url is not None and not _button_url(str(url), web_app="web_app" in button):
                    raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
                if len(button) == 1:
                    raise ApiError(
                        400, "Bad Request: text buttons are unallowed in the inline keyboard"
                    )
        return markup if any(markup["inline_keyboard"]) else None

    @staticmethod
    def _checked_text(params: Json) -> str:
        text = params.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if _utf16_len(_visible_text(text, params.get("parse_mode"))) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        entities = params.get("entities") or []
        if not isinstance(entities, list):
            raise ApiError(400, "Bad Request: can't parse entities JSON object")
        size = _utf16_len(text)
        for entity in entities:
            offset, length = entity.get("offset"), entity.get("length")
            if not (isinstance(offset, int) and isinstance(length, int)):
                raise ApiError(400, "Bad Request: can't parse entities: no offset or length")
            if offset < 0 or length <= 0 or offset + length > size:
                raise ApiError(400, f"Bad Request: can't parse entities: {entity!r} is outside")
            if entity.get("type") == "text_mention" and "id" not in (entity.get("user") or {}):
                raise ApiError(400, "Bad Request: can't parse entities: a mention has no user")
        return text

    def _record_notifications(self, msg: StoredMessage) -> None:
        """Whom Telegram notifies for a new message: the users it mentions by id."""
        users = [
            int(e["user"]["id"]) for e in msg.entities or () if e.get("type") == "text_mention"
        ]
        if (msg.parse_mode or "").upper() == "HTML":
            users += [int(found) for found in _HTML_MENTION_RE.findall(msg.text or "")]
        for user in dict.fromkeys(users):
            self.notifications.append(Notification(msg.chat.id, msg.message_id, user))

    # ------------------------------------------------------------------ Bot API methods

    def _m_getMe(self, params: Json) -> Json:
        return {
            **self.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": True,
            "supports_inline_queries": self.inline_mode,
        }

    def _m_setWebhook(self, params: Json) -> bool:
        # The fake stands for a self-hosted Bot API server (TELEGRAM_API_BASE), which takes
        # http:// webhooks on any port; api.telegram.org wants https on 443, 80, 88 or 8443.
        url = str(params.get("url") or "")
        if not url.startswith(("http://", "https://")):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided")
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        if "allowed_updates" in params:
            self._allowed_updates = set(params["allowed_updates"] or []) or None
        self.webhook = {"url": url, "secret_token": secret}
        self._start_deliveries()
        return True

    def _m_getWebhookInfo(self, params: Json) -> Json:
        url = "" if self.webhook is None else self.webhook["url"]
        pending = len(self._updates) + len(self._delivering)
        return {"url": url, "has_custom_certificate": False, "pending_update_count": pending}

    async def _m_getUpdates(self, params: Json) -> list[Json]:
        if self.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = params.get("offset")
        limit = min(max(_as_int(params.get("limit", 100), "limit"), 1), 100)
        timeout = min(max(_as_int(params.get("timeout", 0), "timeout"), 0), 50)
        if "allowed_updates" in params:  # like Telegram: remembered until changed
            self._allowed_updates = set(params["allowed_updates"] or []) or None
        offset = None if offset is None else _as_int(offset, "offset")
        if offset is not None and offset > 0:  # confirms every update before it
            self._updates = [u for u in self._updates if u.update_id >= offset]
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()
        deadline = time.monotonic() + timeout
        parked = False
        while True:
            self._drop_unwanted_updates()
            if self._updates or self._closing:
                return [u.payload for u in self._updates[:limit]]
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return []
            self._waiting_polls += 1
            if not parked:  # once: a test may wait for the bot to be listening
                parked = True
                self._notify()
            try:
                await self._wait(self._changed, remaining)
            finally:
                self._waiting_polls -= 1

    def _drop_unwanted_updates(self) -> None:
        """Telegram never delivers update types outside ``allowed_updates``: neither do we."""
        if self._allowed_updates is None:
            return
        keep = [u for u in self._updates if u.type in self._allowed_updates]
        self.dropped_updates += [u.payload for u in self._updates if u not in keep]
        self._updates = keep

    def _m_deleteWebhook(self, params: Json) -> bool:
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = None
        return True

    def _m_setMyCommands(self, params: Json) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        for command in commands:
            if not _COMMAND_RE.fullmatch(str(command.get("command", ""))):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        key = (self._scope_key(params.get("scope")), params.get("language_code") or "")
        self.commands[key] = commands
        return True

    def _m_getMyCommands(self, params: Json) -> list[Json]:
        key = (self._scope_key(params.get("scope")), params.get("language_code") or "")
        return self.commands.get(key, [])

    def _m_deleteMyCommands(self, params: Json) -> bool:
        key = (self._scope_key(params.get("scope")), params.get("language_code") or "")
        self.commands.pop(key, None)
        return True

    def _m_sendMessage(self, params: Json) -> Json:
        chat = self._writable_chat(params)
        text = self._checked_text(params)
        reply = params.get("reply_parameters") or {}
        reply_to = reply.get("message_id", params.get("reply_to_message_id"))
        msg = StoredMessage(self._peek_message_id(chat.id), chat, self.bot, int(time.time()))
        msg.text, msg.parse_mode = text, params.get("parse_mode")
        msg.entities = params.get("entities") or None
        msg.reply_markup = self._inline_markup(params, chat)
        data = msg.to_api()
        if reply_to is not None:
            replied = self._messages.get(chat.id, {}).get(_as_int(reply_to, "message_id"))
            if replied is not None and not replied.deleted:
                msg.reply_to = replied.message_id
                data["reply_to_message"] = replied.to_api()
            elif not reply.get("allow_sending_without_reply"):
                raise ApiError(400, "Bad Request: message to be replied not found")
        self._store(msg)
        self._record_notifications(msg)
        return data

    def _m_editMessageText(self, params: Json) -> Json | bool:
        msg = self._bot_message(params, "edit")
        if msg.photo is not None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = self._checked_text(params)
        markup = self._inline_markup(params, _chat_of(msg))  # none given: the keyboard goes
        entities = params.get("entities") or None
        if not (msg.from_bot or msg.via_bot):
            raise ApiError(400, "Bad Request: message can't be edited")
        if msg.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        if (text, entities, markup) == (msg.text, msg.entities, msg.reply_markup):
            raise ApiError(400, _NOT_MODIFIED)
        msg.text, msg.entities, msg.reply_markup = text, entities, markup
        msg.parse_mode, msg.edit_date = params.get("parse_mode"), int(time.time())
        return True if msg.via_bot else msg.to_api()

    def _m_editMessageReplyMarkup(self, params: Json) -> Json | bool:
        msg = self._bot_message(params, "edit")
        markup = self._inline_markup(params, _chat_of(msg))
        if not (msg.from_bot or msg.via_bot):
            raise ApiError(400, "Bad Request: message can't be edited")
        if markup == msg.reply_markup:
            raise ApiError(400, _NOT_MODIFIED)
        msg.reply_markup, msg.edit_date = markup, int(time.time())
        return True if msg.via_bot else msg.to_api()

    def _m_deleteMessage(self, params: Json) -> bool:
        msg = self._bot_message(params, "delete")
        if time.time() - msg.date > DELETE_WINDOW:  # Telegram: 48 hours
            raise ApiError(400, "Bad Request: message can't be deleted for everyone")
        msg.deleted = True
        return True

    def _m_answerCallbackQuery(self, params: Json) -> bool:
        query_id = str(params.get("callback_query_id"))
        text = params.get("text")
        answers = self._callback_answers.get(query_id)
        if answers is None:
            raise ApiError(400, _BAD_QUERY)
        error = None
        if any(a.ok for a in answers):
            error = ApiError(400, _BAD_QUERY)  # a query can be answered only once
        elif text and len(text) > 200:
            error = ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        show_alert = bool(params.get("show_alert"))
        answers.append(CallbackAnswer(text, show_alert, params.get("url"), error is None))
        if error is not None:
            raise error
        return True

    def _member(self, chat: FakeChat, user: FakeUser) -> Json:
        owner = self._owners.get(chat.id)
        if owner is not None and owner.id == user.id:
            return {"status": "creator", "user": user.to_api(), "is_anonymous": False}
        if any(a.id == user.id for a in self._admins.get(chat.id, [])):
            flags = dict.fromkeys(_ADMIN_RIGHTS, True)
            return {
                "status": "administrator",
                "user": user.to_api(),
                "can_be_edited": False,
                "is_anonymous": False,
                **flags,
            }
        return {"status": "member", "user": user.to_api()}

    def _m_getChatMember(self, params: Json) -> Json:
        chat = self._chat(params)
        user_id = _as_int(params.get("user_id"), "user_id")
        user = self.bot if user_id == self.bot.id else self.users.get(user_id)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        return self._member(chat, user)

    def _m_getChatAdministrators(self, params: Json) -> list[Json]:
        chat = self._chat(params)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        owner = self._owners.get(chat.id)
        people = ([owner] if owner else []) + self._admins.get(chat.id, [])
        return [self._member(chat, user) for user in people]

    def _m_getChat(self, params: Json) -> Json:
        chat = self._chat(params)
        gifts = (
            "unlimited_gifts limited_gifts unique_gifts premium_subscription gifts_from_channels"
        )
        return {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": dict.fromkeys(gifts.split(), False),
        }

    def _m_sendChatAction(self, params: Json) -> bool:
        self._writable_chat(params)
        return True

    def _m_pinChatMessage(self, params: Json) -> bool:
        msg = self._bot_message(params, "pin")
        self.pinned[msg.chat.id] = msg.message_id
        return True

    def _m_unpinChatMessage(self, params: Json) -> bool:
        self.pinned.pop(self._chat(params).id, None)
        return True

    def _m_close(self, params: Json) -> bool:
        return True

    def _m_logOut(self, params: Json) -> bool:
        return True

    # ------------------------------------------------------------------ stickers, inline mode
    #
    # Sticker sets the bot creates from uploaded PNGs (a static sticker: one side exactly
    # 512 px, the other at most 512), inline queries and chosen inline results as updates,
    # and the messages users send through inline mode (editable by `inline_message_id` when
    # the result carried a keyboard, as on Telegram). Refused as Telegram refuses: a set name
    # not ending in `_by_<bot username>`, more than 50 initial stickers or 120 in a set, a
    # picture of the wrong size, more than 50 results, a result id that is empty, longer than
    # 64 bytes or repeated, a cached sticker whose file id the server never issued.

    def _sticker_of(self, params: Json, value: Any) -> FakeSticker:
        """An InputSticker's picture: an upload (`attach://<field>`) checked as Telegram does."""
        if not isinstance(value, dict):
            raise ApiError(400, "Bad Request: can't parse InputSticker JSON object")
        if value.get("format") != "static":
            raise ApiError(400, "Bad Request: STICKER_FORMAT_INVALID")
        emoji = value.get("emoji_list")
        if not isinstance(emoji, list) or not 1 <= len(emoji) <= 20:
            raise ApiError(400, "Bad Request: STICKER_EMOJI_INVALID")
        keywords = value.get("keywords") or []
        if len(keywords) > 20 or sum(len(k) for k in keywords) > 64:
            raise ApiError(400, "Bad Request: STICKER_KEYWORDS_INVALID")
        ref = str(value.get("sticker", ""))
        upload = params.get(ref.removeprefix("attach://")) if ref.startswith("attach://") else None
        if not isinstance(upload, Upload):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        size = _png_size(upload.data)
        if size is None:
            raise ApiError(400, "Bad Request: STICKER_PNG_NOPNG")
        width, height = size
        if max(width, height) != 512 or min(width, height) < 1:
            raise ApiError(400, "Bad Request: STICKER_PNG_DIMENSIONS")
        n = next(self._ids)
        sticker = FakeSticker(
            f"CAACAgIAAx{n:08d}", f"AgAD{n:08d}", str(emoji[0]), width, height, upload.data
        )
        self._sticker_files[sticker.file_id] = sticker
        return sticker

    def _owned_set(self, params: Json) -> FakeStickerSet:
        found = self.sticker_sets.get(str(params.get("name", "")).lower())
        if found is None:
            raise ApiError(400, "Bad Request: STICKERSET_INVALID")
        if _as_int(params.get("user_id"), "user_id") != found.owner:
            raise ApiError(400, "Bad Request: USER_ID_INVALID")
        return found

    def _m_createNewStickerSet(self, params: Json) -> bool:
        name = str(params.get("name", ""))
        suffix = f"_by_{self.bot.username}".lower()
        if (
            not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", name)
            or "__" in name
            or not name.lower().endswith(suffix)
        ):
            raise ApiError(400, "Bad Request: invalid sticker set name is specified")
        if name.lower() in self.sticker_sets:
            raise ApiError(400, "Bad Request: sticker set name is already occupied")
        owner = _as_int(params.get("user_id"), "user_id")
        if owner not in self.users:
            raise ApiError(400, "Bad Request: USER_ID_INVALID")
        title = str(params.get("title", ""))
        if not 1 <= len(title) <= 64:
            raise ApiError(400, "Bad Request: STICKERSET_TITLE_INVALID")
        stickers = params.get("stickers")
        if not isinstance(stickers, list) or not 1 <= len(stickers) <= 50:
            raise ApiError(400, "Bad Request: STICKERS_TOO_MUCH")
        made = [self._sticker_of(params, value) for value in stickers]
        self.sticker_sets[name.lower()] = FakeStickerSet(name, title, owner, made)
        return True

    def _m_addStickerToSet(self, params: Json) -> bool:
        found = self._owned_set(params)
        if len(found.stickers) >= 120:
            raise ApiError(400, "Bad Request: STICKERS_TOO_MUCH")
        found.stickers.append(self._sticker_of(params, params.get("sticker")))
        return True

    def _m_replaceStickerInSet(self, params: Json) -> bool:
        found = self._owned_set(params)
        old = str(params.get("old_sticker", ""))
        index = next((i for i, s in enumerate(found.stickers) if s.file_id == old), None)
        if index is None:
            raise ApiError(400, "Bad Request: STICKER_INVALID")
        found.stickers[index] = self._sticker_of(params, params.get("sticker"))
        return True

    def _m_deleteStickerFromSet(self, params: Json) -> bool:
        sticker = str(params.get("sticker", ""))
        for found in self.sticker_sets.values():
            for s in found.stickers:
                if s.file_id == sticker:
                    found.stickers.remove(s)
                    return True
        raise ApiError(400, "Bad Request: STICKER_INVALID")

    def _m_getStickerSet(self, params: Json) -> Json:
        found = self.sticker_sets.get(str(params.get("name", "")).lower())
        if found is None:
            raise ApiError(400, "Bad Request: STICKERSET_INVALID")
        return {
            "name": found.name,
            "title": found.title,
            "sticker_type": "regular",
            "stickers": [s.to_api(found.name) for s in found.stickers],
        }

    def _m_answerInlineQuery(self, params: Json) -> bool:
        query_id = str(params.get("inline_query_id"))
        answers = self._inline_answers.get(query_id)
        if answers is None or answers:
            raise ApiError(400, _BAD_QUERY)  # unknown, or answered already
        results = params.get("results")
        if not isinstance(results, list):
            raise ApiError(400, "Bad Request: can't parse inline query results JSON object")
        if len(results) > 50:
            raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            rid = str(result.get("id", ""))
            if not 1 <= len(rid.encode()) <= 64:
                raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
            if rid in seen:
                raise ApiError(400, "Bad Request: RESULT_ID_DUPLICATE")
            seen.add(rid)
            self._inline_markup(result)
            kind = result.get("type")
            if kind == "sticker":
                if str(result.get("sticker_file_id")) not in self._sticker_files:
                    raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
            elif kind == "article":
                text = (result.get("input_message_content") or {}).get("message_text")
                if not result.get("title") or not isinstance(text, str) or not text.strip():
                    raise ApiError(400, "Bad Request: MESSAGE_EMPTY")
            else:
                raise ApiError(400, f"Bad Request: result type {kind!r} is not in the fake")
        answers.append(
            InlineAnswer(
                results,
                _as_int(params.get("cache_time", 300), "cache_time"),
                bool(params.get("is_personal")),
                params.get("button"),
            )
        )
        return True

    def _inline_message(self, params: Json) -> StoredMessage:
        msg = self._inline_messages.get(str(params.get("inline_message_id")))
        if msg is None or msg.deleted:
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        return msg

    def inline_query(self, user: FakeUser, query: str, *, chat_type: str = "supergroup") -> str:
        """``user`` types ``@bot <query>`` in a chat; returns the inline query id."""
        self.users.setdefault(user.id, user)
        query_id = str(7_000_000_000 + next(self._ids))
        self._inline_queries[query_id] = (user, query)
        self._inline_answers[query_id] = []
        self.inject(
            {
                "inline_query": {
                    "id": query_id,
                    "from": user.to_api(),
                    "query": query,
                    "offset": "",
                    "chat_type": chat_type,
                }
            }
        )
        return query_id

    def inline_answer(self, query_id: str) -> InlineAnswer | None:
        """What the bot answered to an inline query (None: not yet)."""
        answers = self._inline_answers.get(query_id)
        return answers[0] if answers else None

    def choose(
        self,
        query_id: str,
        result_id: str,
        chat: FakeChat | int,
        *,
        strict: bool = True,
        keyboard: bool = True,
    ) -> StoredMessage:
        """The user of the query taps a result in ``chat``: the message appears there (sent by
        the user via the bot) and, with inline feedback on, a ``chosen_inline_result`` arrives.

        With ``strict`` the result must be one the bot offered for that query; ``strict=False``
        forges the choice (Telegram never does: a test of what the bot does with it), showing
        the first offered result's message. ``keyboard=False``: the message shows without the
        result's keyboard (as a result without one), so no ``inline_message_id`` comes."""
        user, query = self._inline_queries[query_id]
        answer = self.inline_answer(query_id)
        offered = {str(r.get("id")): r for r in (answer.results if answer else [])}
        result = offered.get(result_id)
        if strict and result is None:
            raise ValueError(f"result {result_id!r} was not offered: {sorted(offered)}")
        target = self._chat_for_injection(user, chat)
        msg = StoredMessage(self._peek_message_id(target.id), target, user, int(time.time()))
        msg.via_bot = True
        if result is None:  # forged: an offered result's message under another id
            plain: Json = {"type": "article", "input_message_content": {"message_text": "…"}}
            result = next(iter(offered.values()), plain)
        if result.get("type") == "sticker":
            msg.sticker = str(result["sticker_file_id"])
        else:
            msg.text = str((result.get("input_message_content") or {}).get("message_text"))
        msg.reply_markup = (result.get("reply_markup") or None) if keyboard else None
        self._store(msg)
        chosen: Json = {"result_id": result_id, "from": user.to_api(), "query": query}
        if msg.reply_markup:  # Telegram gives an inline_message_id only then
            inline_id = f"BAAAA{next(self._ids):010d}"
            self._inline_messages[inline_id] = msg
            msg.inline_message_id = chosen["inline_message_id"] = inline_id
        self.inject({"chosen_inline_result": chosen})
        return msg

    def inline_chat(self, inline_message_id: str) -> int:
        return self._inline_messages[inline_message_id].chat.id

    def press_inline(self, user: FakeUser, msg: StoredMessage, callback_data: str) -> str:
        """``user`` presses a button on a message chosen inline; returns the query id."""
        if callback_data not in [b.get("callback_data") for b in msg.buttons]:
            raise ValueError(f"no button {callback_data!r}: {msg.buttons!r}")
        assert msg.inline_message_id is not None
        query_id = str(5_000_000_000 + next(self._ids))
        self.inject(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_api(),
                    "inline_message_id": msg.inline_message_id,
                    "chat_instance": str(abs(msg.chat.id) * 7919),
                    "data": callback_data,
                }
            }
        )
        self._callback_answers[query_id] = []
        return query_id

    # ------------------------------------------------------------------ photos

    def picture(self, msg: StoredMessage) -> bytes:
        """The bytes of the photo a message shows (its largest size)."""
        assert msg.photo, f"message {msg.message_id} is not a photo"
        return self.photos[msg.photo[-1]["file_id"]]

    def _photo_sizes(self, value: Any, params: Json) -> list[Json]:
        """The sizes of a photo given as a file id, or uploaded (``attach://<field>`` or the
        field itself): checked as Telegram checks them, stored under new file ids."""
        if isinstance(value, str) and value.startswith("attach://"):
            value = params.get(value.removeprefix("attach://"))
            if not isinstance(value, Upload):
                raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        if not isinstance(value, Upload):
            known = self._photo_files.get(str(value))
            if known is None:
                raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
            return known
        data = value.data
        if len(data) > PHOTO_BYTES:
            raise ApiError(400, "Bad Request: file is too big")
        try:
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                width, height = image.size
        except (OSError, ValueError):
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from None
        if width + height > PHOTO_SIDES or max(width, height) > PHOTO_RATIO * min(width, height):
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        n = next(self._ids)
        sizes: list[Json] = []
        for side in (90, 320, 800, 1280):  # Telegram's sizes, the original (up to 1280) last
            scale = min(1.0, side / max(width, height))
            sizes.append(
                {
                    "file_id": f"AgACPhoto{n}x{side}",
                    "file_unique_id": f"AQADPhoto{n}x{side}",
                    "width": max(1, round(width * scale)),
                    "height": max(1, round(height * scale)),
                }
            )
            if scale == 1.0:
                break
        for size in sizes:
            self._photo_files[str(size["file_id"])] = sizes
            self.photos[str(size["file_id"])] = data
        return sizes

    @staticmethod
    def _checked_caption(caption: Any) -> str | None:
        if caption is None or caption == "":
            return None
        if _utf16_len(str(caption)) > CAPTION_LIMIT:
            raise ApiError(400, "Bad Request: message caption is too long")
        return str(caption)

    def _m_sendPhoto(self, params: Json) -> Json:
        chat = self._writable_chat(params)
        if params.get("photo") is None:
            raise ApiError(400, "Bad Request: there is no photo in the request")
        caption = self._checked_caption(params.get("caption"))
        sizes = self._photo_sizes(params["photo"], params)
        msg = StoredMessage(self._peek_message_id(chat.id), chat, self.bot, int(time.time()))
        msg.photo, msg.caption = sizes, caption
        msg.reply_markup = self._inline_markup(params, chat)
        self._store(msg)
        return msg.to_api()

    def _m_editMessageMedia(self, params: Json) -> Json:
        """A photo's picture, caption and keyboard at once; a text message becomes a photo
        (Bot API 9: "replace a text ... message with a media")."""
        msg = self._bot_message(params, "edit")
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise ApiError(400, "Bad Request: the fake edits photos only")
        if not msg.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        caption = self._checked_caption(media.get("caption"))
        sizes = self._photo_sizes(media.get("media"), params)
        markup = self._inline_markup(params, _chat_of(msg))
        if (sizes, caption, markup) == (msg.photo, msg.caption, msg.reply_markup):
            raise ApiError(400, _NOT_MODIFIED)
        msg.photo, msg.caption, msg.reply_markup = sizes, caption, markup
        msg.text = msg.entities = None
        msg.edit_date = int(time.time())
        return msg.to_api()

    def _m_editMessageCaption(self, params: Json) -> Json:
        msg = self._bot_message(params, "edit")
        if msg.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = self._checked_caption(params.get("caption"))
        markup = self._inline_markup(params, _chat_of(msg))
        if (caption, markup) == (msg.caption, msg.reply_markup):
            raise ApiError(400, _NOT_MODIFIED)
        msg.caption, msg.reply_markup, msg.edit_date = caption, markup, int(time.time())
        return msg.to_api()


class Upload(str):
    """An uploaded file's form field: reads as ``<file name>``, carries the bytes."""

    data: bytes

    def __new__(cls, text: str, data: bytes = b"") -> Upload:
        upload = super().__new__(cls, text)
        upload.data = data
        return upload


@dataclass
class FakeSticker:
    file_id: str
    file_unique_id: str
    emoji: str
    width: int
    height: int
    png: bytes

    def to_api(self, set_name: str) -> Json:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "type": "regular",
            "width": self.width,
            "height": self.height,
            "is_animated": False,
            "is_video": False,
            "emoji": self.emoji,
            "set_name": set_name,
        }


@dataclass
class FakeStickerSet:
    name: str
    title: str
    owner: int
    stickers: list[FakeSticker]


@dataclass(frozen=True)
class InlineAnswer:
    """What the bot passed to answerInlineQuery."""

    results: list[Json]
    cache_time: int
    is_personal: bool
    button: Json | None

    @property
    def ids(self) -> list[str]:
        return [str(r["id"]) for r in self.results]


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk; None for anything that is not a PNG."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
