"""A fake Discord REST API plus an interaction driver, for end-to-end tests of the Discord bot.

The fake is an aiohttp server on 127.0.0.1 that speaks enough of Discord's v10 REST API for
discord.py: login, application command sync, interaction callbacks, webhook (followup / original
response) messages, channel messages, DMs, guild / channel / member look-ups, application emoji
(list, create, delete).  It keeps state (messages per channel with snowflake ids, ephemeral
messages with their single viewer, DMs, the application's emoji), records every call, validates
message payloads like Discord does (answering 400 / 50035; a component naming a custom emoji
that does not exist is "Invalid emoji"), and can inject failures (429 with Discord's body and
headers, 5xx, 403 ...) or hold a response back until the test releases it (``hold_next``:
the request is handled, its sender waits). A custom emoji named in a message's content
(`<:name:id>`) is not checked, as Discord does not: content is free text up to its length
limit, and an emoji the sender cannot use shows as its `:name:`; `content_emoji` lists them
for the tests to check.

No gateway is involved: after ``bot.login`` the driver feeds READY / GUILD_CREATE straight into
``bot._connection`` and then builds real INTERACTION_CREATE payloads and hands them to
``bot._connection.parse_interaction_create``.  Only a bot that connects for real (``bot.start``,
with ``DiscordWebSocket.DEFAULT_GATEWAY`` pointed at ``gateway_url``) meets the gateway: it says
HELLO, answers heartbeats, and records every IDENTIFY in ``identifies`` (which shard, of how
many); a sharding test waits for them with ``wait_identified``.

Typical use::

    async with FakeDiscord() as fake:          # starts the server, patches Route.BASE
        world = fake.setup_guild(["Alice", "Bob", "Carol"], locale="ru")
        bot = MyBot()
        await fake.boot(bot)                   # login + READY + GUILD_CREATE
        await bot.tree.sync()
        h = await fake.slash(bot, world.users[0], "new")
        assert h.answered_within(3.0)
        h2 = await fake.click(bot, world.users[1], h.original, label="Join")
    # leaving the block closes the booted bots, stops the server and restores Route.BASE

Mentions: a message's ``mentions`` are the users its content mentions (``<@id>``) that its
``allowed_mentions`` permits (all of them when it sends none, as Discord does). Who was notified
is recorded in ``pings`` (message id, user id) when a public message is created; an edit pings
nobody, and neither does the deferred "thinking..." original when it is edited or replaced by
the first followup (Discord does not notify for those either).

Time is simulated, never the wall clock: how fast the machine runs changes nothing. The clock of
interaction deadlines (3 s to answer, 15 min token lifetime), snowflakes and timestamps starts at
the wall time of the fake's creation and moves only with ``fake.advance(s)``; an interaction's age
adds the simulated network time of the requests made meanwhile (``latency`` per round trip, and
the ``retry_after`` of a 429). ``fake.clock`` (a `SimulatedClock`) counts both; a bot measures its
deferral on it (``UnoBot(clock=fake.clock)``), so it defers only when a test moves that clock.

``settle()`` waits on events: every task an interaction or gateway event started has finished, no
request is in flight, and whatever the test registered in ``settle_also`` (the bot's outbox
delivery) is done; again until a pass makes no request.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import copy
import datetime as dt
import io
import json
import logging
import math
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.http
import PIL.Image
from aiohttp import web

JSON = dict[str, Any]

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Interaction callback types
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7
CB_AUTOCOMPLETE, CB_MODAL = 8, 9
ADMINISTRATOR = 1 << 3  # permission bit
# Message flags
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Limits Discord enforces on messages
MAX_CONTENT = 2000
MAX_ACTION_ROWS = 5
MAX_COMPONENTS = 25
MAX_COMPONENTS_V2 = 40
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000

# Application emoji (GET/POST /applications/{id}/emojis)
MAX_APP_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
_EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
_DATA_URI = re.compile(r"data:image/(?:png|jpeg|jpg|gif|webp|avif);base64,(?P<data>.*)", re.S)

TOKEN_LIFETIME = 15 * 60.0
RESPONSE_DEADLINE = 3.0
GUARD = 60.0  # seconds of real time after which a wait on the bot fails: only a guard
SEND_MESSAGES = 1 << 11  # permission bit

VALID_LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt",
        "hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el",
        "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
    }
)  # fmt: skip

# VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
# | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS
DEFAULT_MEMBER_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18) | (1 << 31)
)
# the above plus ADD_REACTIONS, MANAGE_MESSAGES, SEND_MESSAGES_IN_THREADS
DEFAULT_APP_PERMISSIONS = DEFAULT_MEMBER_PERMISSIONS | (1 << 6) | (1 << 13) | (1 << 38)

_SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
_USER_MENTION = re.compile(r"<@!?(\d+)>")


# --------------------------------------------------------------------------------------------
# Model objects
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    """A Discord user (and, when in a guild, its member)."""

    id: int
    name: str
    locale: str = "ru"
    global_name: str | None = None
    dm_closed: bool = False
    bot: bool = False
    permissions: int = DEFAULT_MEMBER_PERMISSIONS
    nick: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.global_name if self.global_name is not None else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0) or a DM channel (type 1, ``recipient_id`` set)."""

    id: int
    name: str
    guild_id: int | None
    type: int = 0
    recipient_id: int | None = None
    position: int = 0
    bot_can_send: bool = True  # the bot's Send Messages permission here (False: 403 50013)

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    locale: str = "ru"
    owner_id: int | None = None
    channels: list[FakeChannel] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    joined_at: str = "2024-01-01T00:00:00+00:00"


@dataclass(eq=False)
class FakeWorld:
    """What :meth:`FakeDiscord.setup_guild` creates."""

    guild: FakeGuild
    channel: FakeChannel
    users: list[FakeUser]


@dataclass(eq=False)
class Call:
    """One request the fake received (and what it answered)."""

    method: str
    path: str  # relative to /api/v10, e.g. "/channels/1/messages"
    query: dict[str, str]
    json: Any
    status: int = 0
    response: Any = None
    at: float = 0.0  # fake clock
    files: list[str] = field(default_factory=list)
    injected: bool = False
    interaction_id: int | None = None

    def __repr__(self) -> str:
        return f"<Call {self.method} {self.path} -> {self.status}>"


@dataclass(eq=False)
class StoredMessage:
    """A message as the fake stores it; ``data`` is the payload Discord would return."""

    id: int
    channel_id: int
    data: JSON
    ephemeral_to: int | None = None  # user id that alone sees this ephemeral message
    dm_user_id: int | None = None  # recipient when the message is in a DM channel
    interaction_id: int | None = None  # interaction whose response / followup this is
    created_at: float = 0.0  # fake clock
    edited_at: float | None = None
    deleted: bool = False
    versions: list[JSON] = field(default_factory=list)  # previous payloads, oldest first

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data.get("embeds") or [])

    @property
    def raw_components(self) -> list[JSON]:
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def is_ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def is_dm(self) -> bool:
        return self.dm_user_id is not None

    @property
    def is_public(self) -> bool:
        """Visible to everybody in a guild channel."""
        return not self.is_ephemeral and not self.is_dm and not self.deleted

    @property
    def is_loading(self) -> bool:
        return bool(self.flags & LOADING)

    def visible_to(self, user_id: int) -> bool:
        if self.deleted:
            return False
        if self.ephemeral_to is not None:
            return self.ephemeral_to == user_id
        if self.dm_user_id is not None:
            return self.dm_user_id == user_id
        return True

    def texts(self) -> list[str]:
        return message_texts(self.data)

    @property
    def text(self) -> str:
        return "\n".join(self.texts())

    def components(self) -> list[JSON]:
        return list(walk_components(self.raw_components))

    def find(self, *, label: str | None = None, custom_id: str | None = None) -> JSON | None:
        return find_component(self.raw_components, label=label, custom_id=custom_id)

    def __repr__(self) -> str:
        kind = "ephemeral" if self.is_ephemeral else "dm" if self.is_dm else "public"
        return f"<StoredMessage {self.id} {kind} {self.content[:40]!r}>"


class SimulatedClock:
    """Simulated seconds since the fake started: `FakeDiscord.advance` plus the simulated network.

    A bot given it as its clock (`bot.discord.reply.Clock`) waits on it with `sleep_until`, which
    ends when the clock is moved far enough, however much real time passes meanwhile."""

    def __init__(self) -> None:
        self.elapsed = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.elapsed

    def advance(self, seconds: float) -> None:
        self.elapsed += seconds
        for at, waiter in self._sleepers:
            if at <= self.elapsed and not waiter.done():
                waiter.set_result(None)

    async def sleep_until(self, at: float) -> None:
        if at <= self.elapsed:
            await asyncio.sleep(0)
            return
        entry = (at, asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        try:
            await entry[1]
        finally:
            self._sleepers.remove(entry)


@dataclass(eq=False)
class InteractionHandle:
    """One interaction the driver sent and what the bot answered."""

    fake: FakeDiscord = field(repr=False)
    id: int
    token: str
    kind: int  # 2 command, 3 component, 4 autocomplete
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: JSON = field(repr=False)
    created_at: float  # fake clock
    dispatched_at: float = 0.0  # fake clock
    simulated_at_dispatch: float = 0.0  # the fake's `simulated` network time then
    simulated_delay: float = 0.0  # simulated network time until the callback arrived
    source_message_id: int | None = None  # component interactions: the clicked message
    callback: JSON | None = None
    callback_type: int | None = None
    answered_at: float | None = None  # fake clock
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list, repr=False)
    rejected_callbacks: list[Call] = field(default_factory=list, repr=False)
    finished: bool = False  # every task the dispatch created completed
    deferred_ephemeral: bool = False
    awaiting_first_followup: bool = False
    _answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def response_time(self) -> float | None:
        """Seconds between the user's action and the callback reaching Discord, simulated: the
        fake clock moved by `FakeDiscord.advance` plus the simulated network delay
        (`FakeDiscord.latency`); ``None`` if never answered."""
        if self.answered_at is None:
            return None
        return self.answered_at - self.dispatched_at + self.simulated_delay

    def answered_within(self, seconds: float = RESPONSE_DEADLINE) -> bool:
        rt = self.response_time
        return rt is not None and rt <= seconds

    @property
    def answered(self) -> bool:
        return self.callback is not None

    async def wait_answered(self) -> None:
        """Until Discord accepted a callback (a response or a deferral) for this interaction."""
        await self._answered.wait()

    @property
    def deferred(self) -> bool:
        return self.callback_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE)

    @property
    def original(self) -> StoredMessage | None:
        """The @original message (for deferred updates / updates: the clicked message)."""
        return None if self.original_id is None else self.fake.messages.get(self.original_id)

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.fake.messages[i] for i in self.followup_ids if i in self.fake.messages]

    @property
    def messages(self) -> list[StoredMessage]:
        """Original (if this interaction created / updated one) and followups."""
        out = [] if self.original is None else [self.original]
        return out + [m for m in self.followups if m.id != self.original_id]

    @property
    def ephemeral(self) -> bool:
        orig = self.original
        return orig is not None and orig.is_ephemeral

    @property
    def text(self) -> str:
        return "\n".join(t for m in self.messages for t in m.texts())

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices (callback type 8)."""
        if self.callback_type != CB_AUTOCOMPLETE or self.callback is None:
            return []
        return list((self.callback.get("data") or {}).get("choices") or [])

    @property
    def modal(self) -> JSON | None:
        if self.callback_type != CB_MODAL or self.callback is None:
            return None
        data: JSON = self.callback.get("data") or {}
        return data

    def token_expired(self) -> bool:
        return self.fake.now() - self.created_at >= TOKEN_LIFETIME


@dataclass
class SyncRecord:
    """One bulk overwrite of application commands."""

    guild_id: int | None
    payload: list[JSON]


@dataclass
class _Failure:
    substring: str
    method: str | None
    status: int
    retry_after: float
    code: int | None
    message: str | None
    times: int
    is_global: bool
    via: bool


@dataclass
class Hold:
    """A request the fake handled (its effect applied: a message created, say) whose response
    it keeps back until `release()`: the bot that sent it waits, as on a slow network, while
    others go on. `reached` is set once such a request arrived; `call` is it."""

    substring: str
    method: str | None
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    call: Call | None = None

    def release(self) -> None:
        self.released.set()


class _ListHandler(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class ComponentRefused(AssertionError):
    """Discord refuses a component interaction whose custom id is on no version of the message
    it came from; the bot never sees it."""


class ApiError(Exception):
    """Raised by route handlers; turned into Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        out: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


class _FormErrors:
    """Collects Invalid Form Body errors with Discord's nested ``_errors`` layout."""

    def __init__(self) -> None:
        self.items: list[tuple[tuple[str | int, ...], str, str]] = []

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        self.items.append((tuple(path), code, message))

    def max_len(self, path: Sequence[str | int], value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_if_any(self) -> None:
        if not self.items:
            return
        errors: JSON = {}
        for path, code, message in self.items:
            node = errors
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        raise ApiError(400, 50035, "Invalid Form Body", errors)


# --------------------------------------------------------------------------------------------
# Component / text helpers (usable without a FakeDiscord)
# --------------------------------------------------------------------------------------------


def walk_components(components: Iterable[JSON]) -> Iterator[JSON]:
    """Depth-first walk over action rows, containers, sections (and their accessories)."""
    for comp in components:
        yield comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from walk_components(children)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield from walk_components([accessory])


def find_component(
    components: Iterable[JSON], *, label: str | None = None, custom_id: str | None = None
) -> JSON | None:
    """First component whose label (or select placeholder) / custom_id matches."""
    for comp in walk_components(components):
        if custom_id is not None and comp.get("custom_id") != custom_id:
            continue
        if label is not None and label not in (comp.get("label"), comp.get("placeholder")):
            continue
        if custom_id is None and label is None:
            continue
        return comp
    return None


_CONTENT_EMOJI = re.compile(r"<a?:(?P<name>[A-Za-z0-9_]{2,32}):(?P<id>\d{1,20})>")


def content_emoji(text: str) -> list[tuple[str, int]]:
    """The custom emoji a message's content names (`<:name:id>`), in order: (name, id)."""
    return [(m["name"], int(m["id"])) for m in _CONTENT_EMOJI.finditer(text)]


def message_texts(data: JSON) -> list[str]:
    """Every user-visible text of a message payload."""
    out: list[str] = []
    if data.get("content"):
        out.append(str(data["content"]))
    for embed in data.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                out.append(str(embed[key]))
        for key in ("author", "footer"):
            part = embed.get(key) or {}
            text = part.get("name") if key == "author" else part.get("text")
            if text:
                out.append(str(text))
        for fld in embed.get("fields") or []:
            out.extend(str(fld[k]) for k in ("name", "value") if fld.get(k))
    for comp in walk_components(data.get("components") or []):
        for key in ("label", "placeholder", "content"):
            if comp.get(key):
                out.append(str(comp[key]))
        for opt in comp.get("options") or []:
            out.extend(str(opt[k]) for k in ("label", "description") if opt.get(k))
    return out


def _count_components(components: Iterable[JSON]) -> int:
    return sum(1 for _ in walk_components(components))


def _as_id(obj: Any) -> int:
    if isinstance(obj, int):
        return obj
    if isinstance(obj, str):
        return int(obj)
    return int(obj.id)


def _is_picture(data: bytes) -> bool:
    """Whether `data` decodes as an image (Discord decodes every emoji it is given)."""
    try:
        with PIL.Image.open(io.BytesIO(data)) as image:
            image.verify()
    except (OSError, SyntaxError, ValueError):
        return False
    return True


def _iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


# --------------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------------


class FakeDiscord:
    """Fake Discord REST API server + interaction driver.  See the module docstring."""

    def __init__(
        self,
        *,
        bot_name: str = "UnoBot",
        app_id: int | None = None,
        strict_deadline: bool = True,
        latency: float = 0.0,
    ) -> None:
        self._epoch = time.time()  # the fake clock's start; then it moves only with `advance`
        self._offset = 0.0
        self.clock = SimulatedClock()  # advance + simulated network: what a bot may defer on
        # Simulated network round trip per request (seconds), never slept: every request adds
        # it to `simulated`, and an interaction's response time counts the round trips made
        # between its dispatch and its callback, plus the one-way trips of the interaction to
        # the bot and of the callback back (one more round trip).
        self.latency = latency
        self.simulated = 0.0
        self._last_snowflake = 0
        self.app_id: int = app_id if app_id is not None else self.snowflake()
        self.bot_user = FakeUser(self.app_id, bot_name, locale="en-US", bot=True)
        self.strict_deadline = strict_deadline
        self.users: dict[int, FakeUser] = {self.app_id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self._by_token: dict[str, InteractionHandle] = {}
        self.calls: list[Call] = []
        self.pings: list[tuple[int, int]] = []  # (message id, user id) notified on creation
        self.unknown_calls: list[Call] = []
        self.internal_errors: list[Exception] = []  # exceptions raised by the fake itself
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.sync_payloads: list[SyncRecord] = []
        self.app_emojis: dict[int, JSON] = {}  # the application's emoji by id
        self.app_emoji_limit = MAX_APP_EMOJIS  # tests lower it to reach the limit quickly
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self._failures: list[_Failure] = []
        self._holds: list[Hold] = []
        self._bots: list[discord.Client] = []
        self._inflight = 0
        self._idle = asyncio.Event()  # no request in flight
        self._idle.set()
        self._tasks: set[asyncio.Task[Any]] = set()  # started by interactions and events
        # Further waits of `settle` (the harness adds the bot's outbox delivery).
        self.settle_also: list[Callable[[], Awaitable[None]]] = []
        self._runner: web.AppRunner | None = None
        self._old_base: str | None = None
        self.base_url = ""
        self._routes = self._build_routes()
        # discord.py only *logs* exceptions raised in commands / view callbacks; collect them
        self.logged_errors: list[logging.LogRecord] = []
        self._log_handler = _ListHandler(self.logged_errors)
        self.identifies: list[JSON] = []  # the IDENTIFY payloads ("d") the gateway received
        self._identified = asyncio.Condition()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> str:
        """Start the server on 127.0.0.1 (random port) and point discord.py at it."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"
        self._old_base = discord.http.Route.BASE
        discord.http.Route.BASE = f"{self.base_url}{API_PREFIX}"
        logging.getLogger("discord").addHandler(self._log_handler)
        return self.base_url

    async def close(self) -> None:
        """Close every booted bot, stop the server, restore ``Route.BASE``."""
        for bot in list(self._bots):
            await self.shutdown(bot)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._old_base is not None:
            discord.http.Route.BASE = self._old_base
            self._old_base = None
        logging.getLogger("discord").removeHandler(self._log_handler)

    @property
    def gateway_url(self) -> str:
        return self.base_url.replace("http://", "ws://") + "/gateway"

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """The gateway as far as connecting goes: HELLO, heartbeat ACKs, IDENTIFY recorded.

        Discord closes a connection whose IDENTIFY names a shard outside 0..count-1 with 4010
        (invalid shard); so does the fake."""
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45_000}, "s": None, "t": None})
        async for message in ws:
            if message.type != web.WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            if payload.get("op") == 1:  # heartbeat
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif payload.get("op") == 2:  # identify
                data = payload["d"]
                shard = data.get("shard", [0, 1])
                async with self._identified:
                    self.identifies.append(data)
                    self._identified.notify_all()
                if not 0 <= shard[0] < shard[1]:
                    await ws.close(code=4010, message=b"Invalid shard")
        return ws

    async def wait_identified(self, count: int, timeout: float = GUARD) -> list[JSON]:
        """The first `count` IDENTIFY payloads, once the gateway received them."""
        async with self._identified:
            await asyncio.wait_for(
                self._identified.wait_for(lambda: len(self.identifies) >= count), timeout
            )
        return self.identifies[:count]

    @property
    def bot_errors(self) -> list[str]:
        """ERROR records discord.py logged (e.g. "Ignoring exception in command 'x'")."""
        return [r.getMessage() for r in self.logged_errors]

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ clock and ids

    def now(self) -> float:
        """Fake clock (epoch seconds): the start plus everything passed to :meth:`advance`."""
        return self._epoch + self._offset

    def utcnow(self) -> dt.datetime:
        """The fake clock as an aware datetime.  discord.py's ``Interaction.is_expired()`` uses
        ``discord.utils.utcnow``; ``monkeypatch.setattr(discord.utils, "utcnow", fake.utcnow)``
        makes it follow :meth:`advance`."""
        return dt.datetime.fromtimestamp(self.now(), dt.UTC)

    def advance(self, seconds: float) -> None:
        """Move the fake clock forward (token expiry, snowflakes and timestamps follow it, and
        so does `clock`: a bot waiting to defer sees the time pass)."""
        self._offset += seconds
        self.clock.advance(seconds)

    def _simulate(self, seconds: float) -> None:
        """Network time that passed without moving the fake clock of timestamps."""
        self.simulated += seconds
        self.clock.advance(seconds)

    def snowflake(self) -> int:
        ms = int(self.now() * 1000) - DISCORD_EPOCH_MS
        self._last_snowflake = max(self._last_snowflake + 1, ms << 22)
        return self._last_snowflake

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str = "UNO Club", *, locale: str = "ru") -> FakeGuild:
        guild = FakeGuild(self.snowflake(), name, locale=locale)
        self.guilds[guild.id] = guild
        guild.member_ids.append(self.app_id)
        return guild

    def add_text_channel(self, guild: FakeGuild, name: str = "uno") -> FakeChannel:
        channel = FakeChannel(self.snowflake(), name, guild.id, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_user(
        self,
        name: str,
        *,
        locale: str = "ru",
        guild: FakeGuild | None = None,
        dm_closed: bool = False,
        permissions: int = DEFAULT_MEMBER_PERMISSIONS,
    ) -> FakeUser:
        user = FakeUser(
            self.snowflake(), name, locale=locale, dm_closed=dm_closed, permissions=permissions
        )
        self.users[user.id] = user
        if guild is not None:
            guild.member_ids.append(user.id)
        return user

    def setup_guild(
        self,
        user_names: Sequence[str] = ("Alice", "Bob", "Carol"),
        *,
        locale: str = "ru",
        user_locales: Sequence[str] | None = None,
        guild_name: str = "UNO Club",
        channel_name: str = "uno",
    ) -> FakeWorld:
        """A guild (``guild_locale=locale``) with one text channel and the given members."""
        guild = self.add_guild(guild_name, locale=locale)
        channel = self.add_text_channel(guild, channel_name)
        users = [
            self.add_user(name, locale=(user_locales[i] if user_locales else locale), guild=guild)
            for i, name in enumerate(user_names)
        ]
        return FakeWorld(guild, channel, users)

    def set_dm_closed(self, user: FakeUser | int, closed: bool = True) -> None:
        self.users[_as_id(user)].dm_closed = closed

    def dm_channel(self, user: FakeUser | int) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        uid = _as_id(user)
        for ch in self.channels.values():
            if ch.is_dm and ch.recipient_id == uid:
                return ch
        ch = FakeChannel(self.snowflake(), "", None, type=1, recipient_id=uid)
        self.channels[ch.id] = ch
        return ch

    # ------------------------------------------------------------------ payload builders

    def user_payload(self, user: FakeUser | int) -> JSON:
        return self.users[_as_id(user)].payload()

    def member_payload(self, guild: FakeGuild, user: FakeUser, *, with_permissions: bool) -> JSON:
        data: JSON = {
            "user": user.payload(),
            "nick": user.nick,
            "avatar": None,
            "banner": None,
            "roles": [],
            "joined_at": guild.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(user.permissions)
        return data

    def channel_payload(self, channel: FakeChannel) -> JSON:
        if channel.is_dm:
            assert channel.recipient_id is not None
            return {
                "id": str(channel.id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.user_payload(channel.recipient_id)],
            }
        return {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def guild_payload(self, guild: FakeGuild) -> JSON:
        everyone = {
            "id": str(guild.id),
            "name": "@everyone",
            "permissions": str(DEFAULT_MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id or self.app_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "preferred_locale": guild.locale,
            "premium_tier": 0,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "description": None,
            "vanity_url_code": None,
            "banner": None,
        }

    def ready_payload(self, guilds: Sequence[FakeGuild]) -> JSON:
        return {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": "fake-session",
            "resume_gateway_url": "wss://127.0.0.1.invalid",
            "shard": [0, 1],
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def guild_create_payload(self, guild: FakeGuild) -> JSON:
        data = self.guild_payload(guild)
        members = [
            self.member_payload(guild, self.users[uid], with_permissions=False)
            for uid in guild.member_ids
        ]
        data.update(
            {
                "unavailable": False,
                "joined_at": guild.joined_at,
                "large": False,
                "member_count": len(members),
                "members": members,
                "channels": [
                    {k: v for k, v in self.channel_payload(c).items() if k != "guild_id"}
                    for c in guild.channels
                ],
                "threads": [],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data

    # ------------------------------------------------------------------ booting a bot

    async def boot(
        self,
        bot: discord.Client,
        *,
        token: str = "fake-token",
        guilds: Sequence[FakeGuild] | None = None,
        ready: bool = True,
    ) -> discord.Client:
        """``bot.login`` (runs ``setup_hook``), then READY + GUILD_CREATE (:meth:`connect`)."""
        self._bots.append(bot)
        await bot.login(token)
        if ready:
            await self.connect(bot, guilds=guilds)
        return bot

    async def connect(
        self, bot: discord.Client, *, guilds: Sequence[FakeGuild] | None = None
    ) -> None:
        """Feed READY and one GUILD_CREATE per guild, wait for ``on_ready``.

        discord.py dispatches ``on_ready`` ``guild_ready_timeout`` (2 s) after the last
        GUILD_CREATE; the timeout is lowered to 10 ms while this runs.
        """
        guilds = list(self.guilds.values()) if guilds is None else list(guilds)
        state: Any = bot._connection
        old_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = 0.01
        try:
            self._feed(lambda: state.parse_ready(self.ready_payload(guilds)))
            for guild in guilds:
                self._feed(lambda g=guild: state.parse_guild_create(self.guild_create_payload(g)))
            await asyncio.wait_for(bot.wait_until_ready(), timeout=GUARD)
        finally:
            state.guild_ready_timeout = old_timeout

    def guild_create(self, bot: discord.Client, guild: FakeGuild) -> None:
        """Tell a ready bot it joined ``guild`` (dispatches ``on_guild_join``)."""
        state: Any = bot._connection
        self._feed(lambda: state.parse_guild_create(self.guild_create_payload(guild)))

    async def shutdown(self, bot: discord.Client) -> None:
        """Stop the bot's views (their timeout tasks) and ``bot.close()`` (closes its session)."""
        if bot in self._bots:
            self._bots.remove(bot)
        state: Any = bot._connection
        store = getattr(state, "_view_store", None)
        if store is not None:
            views = {item.view for items in store._views.values() for item in items.values()}
            views.update(store._synced_message_views.values())
            for view in views:
                if view is not None:
                    view.stop()
        if not bot.is_closed():
            await bot.close()

    # ------------------------------------------------------------------ failure injection

    def fail_next(
        self,
        route_substring: str,
        status: int = 429,
        retry_after: float = 0.05,
        *,
        method: str | None = None,
        code: int | None = None,
        message: str | None = None,
        times: int = 1,
        is_global: bool = False,
        via: bool = True,
    ) -> None:
        """Answer the next ``times`` requests whose path contains ``route_substring`` with an error.

        ``route_substring`` may start with a method ("POST /channels/").  For 429 the body is
        Discord's (``message``, ``retry_after``, ``global``) with ``Retry-After`` /
        ``X-RateLimit-*`` headers; discord.py sleeps ``retry_after`` and retries by itself, but
        only if the response carries a ``Via`` header (``via=False`` simulates a Cloudflare ban:
        discord.py raises ``HTTPException`` at once).  500/502/504 are retried by discord.py
        after sleeping 1 + 2*tries seconds (slow!); other codes raise at once.
        """
        parts = route_substring.split(" ", 1)
        if len(parts) == 2 and parts[0].isupper():
            method, route_substring = parts[0], parts[1]
        self._failures.append(
            _Failure(
                route_substring, method, status, retry_after, code, message, times, is_global, via
            )
        )

    def hold_next(self, route_substring: str, *, method: str | None = None) -> Hold:
        """Keep back the response to the next request whose path contains ``route_substring``
        (and of ``method``, if given) until the returned hold is released; the request itself is
        handled at once. Orders events between processes: e.g. a message that exists in the
        channel while the bot that posted it does not know its id yet."""
        hold = Hold(route_substring, method)
        self._holds.append(hold)
        return hold

    def _take_hold(self, method: str, path: str) -> Hold | None:
        for hold in self._holds:
            if hold.substring in path and hold.method in (None, method):
                self._holds.remove(hold)
                return hold
        return None

    def _take_failure(self, method: str, path: str) -> _Failure | None:
        for failure in self._failures:
            if failure.substring in path and failure.method in (None, method):
                failure.times -= 1
                if failure.times <= 0:
                    self._failures.remove(failure)
                return failure
        return None

    def _failure_response(self, failure: _Failure) -> tuple[int, JSON, dict[str, str]]:
        headers: dict[str, str] = {}
        if failure.via:
            headers["Via"] = "1.1 google"
        if failure.status == 429:
            self._simulate(failure.retry_after)  # the client waits that long before it retries
            body: JSON = {
                "message": failure.message or "You are being rate limited.",
                "retry_after": failure.retry_after,
                "global": failure.is_global,
            }
            if failure.code is not None:
                body["code"] = failure.code
            headers.update(
                {
                    "Retry-After": str(max(1, math.ceil(failure.retry_after))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{self.now() + failure.retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{failure.retry_after:.3f}",
                    "X-RateLimit-Scope": "global" if failure.is_global else "user",
                }
            )
            if failure.is_global:
                headers["X-RateLimit-Global"] = "true"
            return 429, body, headers
        default = {403: "Missing Access", 404: "Unknown", 500: "Internal Server Error"}
        body = {
            "message": failure.message or default.get(failure.status, "Error"),
            "code": failure.code if failure.code is not None else 0,
        }
        return failure.status, body, headers

    # ------------------------------------------------------------------ HTTP plumbing

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Any]]]:
        w = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        table: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", r"/users/@me", self._r_me),
            ("GET", r"/oauth2/applications/@me", self._r_application),
            ("GET", r"/applications/@me", self._r_application),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._r_get_commands),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._r_put_commands),
            ("POST", r"/applications/(?P<app>\d+)/commands", self._r_post_command),
            (
                "GET",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._r_get_commands,
            ),
            (
                "PUT",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._r_put_commands,
            ),
            (
                "POST",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._r_post_command,
            ),
            ("GET", r"/applications/(?P<app>\d+)/emojis", self._r_list_app_emojis),
            ("POST", r"/applications/(?P<app>\d+)/emojis", self._r_create_app_emoji),
            ("GET", r"/applications/(?P<app>\d+)/emojis/(?P<eid>\d+)", self._r_get_app_emoji),
            ("DELETE", r"/applications/(?P<app>\d+)/emojis/(?P<eid>\d+)", self._r_delete_app_emoji),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._r_callback),
            ("POST", w, self._r_followup),
            ("GET", w + r"/messages/(?P<mid>@original|\d+)", self._r_webhook_get),
            ("PATCH", w + r"/messages/(?P<mid>@original|\d+)", self._r_webhook_edit),
            ("DELETE", w + r"/messages/(?P<mid>@original|\d+)", self._r_webhook_delete),
            ("GET", r"/channels/(?P<ch>\d+)", self._r_get_channel),
            ("GET", r"/channels/(?P<ch>\d+)/messages", self._r_history),
            ("POST", r"/channels/(?P<ch>\d+)/messages", self._r_create_message),
            ("GET", r"/channels/(?P<ch>\d+)/messages/(?P<mid>\d+)", self._r_get_message),
            ("PATCH", r"/channels/(?P<ch>\d+)/messages/(?P<mid>\d+)", self._r_edit_message),
            ("DELETE", r"/channels/(?P<ch>\d+)/messages/(?P<mid>\d+)", self._r_delete_message),
            ("POST", r"/channels/(?P<ch>\d+)/typing", self._r_typing),
            ("POST", r"/users/@me/channels", self._r_create_dm),
            ("GET", r"/users/(?P<uid>\d+)", self._r_get_user),
            ("GET", r"/guilds/(?P<guild>\d+)", self._r_get_guild),
            ("GET", r"/guilds/(?P<guild>\d+)/channels", self._r_guild_channels),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<uid>\d+)", self._r_get_member),
        ]
        return [(m, re.compile(p), h) for m, p, h in table]

    async def _read_body(self, request: web.Request) -> tuple[Any, list[JSON]]:
        files: list[JSON] = []
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body: Any = None
            for key, value in form.items():
                if key == "payload_json":
                    body = json.loads(str(value))
                elif isinstance(value, web.FileField):
                    files.append({"filename": value.filename, "size": len(value.file.read())})
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except ValueError:
            return raw.decode("utf-8", "replace"), files

    @staticmethod
    def _json_response(
        status: int, body: Any, headers: dict[str, str] | None = None
    ) -> web.Response:
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # body= with an explicit header: text=... would add "; charset=utf-8", which discord.py
        # refuses to decode as JSON.
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        return web.Response(status=status, body=json.dumps(body).encode(), headers=hdrs)

    async def _handle(self, request: web.Request) -> web.Response:
        self._inflight += 1
        self._idle.clear()
        self._simulate(self.latency)
        try:
            body, files = await self._read_body(request)
            full = request.path
            path = full[len(API_PREFIX) :] if full.startswith(API_PREFIX + "/") else full
            call = Call(
                request.method,
                path,
                dict(request.query),
                copy.deepcopy(body),
                at=self.now(),
                files=[f["filename"] for f in files],
            )
            headers: dict[str, str] = {}
            failure = self._take_failure(request.method, path)
            if failure is not None:
                status, payload, headers = self._failure_response(failure)
                call.injected = True
            else:
                try:
                    status, payload = self._route(call, body, files, full)
                except Exception as exc:  # a bug in the fake: fail loudly, without 5xx retries
                    self.internal_errors.append(exc)
                    status, payload = 503, {"message": f"fake_discord bug: {exc!r}", "code": 0}
            call.status = status
            call.response = copy.deepcopy(payload)
            self.calls.append(call)
            handle = self._interaction_for_path(path)
            if handle is not None:
                call.interaction_id = handle.id
                handle.calls.append(call)
            hold = self._take_hold(request.method, path)
            if hold is not None:
                hold.call = call
                hold.reached.set()
                await hold.released.wait()
            return self._json_response(status, payload, headers)
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    _TOKEN_PATH = re.compile(r"/(?:interactions/\d+|webhooks/\d+)/(?P<token>[^/]+)")

    def _interaction_for_path(self, path: str) -> InteractionHandle | None:
        m = self._TOKEN_PATH.match(path)
        return None if m is None else self._by_token.get(m["token"])

    def _route(self, call: Call, body: Any, files: list[JSON], full: str) -> tuple[int, Any]:
        matched_path = False
        if full.startswith(API_PREFIX + "/"):
            for method, pattern, handler in self._routes:
                m = pattern.fullmatch(call.path)
                if m is None:
                    continue
                matched_path = True
                if method != call.method:
                    continue
                try:
                    result: tuple[int, Any] = handler(call, body, files, **m.groupdict())
                    return result
                except ApiError as exc:
                    return exc.status, exc.body()
        self.unknown_calls.append(call)
        if matched_path:
            return 405, {"message": "405: Method Not Allowed", "code": 0}
        return 404, {"message": "404: Not Found", "code": 0}

    # ------------------------------------------------------------------ routes: identity

    def _r_me(self, call: Call, body: Any, files: list[JSON]) -> tuple[int, Any]:
        data = self.bot_user.payload()
        data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None})
        return 200, data

    def _r_application(self, call: Call, body: Any, files: list[JSON]) -> tuple[int, Any]:
        owner = next((u for u in self.users.values() if not u.bot), self.bot_user)
        return 200, {
            "id": str(self.app_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    # ------------------------------------------------------------------ routes: app emoji

    def add_app_emoji(self, name: str) -> JSON:
        """An application emoji that exists already (uploaded by hand, or by an older run)."""
        emoji: JSON = {
            "id": str(self.snowflake()),
            "name": name,
            "roles": [],
            "user": self.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.app_emojis[int(emoji["id"])] = emoji
        return emoji

    def app_emoji(self, name: str) -> JSON | None:
        return next((e for e in self.app_emojis.values() if e["name"] == name), None)

    def _r_list_app_emojis(
        self, call: Call, body: Any, files: list[JSON], app: str
    ) -> tuple[int, Any]:
        self._check_app(app)
        return 200, {"items": [copy.deepcopy(e) for e in self.app_emojis.values()]}

    def _r_get_app_emoji(
        self, call: Call, body: Any, files: list[JSON], app: str, eid: str
    ) -> tuple[int, Any]:
        self._check_app(app)
        emoji = self.app_emojis.get(int(eid))
        if emoji is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return 200, copy.deepcopy(emoji)

    def _r_delete_app_emoji(
        self, call: Call, body: Any, files: list[JSON], app: str, eid: str
    ) -> tuple[int, Any]:
        self._check_app(app)
        if self.app_emojis.pop(int(eid), None) is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return 204, None

    def _r_create_app_emoji(
        self, call: Call, body: Any, files: list[JSON], app: str
    ) -> tuple[int, Any]:
        """Discord's checks: a name of 2-32 letters, digits and `_`, not taken; an image as a
        data URI of a real picture, at most 256 KiB; at most 2,000 emoji per application."""
        self._check_app(app)
        body = body if isinstance(body, dict) else {}
        errs = _FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not _EMOJI_NAME.fullmatch(name):
            errs.add(["name"], "STRING_TYPE_REGEX", "String value did not match validation regex.")
        elif self.app_emoji(name) is not None:
            errs.add(["name"], "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.")
        m = _DATA_URI.fullmatch(str(body.get("image") or ""))
        try:
            image = base64.b64decode(m["data"], validate=True) if m else b""
        except (binascii.Error, ValueError):
            image = b""
        if not _is_picture(image):
            errs.add(["image"], "IMAGE_INVALID", "Invalid image data")
        elif len(image) > MAX_EMOJI_BYTES:
            errs.add(["image"], "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
        errs.raise_if_any()
        if len(self.app_emojis) >= self.app_emoji_limit:
            raise ApiError(400, 30008, "Maximum number of emojis reached")
        assert isinstance(name, str)
        return 201, copy.deepcopy(self.add_app_emoji(name))

    def _check_emoji(self, errs: _FormErrors, path: list[str | int], emoji: Any) -> None:
        """A component's custom emoji must exist (here: be one of the application's)."""
        known = not isinstance(emoji, dict) or emoji.get("id") is None
        if not known and int(emoji["id"]) not in self.app_emojis:
            errs.add([*path, "emoji", "id"], "COMPONENT_INVALID_EMOJI", "Invalid emoji")

    # ------------------------------------------------------------------ routes: commands

    def _check_app(self, app: str) -> None:
        if int(app) != self.app_id:
            raise ApiError(404, 10002, "Unknown Application")

    def _r_get_commands(
        self, call: Call, body: Any, files: list[JSON], app: str, guild: str | None = None
    ) -> tuple[int, Any]:
        self._check_app(app)
        if guild is None:
            return 200, copy.deepcopy(self.global_commands)
        return 200, copy.deepcopy(self.guild_commands.get(int(guild), []))

    def _r_put_commands(
        self, call: Call, body: Any, files: list[JSON], app: str, guild: str | None = None
    ) -> tuple[int, Any]:
        self._check_app(app)
        guild_id = None if guild is None else int(guild)
        if guild_id is not None and guild_id not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body", {"_errors": []})
        self._validate_commands(body)
        self.sync_payloads.append(SyncRecord(guild_id, copy.deepcopy(body)))
        stored = [self._store_command(cmd, guild_id) for cmd in body]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return 200, copy.deepcopy(stored)

    def _r_post_command(
        self, call: Call, body: Any, files: list[JSON], app: str, guild: str | None = None
    ) -> tuple[int, Any]:
        self._check_app(app)
        guild_id = None if guild is None else int(guild)
        self._validate_commands([body])
        cmd = self._store_command(body, guild_id)
        target = (
            self.global_commands
            if guild_id is None
            else self.guild_commands.setdefault(guild_id, [])
        )
        target[:] = [c for c in target if c["id"] != cmd["id"]] + [cmd]
        return 201, copy.deepcopy(cmd)

    def _store_command(self, cmd: JSON, guild_id: int | None) -> JSON:
        ctype = int(cmd.get("type", 1))
        key = (guild_id, cmd["name"], ctype)
        cid = self._command_ids.setdefault(key, self.snowflake())
        out = copy.deepcopy(cmd)
        out.update(
            {
                "id": str(cid),
                "application_id": str(self.app_id),
                "version": str(self.snowflake()),
                "type": ctype,
                "description": cmd.get("description", ""),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "nsfw": cmd.get("nsfw", False),
                "name_localizations": cmd.get("name_localizations"),
                "description_localizations": cmd.get("description_localizations"),
            }
        )
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    def _validate_commands(self, commands: list[JSON]) -> None:
        errs = _FormErrors()
        seen: set[tuple[str, int]] = set()
        for i, cmd in enumerate(commands):
            ctype = int(cmd.get("type", 1))
            key = (str(cmd.get("name")), ctype)
            if key in seen:
                errs.add([i, "name"], "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name")
            seen.add(key)
            self._validate_command_like(errs, [i], cmd, chat_input=ctype == 1, depth=0)
        if sum(1 for c in commands if int(c.get("type", 1)) == 1) > 100:
            errs.add([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        errs.raise_if_any()

    def _validate_command_like(
        self, errs: _FormErrors, path: list[str | int], item: JSON, *, chat_input: bool, depth: int
    ) -> None:
        def check_name(p: list[str | int], name: Any) -> None:
            if not isinstance(name, str) or not 1 <= len(name) <= 32:
                errs.add(p, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
                return
            if chat_input and (
                name != name.lower() or not all(c.isalnum() or c in "-_'" for c in name)
            ):
                errs.add(p, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name}")

        def check_desc(p: list[str | int], desc: Any) -> None:
            if chat_input and (not isinstance(desc, str) or not 1 <= len(desc) <= 100):
                errs.add(p, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")

        check_name([*path, "name"], item.get("name"))
        check_desc([*path, "description"], item.get("description"))
        for field_name, checker in (
            ("name_localizations", check_name),
            ("description_localizations", check_desc),
        ):
            locs = item.get(field_name) or {}
            for loc, value in locs.items():
                if loc not in VALID_LOCALES:
                    errs.add([*path, field_name, loc], "LOCALE_INVALID", f"Invalid locale {loc}")
                checker([*path, field_name, loc], value)
        options = item.get("options") or []
        if len(options) > 25:
            errs.add([*path, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        seen_optional = False
        names: set[str] = set()
        for j, opt in enumerate(options):
            opath: list[str | int] = [*path, "options", j]
            if opt.get("name") in names:
                errs.add([*opath, "name"], "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", "Dup")
            names.add(str(opt.get("name")))
            if opt.get("type") in (1, 2):
                if depth >= 2 or (opt.get("type") == 2 and depth >= 1):
                    errs.add([*opath, "type"], "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Nest")
                self._validate_command_like(errs, opath, opt, chat_input=True, depth=depth + 1)
                continue
            self._validate_command_like(errs, opath, opt, chat_input=True, depth=3)
            if opt.get("required"):
                if seen_optional:
                    errs.add(
                        [*opath, "required"],
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                seen_optional = True
            choices = opt.get("choices") or []
            if len(choices) > 25:
                errs.add([*opath, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
            for k, choice in enumerate(choices):
                cpath: list[str | int] = [*opath, "choices", k]
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    errs.add([*cpath, "name"], "BASE_TYPE_BAD_LENGTH", "Must be 1-100 long.")
                for loc, value in (choice.get("name_localizations") or {}).items():
                    if loc not in VALID_LOCALES:
                        errs.add([*cpath, "name_localizations", loc], "LOCALE_INVALID", loc)
                    if not 1 <= len(str(value)) <= 100:
                        errs.add(
                            [*cpath, "name_localizations", loc], "BASE_TYPE_BAD_LENGTH", "1-100"
                        )
                errs.max_len([*cpath, "value"], choice.get("value"), 100)

    def command(self, name: str, *, guild: FakeGuild | int | None = None) -> JSON | None:
        """A synced command by name (or any localized name); guild commands first."""
        pools: list[list[JSON]] = []
        if guild is not None:
            pools.append(self.guild_commands.get(_as_id(guild), []))
        pools.append(self.global_commands)
        for pool in pools:
            for cmd in pool:
                if int(cmd.get("type", 1)) == 1 and _name_matches(cmd, name):
                    return cmd
        return None

    # ------------------------------------------------------------------ routes: interactions

    def _r_callback(
        self, call: Call, body: Any, files: list[JSON], iid: str, token: str
    ) -> tuple[int, Any]:
        h = self.interactions.get(int(iid))
        if h is None or h.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        if h.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        # this request's own round trip is counted already; add the interaction's way in
        h.simulated_delay = self.simulated - h.simulated_at_dispatch + self.latency / 2
        late = self.now() - h.created_at + h.simulated_delay > RESPONSE_DEADLINE
        if self.strict_deadline and late:
            h.rejected_callbacks.append(call)
            raise ApiError(404, 10062, "Unknown interaction")
        if not isinstance(body, dict) or "type" not in body:
            raise ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": []}})
        ctype = int(body["type"])
        data: JSON = body.get("data") or {}
        is_component = h.kind in (MESSAGE_COMPONENT, MODAL_SUBMIT)
        message: StoredMessage | None = None
        loading = False
        if ctype == CB_MESSAGE and h.kind in (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT):
            self._validate_message(data, files=files, prefix=["data"])
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            message = self._create_message(
                h.channel_id, data, files, interaction=h, ephemeral=ephemeral
            )
            h.original_id = message.id
        elif ctype == CB_DEFERRED_MESSAGE and h.kind != AUTOCOMPLETE:
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            message = self._create_message(
                h.channel_id,
                {"content": "", "flags": LOADING},
                [],
                interaction=h,
                ephemeral=ephemeral,
            )
            h.original_id = message.id
            h.deferred_ephemeral = ephemeral
            h.awaiting_first_followup = True
            loading = True
        elif ctype == CB_DEFERRED_UPDATE and is_component:
            h.original_id = h.source_message_id
        elif ctype == CB_UPDATE and is_component:
            assert h.source_message_id is not None
            message = self.messages.get(h.source_message_id)
            if message is None or message.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            self._validate_message(data, files=files, prefix=["data"], existing=message)
            self._apply_edit(message, data, files)
            h.original_id = message.id
        elif ctype == CB_AUTOCOMPLETE and h.kind == AUTOCOMPLETE:
            choices = data.get("choices") or []
            errs = _FormErrors()
            if len(choices) > 25:
                errs.add(["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
            errs.raise_if_any()
        elif ctype == CB_MODAL and h.kind in (APPLICATION_COMMAND, MESSAGE_COMPONENT):
            pass
        else:
            raise ApiError(400, 40043, f"Interaction callback type {ctype} is invalid here")
        h.callback = copy.deepcopy(body)
        h.callback_type = ctype
        h.answered_at = self.now()
        h._answered.set()
        if call.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        inter: JSON = {"id": str(h.id), "type": h.kind}
        result: JSON = {"interaction": inter}
        if message is not None:
            inter.update(
                {
                    "response_message_id": str(message.id),
                    "response_message_loading": loading,
                    "response_message_ephemeral": message.is_ephemeral,
                }
            )
            result["resource"] = {"type": ctype, "message": copy.deepcopy(message.data)}
        return 200, result

    def _webhook_handle(self, call: Call, app: str, token: str) -> InteractionHandle:
        if int(app) != self.app_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        h = self._by_token.get(token)
        if h is None or h.token_expired():
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if h.callback is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return h

    def _webhook_message(self, h: InteractionHandle, mid: str) -> StoredMessage:
        if mid == "@original":
            if h.original_id is None:
                raise ApiError(404, 10008, "Unknown Message")
            msg = self.messages.get(h.original_id)
        else:
            msg = self.messages.get(int(mid))
            if msg is not None:
                own = msg.id in (h.original_id, *h.followup_ids) or msg.interaction_id == h.id
                shared = msg.is_public and str(msg.data.get("webhook_id")) == str(self.app_id)
                if not (own or shared):
                    msg = None
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _r_followup(
        self, call: Call, body: Any, files: list[JSON], app: str, token: str
    ) -> tuple[int, Any]:
        h = self._webhook_handle(call, app, token)
        body = body if isinstance(body, dict) else {}
        self._validate_message(body, files=files)
        wait = call.query.get("wait") in ("1", "true", "True")
        orig = h.original
        if h.awaiting_first_followup and orig is not None and orig.is_loading and not orig.deleted:
            # the first followup after a deferred (thinking) response replaces the loading
            # message and keeps the ephemerality chosen when deferring
            h.awaiting_first_followup = False
            self._apply_edit(orig, body, files)
            msg = orig
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            msg = self._create_message(
                h.channel_id, body, files, interaction=h, ephemeral=ephemeral
            )
        h.followup_ids.append(msg.id)
        return (200, copy.deepcopy(msg.data)) if wait else (204, None)

    def _r_webhook_get(
        self, call: Call, body: Any, files: list[JSON], app: str, token: str, mid: str
    ) -> tuple[int, Any]:
        h = self._webhook_handle(call, app, token)
        return 200, copy.deepcopy(self._webhook_message(h, mid).data)

    def _r_webhook_edit(
        self, call: Call, body: Any, files: list[JSON], app: str, token: str, mid: str
    ) -> tuple[int, Any]:
        h = self._webhook_handle(call, app, token)
        msg = self._webhook_message(h, mid)
        body = body if isinstance(body, dict) else {}
        self._validate_message(body, files=files, existing=msg)
        if msg.is_loading:
            h.awaiting_first_followup = False
        self._apply_edit(msg, body, files)
        return 200, copy.deepcopy(msg.data)

    def _r_webhook_delete(
        self, call: Call, body: Any, files: list[JSON], app: str, token: str, mid: str
    ) -> tuple[int, Any]:
        h = self._webhook_handle(call, app, token)
        self._webhook_message(h, mid).deleted = True
        return 204, None

    # ------------------------------------------------------------------ routes: channels

    def _channel(self, ch: str | int) -> FakeChannel:
        channel = self.channels.get(int(ch))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, ch: str, mid: str) -> StoredMessage:
        self._channel(ch)
        msg = self.messages.get(int(mid))
        # ephemeral messages are invisible to channel endpoints
        if msg is None or msg.deleted or msg.channel_id != int(ch) or msg.is_ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _r_get_channel(self, call: Call, body: Any, files: list[JSON], ch: str) -> tuple[int, Any]:
        return 200, self.channel_payload(self._channel(ch))

    def _r_history(self, call: Call, body: Any, files: list[JSON], ch: str) -> tuple[int, Any]:
        self._channel(ch)
        limit = max(1, min(100, int(call.query.get("limit", 50))))
        msgs = self.channel_messages(int(ch))
        if "before" in call.query:
            msgs = [m for m in msgs if m.id < int(call.query["before"])]
        if "after" in call.query:
            msgs = [m for m in msgs if m.id > int(call.query["after"])][:limit]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return 200, [copy.deepcopy(m.data) for m in msgs]

    def _r_create_message(
        self, call: Call, body: Any, files: list[JSON], ch: str
    ) -> tuple[int, Any]:
        channel = self._channel(ch)
        if channel.is_dm:
            assert channel.recipient_id is not None
            if self.users[channel.recipient_id].dm_closed:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        elif not channel.bot_can_send:
            raise ApiError(403, 50013, "Missing Permissions")
        body = body if isinstance(body, dict) else {}
        self._validate_message(body, files=files)
        msg = self._create_message(channel.id, body, files)
        return 200, copy.deepcopy(msg.data)

    def _r_get_message(
        self, call: Call, body: Any, files: list[JSON], ch: str, mid: str
    ) -> tuple[int, Any]:
        return 200, copy.deepcopy(self._channel_message(ch, mid).data)

    def _r_edit_message(
        self, call: Call, body: Any, files: list[JSON], ch: str, mid: str
    ) -> tuple[int, Any]:
        msg = self._channel_message(ch, mid)
        body = body if isinstance(body, dict) else {}
        self._validate_message(body, files=files, existing=msg)
        self._apply_edit(msg, body, files)
        return 200, copy.deepcopy(msg.data)

    def _r_delete_message(
        self, call: Call, body: Any, files: list[JSON], ch: str, mid: str
    ) -> tuple[int, Any]:
        self._channel_message(ch, mid).deleted = True
        return 204, None

    def _r_typing(self, call: Call, body: Any, files: list[JSON], ch: str) -> tuple[int, Any]:
        self._channel(ch)
        return 204, None

    def _r_create_dm(self, call: Call, body: Any, files: list[JSON]) -> tuple[int, Any]:
        uid = int((body or {}).get("recipient_id", 0))
        if uid not in self.users:
            errs = _FormErrors()
            errs.add(["recipient_id"], "NUMBER_TYPE_COERCE", "Unknown user")
            errs.raise_if_any()
        return 200, self.channel_payload(self.dm_channel(uid))

    def _r_get_user(self, call: Call, body: Any, files: list[JSON], uid: str) -> tuple[int, Any]:
        user = self.users.get(int(uid))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    def _guild(self, guild: str) -> FakeGuild:
        g = self.guilds.get(int(guild))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return g

    def _r_get_guild(self, call: Call, body: Any, files: list[JSON], guild: str) -> tuple[int, Any]:
        g = self._guild(guild)
        data = self.guild_payload(g)
        if call.query.get("with_counts") in ("1", "true", "True"):
            data["approximate_member_count"] = len(g.member_ids)
            data["approximate_presence_count"] = len(g.member_ids)
        return 200, data

    def _r_guild_channels(
        self, call: Call, body: Any, files: list[JSON], guild: str
    ) -> tuple[int, Any]:
        return 200, [self.channel_payload(c) for c in self._guild(guild).channels]

    def _r_get_member(
        self, call: Call, body: Any, files: list[JSON], guild: str, uid: str
    ) -> tuple[int, Any]:
        g = self._guild(guild)
        if int(uid) not in g.member_ids:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, self.member_payload(g, self.users[int(uid)], with_permissions=False)

    # ------------------------------------------------------------------ message storage

    def _create_message(
        self,
        channel_id: int,
        body: JSON,
        files: list[JSON],
        *,
        interaction: InteractionHandle | None = None,
        ephemeral: bool = False,
    ) -> StoredMessage:
        mid = self.snowflake()
        channel = self.channels[channel_id]
        flags = int(body.get("flags") or 0) & (
            SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 | LOADING
        )
        if ephemeral:
            flags |= EPHEMERAL
        data: JSON = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "type": 0,
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _iso(self.now()),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": self._mentions(body),
            "mention_roles": [],
            "attachments": self._attachments(channel_id, body, files),
            "embeds": self._embeds(body.get("embeds")),
            "components": self._number_components(body.get("components")),
            "reactions": [],
            "pinned": False,
            "flags": flags,
        }
        if "message_reference" in body:
            data["message_reference"] = body["message_reference"]
        if "poll" in body:
            data["poll"] = body["poll"]
        if interaction is not None:
            data["type"] = 20 if interaction.kind == APPLICATION_COMMAND else 0
            data["webhook_id"] = str(self.app_id)
            data["application_id"] = str(self.app_id)
            meta: JSON = {
                "id": str(interaction.id),
                "type": interaction.kind,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": self._integration_owners(interaction.guild_id),
            }
            if interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            data["interaction_metadata"] = meta
        msg = StoredMessage(
            mid,
            channel_id,
            data,
            ephemeral_to=interaction.user.id if (ephemeral and interaction) else None,
            dm_user_id=channel.recipient_id if channel.is_dm else None,
            interaction_id=None if interaction is None else interaction.id,
            created_at=self.now(),
        )
        self.messages[mid] = msg
        if not ephemeral and not flags & (LOADING | SUPPRESS_NOTIFICATIONS):
            self.pings += [(mid, int(user["id"])) for user in data["mentions"]]
        return msg

    def _mentions(self, body: JSON) -> list[JSON]:
        """The users `body`'s content mentions and its `allowed_mentions` permits."""
        mentioned = dict.fromkeys(int(u) for u in _USER_MENTION.findall(body.get("content") or ""))
        allowed = body.get("allowed_mentions")
        if allowed is not None and "users" not in (allowed.get("parse") or []):
            permitted = {int(u) for u in allowed.get("users") or []}
            mentioned = {u: None for u in mentioned if u in permitted}
        return [self.users[u].payload() for u in mentioned if u in self.users]

    def _apply_edit(self, msg: StoredMessage, body: JSON, files: list[JSON]) -> None:
        msg.versions.append(copy.deepcopy(msg.data))
        data = msg.data
        if "content" in body:
            data["content"] = body["content"] or ""
            data["mentions"] = self._mentions(body)  # updated, but nobody is pinged
        if "embeds" in body:
            data["embeds"] = self._embeds(body["embeds"])
        if "components" in body:
            data["components"] = self._number_components(body["components"])
        if "attachments" in body or files:
            data["attachments"] = self._attachments(msg.channel_id, body, files)
        flags = int(data.get("flags") or 0) & ~LOADING
        if body.get("flags") is not None:
            new = int(body["flags"])
            flags = (flags & ~SUPPRESS_EMBEDS) | (new & SUPPRESS_EMBEDS) | (new & IS_COMPONENTS_V2)
        data["flags"] = flags
        data["edited_timestamp"] = _iso(self.now())
        msg.edited_at = self.now()

    def _attachments(self, channel_id: int, body: JSON, files: list[JSON]) -> list[JSON]:
        out: list[JSON] = []
        for i, f in enumerate(files):
            aid = self.snowflake()
            url = f"{self.base_url}/attachments/{channel_id}/{aid}/{f['filename']}"
            out.append(
                {
                    "id": str(aid),
                    "filename": f["filename"],
                    "size": f["size"],
                    "url": url,
                    "proxy_url": url,
                    "index": i,
                }
            )
        for att in body.get("attachments") or []:
            if isinstance(att, dict) and len(str(att.get("id", ""))) > 3:
                out.append(att)  # an attachment kept from an earlier version
        return out

    @staticmethod
    def _embeds(embeds: Any) -> list[JSON]:
        out: list[JSON] = []
        for embed in embeds or []:
            e = copy.deepcopy(embed)
            e.setdefault("type", "rich")
            out.append(e)
        return out

    @staticmethod
    def _number_components(components: Any) -> list[JSON]:
        comps: list[JSON] = copy.deepcopy(components or [])
        next_id = 1
        for comp in walk_components(comps):
            if "id" not in comp:
                comp["id"] = next_id
            next_id = max(next_id, int(comp["id"])) + 1
        return comps

    # ------------------------------------------------------------------ validation

    def _validate_message(
        self,
        body: JSON,
        *,
        files: list[JSON],
        prefix: Sequence[str | int] = (),
        existing: StoredMessage | None = None,
    ) -> None:
        """Discord's checks on a message create (``existing`` None) or edit payload."""
        errs = _FormErrors()
        p = list(prefix)
        flags = int(body.get("flags") or 0)
        v2 = bool(flags & IS_COMPONENTS_V2) or bool(existing and existing.flags & IS_COMPONENTS_V2)
        content = body.get("content")
        errs.max_len([*p, "content"], content, MAX_CONTENT)
        embeds = body.get("embeds") or []
        if len(embeds) > MAX_EMBEDS:
            errs.add([*p, "embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer.")
        total = 0
        for i, e in enumerate(embeds):
            ep: list[str | int] = [*p, "embeds", i]
            errs.max_len([*ep, "title"], e.get("title"), 256)
            errs.max_len([*ep, "description"], e.get("description"), 4096)
            errs.max_len([*ep, "footer", "text"], (e.get("footer") or {}).get("text"), 2048)
            errs.max_len([*ep, "author", "name"], (e.get("author") or {}).get("name"), 256)
            for picture in ("thumbnail", "image"):
                url = str((e.get(picture) or {}).get("url", "https:"))
                if url.split(":", 1)[0] not in ("http", "https", "attachment"):
                    errs.add(
                        [*ep, picture, "url"],
                        "URL_TYPE_INVALID_SCHEME",
                        "Scheme must be one of ('http', 'https', 'attachment').",
                    )
            fields = e.get("fields") or []
            if len(fields) > 25:
                errs.add([*ep, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            for j, f in enumerate(fields):
                errs.max_len([*ep, "fields", j, "name"], f.get("name"), 256)
                errs.max_len([*ep, "fields", j, "value"], f.get("value"), 1024)
                if not f.get("name") or not f.get("value"):
                    errs.add([*ep, "fields", j], "BASE_TYPE_REQUIRED", "This field is required")
            total += sum(len(str(e.get(k) or "")) for k in ("title", "description"))
            total += len(str((e.get("footer") or {}).get("text") or ""))
            total += len(str((e.get("author") or {}).get("name") or ""))
            total += sum(len(str(f.get("name", ""))) + len(str(f.get("value", ""))) for f in fields)
        if total > MAX_EMBED_TOTAL:
            errs.add([*p, "embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size")
        components = body.get("components") or []
        if v2:
            if content or embeds:
                errs.add(
                    [*p, "content"],
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "content and embeds cannot be used with IS_COMPONENTS_V2",
                )
            if _count_components(components) > MAX_COMPONENTS_V2:
                errs.add(
                    [*p, "components"],
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_COMPONENTS_V2} or fewer in length.",
                )
            for comp in walk_components(components):
                if comp.get("type") == 1:
                    self._validate_row(errs, [*p, "components"], comp)
        else:
            if len(components) > MAX_ACTION_ROWS:
                errs.add(
                    [*p, "components"],
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ACTION_ROWS} or fewer in length.",
                )
            if (
                _count_components(c for row in components for c in row.get("components") or [])
                > MAX_COMPONENTS
            ):
                errs.add(
                    [*p, "components"],
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_COMPONENTS} or fewer in length.",
                )
            for i, row in enumerate(components):
                self._validate_row(errs, [*p, "components", i], row)
        seen: set[str] = set()
        for comp in walk_components(components):
            cid = comp.get("custom_id")
            if cid is not None:
                if cid in seen:
                    errs.add(
                        [*p, "components"],
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        f"Component custom id cannot be duplicated: {cid}",
                    )
                seen.add(cid)
        errs.raise_if_any()
        merged = {
            k: body[k] if k in body else (existing.data.get(k) if existing else None)
            for k in ("content", "embeds", "components", "attachments", "poll")
        }
        if not (any(merged.values()) or files or body.get("sticker_ids")):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _validate_row(self, errs: _FormErrors, path: list[str | int], row: JSON) -> None:
        if row.get("type") != 1:
            errs.add(
                [*path, "type"], "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).'
            )
            return
        children = row.get("components") or []
        if not children:
            errs.add([*path, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        types = [c.get("type") for c in children]
        if any(t in _SELECT_TYPES for t in types) and len(children) > 1:
            errs.add(
                [*path, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        if len(children) > MAX_ROW_BUTTONS:
            errs.add(
                [*path, "components"],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_ROW_BUTTONS} or fewer in length.",
            )
        for j, comp in enumerate(children):
            self._validate_component(errs, [*path, "components", j], comp)

    def _validate_component(self, errs: _FormErrors, path: list[str | int], comp: JSON) -> None:
        ctype = comp.get("type")
        errs.max_len([*path, "custom_id"], comp.get("custom_id"), MAX_CUSTOM_ID)
        if ctype == 2:
            errs.max_len([*path, "label"], comp.get("label"), MAX_BUTTON_LABEL)
            style = comp.get("style")
            if style == 5:
                if not comp.get("url"):
                    errs.add([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
            elif style != 6 and not comp.get("custom_id"):
                errs.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            if not comp.get("label") and not comp.get("emoji") and style != 6:
                errs.add([*path], "BUTTON_COMPONENT_INVALID", "A label or emoji is required")
            self._check_emoji(errs, path, comp.get("emoji"))
        elif ctype in _SELECT_TYPES:
            if not comp.get("custom_id"):
                errs.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            errs.max_len([*path, "placeholder"], comp.get("placeholder"), 150)
            min_v, max_v = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
            if not 0 <= min_v <= 25:
                errs.add([*path, "min_values"], "NUMBER_TYPE_MAX", "Must be between 0 and 25")
            if not 1 <= max_v <= 25:
                errs.add([*path, "max_values"], "NUMBER_TYPE_MAX", "Must be between 1 and 25")
            if ctype == 3:
                options = comp.get("options") or []
                if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                    errs.add(
                        [*path, "options"],
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                    )
                if max_v > len(options):
                    errs.add(
                        [*path, "max_values"],
                        "SELECT_COMPONENT_MAX_VALUES_INVALID",
                        "max_values exceeds the number of options",
                    )
                values: set[str] = set()
                for k, opt in enumerate(options):
                    op: list[str | int] = [*path, "options", k]
                    for key in ("label", "value", "description"):
                        errs.max_len([*op, key], opt.get(key), 100)
                    if not opt.get("label") or not opt.get("value"):
                        errs.add(op, "BASE_TYPE_REQUIRED", "label and value are required")
                    self._check_emoji(errs, op, opt.get("emoji"))
                    if opt.get("value") in values:
                        errs.add(
                            [*op, "value"],
                            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                            "Select option values must be unique",
                        )
                    values.add(str(opt.get("value")))
        else:
            errs.add([*path, "type"], "UNION_TYPE_CHOICES", f"Component type {ctype} not allowed")

    # ------------------------------------------------------------------ queries

    def message(self, message: StoredMessage | int | str) -> StoredMessage:
        return self.messages[_as_id(message)]

    def channel_messages(
        self,
        channel: FakeChannel | int,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[StoredMessage]:
        cid = _as_id(channel)
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.channel_id == cid
                and (include_ephemeral or not m.is_ephemeral)
                and (include_deleted or not m.deleted)
            ),
            key=lambda m: m.id,
        )

    def ephemeral_for(self, user: FakeUser | int) -> list[StoredMessage]:
        uid = _as_id(user)
        return sorted(
            (m for m in self.messages.values() if m.ephemeral_to == uid and not m.deleted),
            key=lambda m: m.id,
        )

    def dm_messages(self, user: FakeUser | int) -> list[StoredMessage]:
        uid = _as_id(user)
        return sorted(
            (m for m in self.messages.values() if m.dm_user_id == uid and not m.deleted),
            key=lambda m: m.id,
        )

    def visible_messages(self, user: FakeUser | int | None = None) -> list[StoredMessage]:
        """Public messages, plus (for ``user``) their ephemerals and DMs."""
        uid = None if user is None else _as_id(user)
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.is_public or (uid is not None and m.visible_to(uid))
            ),
            key=lambda m: m.id,
        )

    def all_visible_texts(self, public_only: bool = True) -> list[str]:
        """Texts (content, embed parts, component labels) of non-deleted messages.

        ``public_only=True``: only public guild-channel messages; ``False``: also every
        ephemeral message and every DM.
        """
        msgs = sorted(
            (
                m
                for m in self.messages.values()
                if not m.deleted and (m.is_public or not public_only)
            ),
            key=lambda m: m.id,
        )
        return [t for m in msgs for t in m.texts()]

    def visible_texts_for(self, user: FakeUser | int) -> list[str]:
        return [t for m in self.visible_messages(user) for t in m.texts()]

    def components(self, message: StoredMessage | JSON | int) -> list[JSON]:
        """Every component of a message (rows, buttons, selects, V2 parts), depth first."""
        return list(walk_components(self._message_components(message)))

    def find_component(
        self,
        message: StoredMessage | JSON | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> JSON | None:
        return find_component(self._message_components(message), label=label, custom_id=custom_id)

    def buttons(self, message: StoredMessage | JSON | int) -> list[JSON]:
        return [c for c in self.components(message) if c.get("type") == 2]

    def _message_components(self, message: StoredMessage | JSON | int) -> list[JSON]:
        if isinstance(message, dict):
            return list(message.get("components") or [])
        return self.message(message).raw_components

    def calls_to(self, substring: str, method: str | None = None) -> list[Call]:
        return [c for c in self.calls if substring in c.path and method in (None, c.method)]

    def _feed(self, event: Callable[[], object]) -> set[asyncio.Task[Any]]:
        """Run `event` (discord.py parsing a gateway payload) and keep the tasks it started:
        discord.py runs handlers, listeners and view callbacks as tasks of their own."""
        before = asyncio.all_tasks()
        event()
        spawned = asyncio.all_tasks() - before
        for task in spawned:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return spawned

    async def settle(self, timeout: float = GUARD) -> None:
        """Until every task an interaction or event started has finished, no request is in
        flight and every wait in `settle_also` is done; again until a pass makes no request.

        Waits on events, never on a quiet time: a busy machine only makes it later. `timeout`
        (real seconds) is a guard against a bot that never finishes."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    calls = len(self.calls)
                    while self._tasks:
                        await asyncio.wait(set(self._tasks))
                    await self._idle.wait()
                    for wait in self.settle_also:
                        await wait()
                    await self._idle.wait()
                    if len(self.calls) == calls and not self._tasks and self._inflight == 0:
                        return
        except TimeoutError:
            raise AssertionError(f"fake Discord did not settle within {timeout}s") from None

    # ------------------------------------------------------------------ interaction driver

    def _integration_owners(self, guild_id: int | None) -> JSON:
        return {"0": str(guild_id) if guild_id is not None else "0"}

    def _default_channel(self, user: FakeUser) -> FakeChannel:
        for guild in self.guilds.values():
            if user.id in guild.member_ids and guild.channels:
                return guild.channels[0]
        raise AssertionError(f"{user.name} is in no guild with a channel; pass channel=")

    def _new_handle(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        locale: str | None,
        message: StoredMessage | None = None,
        message_data: JSON | None = None,
    ) -> InteractionHandle:
        iid = self.snowflake()
        token = f"aW50ZXJhY3Rpb24.{iid}.{secrets.token_urlsafe(24)}"
        guild = None if channel.guild_id is None else self.guilds[channel.guild_id]
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": self.channel_payload(channel),
            "locale": locale or user.locale,
            "app_permissions": str(
                DEFAULT_APP_PERMISSIONS
                if channel.bot_can_send
                else DEFAULT_APP_PERMISSIONS & ~SEND_MESSAGES
            ),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": self._integration_owners(channel.guild_id),
            "context": 0 if guild is not None else 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            if user.id not in guild.member_ids:
                raise AssertionError(f"{user.name} is not a member of {guild.name}")
            payload["channel"]["permissions"] = str(user.permissions)
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = self.member_payload(guild, user, with_permissions=True)
        else:
            payload["user"] = user.payload()
        if message_data is not None:
            payload["message"] = copy.deepcopy(message_data)
        handle = InteractionHandle(
            fake=self,
            id=iid,
            token=token,
            kind=kind,
            user=user,
            channel_id=channel.id,
            guild_id=None if guild is None else guild.id,
            payload=payload,
            created_at=self.now(),
            source_message_id=None if message is None else message.id,
        )
        self.interactions[iid] = handle
        self._by_token[token] = handle
        return handle

    async def dispatch(
        self,
        bot: discord.Client,
        handle: InteractionHandle,
        *,
        timeout: float = GUARD,
        expect_response: bool = True,
        wait_tasks: bool = True,
    ) -> InteractionHandle:
        """Feed the INTERACTION_CREATE and wait (at most ``timeout``) for the bot.

        With ``wait_tasks`` (default) this waits until every task the dispatch started (command
        invoker, view / dynamic item callbacks, ``on_interaction`` listeners) has finished, so
        followups and edits made by the handler are recorded; otherwise it returns as soon as
        the callback arrived.  Raises AssertionError if the bot never answered (unless
        ``expect_response=False``).  ``timeout`` is real time, a guard only: whether the answer
        came in time is decided on the fake clock (`RESPONSE_DEADLINE`).
        """
        state: Any = bot._connection
        loop = asyncio.get_running_loop()
        handle.dispatched_at = self.now()
        handle.simulated_at_dispatch = self.simulated
        spawned = self._feed(lambda: state.parse_interaction_create(copy.deepcopy(handle.payload)))
        deadline = loop.time() + timeout
        if spawned and wait_tasks:
            _done, pending = await asyncio.wait(spawned, timeout=timeout)
            handle.finished = not pending
        elif spawned:
            answered = asyncio.ensure_future(handle._answered.wait())
            all_done = asyncio.ensure_future(asyncio.wait(spawned))
            await asyncio.wait(
                {answered, all_done}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            answered.cancel()
            all_done.cancel()  # cancels the waiting only, not the bot's tasks
            handle.finished = all(t.done() for t in spawned)
        else:
            handle.finished = True
        if expect_response and handle.callback is None and not handle.rejected_callbacks:
            remaining = deadline - loop.time()
            if remaining > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(handle._answered.wait(), remaining)
        if expect_response and handle.callback is None:
            late = " (it answered too late: 10062)" if handle.rejected_callbacks else ""
            raise AssertionError(
                f"bot did not answer interaction {handle.id} "
                f"({handle.payload['data']}) within {timeout}s{late}"
            )
        return handle

    def _check_command_access(self, cmd: JSON, user: FakeUser, channel: FakeChannel) -> None:
        """The Discord client only offers a command where / to whom it is allowed."""
        context = 1 if channel.is_dm else 0
        contexts = cmd.get("contexts")
        if (contexts is not None and context not in contexts) or (
            context == 1 and cmd.get("dm_permission") is False
        ):
            where = "DMs" if context else "guilds"
            raise AssertionError(f"/{cmd['name']} is not available in {where}")
        required = cmd.get("default_member_permissions")
        perms = user.permissions
        if (
            context == 0
            and required is not None
            and not perms & ADMINISTRATOR
            and perms & int(required) != int(required)
        ):
            raise AssertionError(f"{user.name} lacks permissions {required} for /{cmd['name']}")

    def _resolve_command(
        self, name: str, channel: FakeChannel, user: FakeUser
    ) -> tuple[JSON | None, list[str], list[JSON] | None]:
        """(command, [sub, ...] base names, option definitions of the leaf)."""
        parts = name.split()
        cmd = self.command(parts[0], guild=channel.guild_id)
        if cmd is None:
            if self.global_commands or self.guild_commands:
                raise AssertionError(f"no synced slash command named {parts[0]!r}")
            return None, parts[1:], None
        self._check_command_access(cmd, user, channel)
        subs: list[str] = []
        defs: list[JSON] = list(cmd.get("options") or [])
        for part in parts[1:]:
            sub = next(
                (o for o in defs if o.get("type") in (1, 2) and _name_matches(o, part)), None
            )
            if sub is None:
                raise AssertionError(f"command {cmd['name']!r} has no subcommand {part!r}")
            subs.append(sub["name"])
            defs = list(sub.get("options") or [])
        return cmd, subs, defs

    def _build_options(
        self,
        defs: list[JSON] | None,
        options: dict[str, Any],
        guild_id: int | None,
        resolved: JSON,
        focused: str | None,
    ) -> list[JSON]:
        out: list[JSON] = []
        used: set[str] = set()
        for given_name, value in options.items():
            defn = None
            if defs is not None:
                defn = next(
                    (
                        d
                        for d in defs
                        if d.get("type") not in (1, 2) and _name_matches(d, given_name)
                    ),
                    None,
                )
                if defn is None:
                    raise AssertionError(f"unknown option {given_name!r}")
            otype = int(defn["type"]) if defn else _infer_option_type(value)
            oname = defn["name"] if defn else given_name
            used.add(oname)
            if focused == oname and otype in (4, 10):
                # What is being typed is sent as it stands: "" or "1" for an integer option.
                shown: Any = str(value)
            else:
                shown = self._option_value(otype, value, guild_id, resolved)
            opt: JSON = {"name": oname, "type": otype, "value": shown}
            if defn and defn.get("choices") and focused != oname:
                allowed = [c["value"] for c in defn["choices"]]
                if opt["value"] not in allowed:
                    raise AssertionError(f"{oname}={opt['value']!r} is not one of {allowed}")
            if focused == oname:
                opt["focused"] = True
            out.append(opt)
        for d in defs or []:
            if d.get("required") and d["name"] not in used and d.get("type") not in (1, 2):
                raise AssertionError(f"required option {d['name']!r} missing")
        return out

    def _option_value(self, otype: int, value: Any, guild_id: int | None, resolved: JSON) -> Any:
        if otype in (6, 9) and isinstance(value, FakeUser | int):
            user = self.users[_as_id(value)]
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            guild = self.guilds.get(guild_id or 0)
            if guild is not None and user.id in guild.member_ids:
                member = self.member_payload(guild, user, with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if otype == 7:
            channel = self.channels[_as_id(value)]
            data = self.channel_payload(channel)
            data["permissions"] = str(DEFAULT_MEMBER_PERMISSIONS)
            resolved.setdefault("channels", {})[str(channel.id)] = data
            return str(channel.id)
        if otype == 4:
            return int(value)
        if otype == 10:
            return float(value)
        if otype == 5:
            return bool(value)
        if otype == 8:
            return str(_as_id(value))
        return str(value)

    def _command_data(
        self,
        user: FakeUser,
        name: str,
        options: dict[str, Any] | None,
        channel: FakeChannel,
        focused: str | None = None,
    ) -> JSON:
        cmd, subs, defs = self._resolve_command(name, channel, user)
        resolved: JSON = {}
        leaf = self._build_options(defs, dict(options or {}), channel.guild_id, resolved, focused)
        for sub in reversed(subs):
            leaf = [{"name": sub, "type": _sub_type(cmd, subs, sub), "options": leaf}]
        data: JSON = {
            "id": str(cmd["id"])
            if cmd
            else str(self._command_ids.setdefault((None, name.split()[0], 1), self.snowflake())),
            "name": cmd["name"] if cmd else name.split()[0],
            "type": 1,
        }
        if leaf:
            data["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        if cmd and cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    async def slash(
        self,
        bot: discord.Client,
        user: FakeUser,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        channel: FakeChannel | None = None,
        locale: str | None = None,
        timeout: float = GUARD,
        expect_response: bool = True,
        wait_tasks: bool = True,
    ) -> InteractionHandle:
        """Run ``/name`` (``"game new"`` for subcommands; localized names work too).

        Option names may be base or localized; types come from the synced command (or are
        inferred from the Python values when nothing was synced).  FakeUser values become USER
        options with ``resolved`` data.
        """
        channel = channel or self._default_channel(user)
        data = self._command_data(user, name, options, channel)
        handle = self._new_handle(APPLICATION_COMMAND, user, channel, data, locale=locale)
        return await self.dispatch(
            bot, handle, timeout=timeout, expect_response=expect_response, wait_tasks=wait_tasks
        )

    async def autocomplete(
        self,
        bot: discord.Client,
        user: FakeUser,
        name: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: FakeChannel | None = None,
        locale: str | None = None,
        timeout: float = GUARD,
    ) -> InteractionHandle:
        """An APPLICATION_COMMAND_AUTOCOMPLETE interaction; see ``handle.choices``."""
        channel = channel or self._default_channel(user)
        _cmd, _subs, defs = self._resolve_command(name, channel, user)
        focused_base = focused
        for d in defs or []:
            if _name_matches(d, focused):
                focused_base = d["name"]
        data = self._command_data(user, name, options, channel, focused=focused_base)
        handle = self._new_handle(AUTOCOMPLETE, user, channel, data, locale=locale)
        return await self.dispatch(bot, handle, timeout=timeout)

    def _component_target(
        self,
        user: FakeUser,
        message: StoredMessage | int,
        custom_id: str | None,
        label: str | None,
        snapshot: JSON | None,
        forge: bool = False,
    ) -> tuple[StoredMessage, JSON, JSON]:
        msg = self.message(message)
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted; nobody can click it")
        if not msg.visible_to(user.id):
            raise AssertionError(f"{user.name} cannot see message {msg.id}")
        mdata = copy.deepcopy(snapshot if snapshot is not None else msg.data)
        comp = find_component(mdata.get("components") or [], label=label, custom_id=custom_id)
        if comp is None:
            raise AssertionError(
                f"no component label={label!r} custom_id={custom_id!r} in message {msg.id}: "
                f"{[(c.get('label'), c.get('custom_id')) for c in walk_components(mdata.get('components') or [])]}"  # noqa: E501
            )
        if comp.get("disabled"):
            raise AssertionError(f"component {comp.get('custom_id')!r} is disabled")
        if not forge and comp.get("custom_id") not in self.custom_ids_ever(msg):
            raise ComponentRefused(
                f"message {msg.id} never had a component {comp.get('custom_id')!r}"
            )
        return msg, mdata, comp

    @staticmethod
    def custom_ids_ever(msg: StoredMessage) -> set[str]:
        """Every custom id any version of `msg` carried."""
        return {
            str(c["custom_id"])
            for version in [*msg.versions, msg.data]
            for c in walk_components(version.get("components") or [])
            if "custom_id" in c
        }

    def _channel_of(self, msg: StoredMessage) -> FakeChannel:
        return self.channels[msg.channel_id]

    async def click(
        self,
        bot: discord.Client,
        user: FakeUser,
        message: StoredMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        locale: str | None = None,
        snapshot: JSON | None = None,
        forge: bool = False,
        timeout: float = GUARD,
        expect_response: bool = True,
        wait_tasks: bool = True,
    ) -> InteractionHandle:
        """Click a button (by custom_id or label) on a message the user can see.

        ``snapshot`` (e.g. ``msg.versions[0]``) simulates a client still showing an old version.
        A custom id no version of the message had is refused (`ComponentRefused`) unless
        ``forge``: a modified client, for testing the bot's own defence should Discord let one
        through (unverified).
        """
        msg, mdata, comp = self._component_target(user, message, custom_id, label, snapshot, forge)
        if comp.get("type") != 2:
            raise AssertionError(f"component {comp.get('custom_id')!r} is not a button")
        if comp.get("style") in (5, 6):
            raise AssertionError("link / premium buttons do not create interactions")
        data: JSON = {"custom_id": comp["custom_id"], "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        handle = self._new_handle(
            MESSAGE_COMPONENT,
            user,
            self._channel_of(msg),
            data,
            locale=locale,
            message=msg,
            message_data=mdata,
        )
        return await self.dispatch(
            bot, handle, timeout=timeout, expect_response=expect_response, wait_tasks=wait_tasks
        )

    async def select(
        self,
        bot: discord.Client,
        user: FakeUser,
        message: StoredMessage | int,
        custom_id: str | None,
        values: Sequence[Any],
        *,
        placeholder: str | None = None,
        locale: str | None = None,
        snapshot: JSON | None = None,
        forge: bool = False,
        timeout: float = GUARD,
        expect_response: bool = True,
        wait_tasks: bool = True,
    ) -> InteractionHandle:
        """Choose ``values`` in a select menu (by custom_id or placeholder)."""
        msg, mdata, comp = self._component_target(
            user, message, custom_id, placeholder, snapshot, forge
        )
        ctype = int(comp.get("type", 0))
        if ctype not in _SELECT_TYPES:
            raise AssertionError(f"component {comp.get('custom_id')!r} is not a select")
        min_v, max_v = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not min_v <= len(values) <= max_v:
            raise AssertionError(f"select needs {min_v}..{max_v} values, got {len(values)}")
        data: JSON = {"custom_id": comp["custom_id"], "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        channel = self._channel_of(msg)
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise AssertionError(f"values {bad} are not options of the select: {allowed}")
            data["values"] = [str(v) for v in values]
        else:
            resolved: JSON = {}
            kind = 6 if ctype in (5, 7) else 7 if ctype == 8 else 8
            data["values"] = [
                self._option_value(kind, v, channel.guild_id, resolved) for v in values
            ]
            data["resolved"] = resolved
        handle = self._new_handle(
            MESSAGE_COMPONENT, user, channel, data, locale=locale, message=msg, message_data=mdata
        )
        return await self.dispatch(
            bot, handle, timeout=timeout, expect_response=expect_response, wait_tasks=wait_tasks
        )


# --------------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------------


def _name_matches(defn: JSON, name: str) -> bool:
    return defn.get("name") == name or name in (defn.get("name_localizations") or {}).values()


def _infer_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, FakeUser):
        return 6
    if isinstance(value, FakeChannel):
        return 7
    return 3


def _sub_type(cmd: JSON | None, subs: list[str], sub: str) -> int:
    """1 (subcommand) for the leaf, 2 (group) for a group in ``cmd`` -> group -> sub."""
    if cmd is None:
        return 1 if sub == subs[-1] else 2
    defs: list[JSON] = list(cmd.get("options") or [])
    for part in subs:
        found = next((o for o in defs if o.get("name") == part), None)
        if found is None:
            break
        if part == sub:
            return int(found.get("type", 1))
        defs = list(found.get("options") or [])
    return 1
