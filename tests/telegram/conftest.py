"""End-to-end harness: the fake Bot API on 127.0.0.1, the real Dispatcher polling it, the real
service on a SQLite file. Every test that uses `harness` gets its sent messages checked for
privacy when it ends (no card of anyone's hand in a group message)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from aiogram import BaseMiddleware
from aiogram.types import TelegramObject
from pydantic import SecretStr

from bot.config import Settings
from bot.presentation.i18n import LANGS, I18n
from bot.presentation.render import Renderer
from bot.service import Service
from bot.service.deadlines import DEFAULT_LOBBY_IDLE
from bot.service.views import BOT_PREFIX
from bot.storage import Storage
from bot.telegram.app import TelegramApp, create_bot
from bot.telegram.common import chat_key
from bot.telegram.sender import RateLimit
from core.cards import ALL_CARDS, COLORS
from core.game import Game
from tests.telegram.fake_bot_api import (
    ApiCall,
    CallbackAnswer,
    FakeBotAPI,
    FakeChat,
    FakeUser,
    StoredMessage,
)
from tests.telegram.players import hand_acts, policy

NAMES = {
    "ru": ["Алиса", "Борис", "Дина", "Глеб"],
    "uk": ["Оксана", "Тарас", "Ірина", "Богдан"],
}
TITLES = {"ru": "Вечер карт", "uk": "Вечір карток"}
TURN_ACTS = ("play", "pick", "draw", "pass", "accept", "challenge", "choose")


@cache
def renderer() -> Renderer:
    return Renderer(I18n(strict=True))


SETTLE_TIMEOUT = 30.0  # a bound for a hung bot, not a wait: settling waits on events
# The same for the sticker sync: the first one of a test process draws both languages' 222
# pictures, which takes longer than SETTLE_TIMEOUT on two cores loaded by other work.
STICKER_SYNC_BOUND = 180.0


class InFlight(BaseMiddleware):
    """Counts the updates the Dispatcher is handling, so that `settle` can wait for none.

    An update's handler task reaches this outer middleware in its first step, which the event
    loop runs before the polling request that confirms the update can reach the fake."""

    def __init__(self) -> None:
        self.count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        self.count += 1
        self._idle.clear()
        try:
            return await handler(event, data)
        finally:
            self.count -= 1
            if self.count == 0:
                self._idle.set()

    async def idle(self) -> None:
        await self._idle.wait()


class Harness:
    def __init__(
        self,
        api: FakeBotAPI,
        db_path: Path,
        *,
        lang: str = "ru",
        players: int = 4,
        seed: int = 1,
        bot_delay: float = 0.05,
        group_limit: RateLimit | None = None,
        started: Iterable[int] | None = None,
        lobby_idle: float | None = DEFAULT_LOBBY_IDLE,
        names: list[str] | None = None,
        app_options: dict[str, Any] | None = None,
        clock: Callable[[], float] | None = None,
        wait_stickers: bool = True,
    ) -> None:
        """`names`: the users' first names, instead of the language's usual ones;
        `app_options`: more keyword arguments for `TelegramApp`; `clock`: the service's time
        (a fake one), instead of the wall clock; `wait_stickers`: `start` returns once the
        sticker sets are synced (the bot syncs them in the background)."""
        self.app_options = app_options or {}
        self.wait_stickers = wait_stickers
        self.api = api
        self.db_path = db_path
        self.lang = lang
        self.seed = seed
        self.bot_delay = bot_delay
        self.group_limit = group_limit
        self.lobby_idle = lobby_idle
        self.clock = clock
        self.r = renderer()
        self.group = api.new_group(TITLES[lang])
        names = names or NAMES[lang]
        self.users = [api.new_user(name, language_code=lang) for name in names[:players]]
        for i, user in enumerate(self.users):
            if started is None or i in started:
                api.user_starts_bot(user)
        self.storage: Storage | None = None
        self.service: Service | None = None
        self.app: TelegramApp | None = None
        self._polling: asyncio.Task[None] | None = None
        self.inflight = InFlight()
        self.check_language = False

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self.storage = await Storage.open(self.db_path)
        seed = self.seed
        self.service = Service(
            self.storage,
            clock=self.clock or time.time,
            bot_delay=self.bot_delay,
            lobby_idle=self.lobby_idle,
            seed=lambda: seed,
        )
        await self.service.start()
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            telegram_token=SecretStr(self.api.token),
            telegram_api_base=self.api.base_url,  # the production session, pointed at the fake
        )
        self.app = TelegramApp(
            create_bot(settings),
            self.service,
            self.r,
            group_limit=self.group_limit,
            wait=5.0,
            freeze=False,
            **self.app_options,
        )
        self.inflight = InFlight()
        self.app.dp.update.outer_middleware(self.inflight)
        self._polling = asyncio.create_task(self.app.run_polling(polling_timeout=5))
        # Listening once a getUpdates is parked in the fake (it tells of every call); a bot
        # that stops instead fails at once, with its own error.
        listening = asyncio.ensure_future(
            self.api.wait_until(lambda: self.api.waiting_polls > 0, SETTLE_TIMEOUT)
        )
        await asyncio.wait([listening, self._polling], return_when=asyncio.FIRST_COMPLETED)
        if not listening.done():
            listening.cancel()
            self._polling.result()
            raise RuntimeError("the bot stopped before it polled")
        listening.result()
        if self.wait_stickers:
            await asyncio.wait_for(self.app.sticker_sync.wait(), STICKER_SYNC_BOUND)

    async def stop(self) -> None:
        if self.app is not None:
            await self.app.stop_polling()
            if self._polling is not None:
                await self._polling
            await self.app.close()
            self.app = None
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    async def restart(self) -> None:
        """A new process: new Dispatcher, Bot, service and storage on the same database."""
        await self.stop()
        await self.start()

    # ------------------------------------------------------------------ driving

    @property
    def svc(self) -> Service:
        assert self.service is not None
        return self.service

    async def settle(self) -> None:
        """Until the bot has handled every injected update and sent what it queued.

        Waits on events, never on a quiet time: every update fetched (the fake saw the next
        offset), no handler running (`InFlight`), every queue drained; again until a pass makes
        no call. A busy machine only makes it later. (Timer outcomes are not updates: tests
        that need one wait for `app.timers`.)"""
        assert self.app is not None
        while True:
            calls = self.api.call_count
            await self.api.idle(quiet=0, timeout=SETTLE_TIMEOUT)
            await asyncio.wait_for(self.inflight.idle(), SETTLE_TIMEOUT)
            await self.app.sender.drain(SETTLE_TIMEOUT)
            await self.app.delivery.settled(SETTLE_TIMEOUT)  # outbox entries marked sent
            await self.api.idle(quiet=0, timeout=SETTLE_TIMEOUT)
            if self.api.call_count == calls and self.inflight.count == 0:
                return

    async def say(
        self, user: FakeUser, text: str, chat: FakeChat | int | None = None, **kw: Any
    ) -> StoredMessage:
        msg = self.api.send_message(user, self.group if chat is None else chat, text, **kw)
        await self.settle()
        return msg

    async def press(
        self, user: FakeUser, chat: FakeChat | int, message_id: int, data: str, strict: bool = True
    ) -> CallbackAnswer:
        query = self.api.press(user, chat, message_id, data, strict=strict)
        # The bot answers after the private chats are updated; group edits may still be queued.
        await self.api.wait_for(
            lambda c: c.is_("answerCallbackQuery") and c.params.get("callback_query_id") == query
        )
        answer = self.api.callback_answer(query)
        assert answer is not None
        return answer

    async def new_game(self, *, preset: str = "classic", players: int | None = None) -> int:
        """/new, /join, the preset from the settings keyboard, /start; returns the game id."""
        users = self.users[: players or len(self.users)]
        await self.say(users[0], "/new")
        for user in users[1:]:
            await self.say(user, "/join@" + (self.api.bot.username or ""))
        if preset != "classic":
            await self.set_setting(users[0], "preset", preset)
        await self.say(users[0], "/start")
        return await self.game_id()

    async def set_setting(self, user: FakeUser, key: str, value: str) -> CallbackAnswer:
        await self.say(user, "/settings")
        msg = self.api.last_message(self.group.id)
        return await self.press(user, self.group, msg.message_id, f"s:{key}:{value}")

    async def game_id(self) -> int:
        assert self.storage is not None
        rec = await self.storage.active_game(chat_key(self.group.id))
        assert rec is not None
        return rec.id

    async def game(self) -> Game:
        assert self.storage is not None
        rec = await self.storage.active_game(chat_key(self.group.id))
        assert rec is not None and rec.state is not None
        return Game.from_dict(rec.state)

    async def install(self, game: Game, *, reopen: bool = True) -> None:
        """A hand-made position in the running game; players then reopen their hands (unless
        not `reopen`: committed behind the bot's back, nobody shown it)."""
        assert self.storage is not None
        rec = await self.storage.active_game(chat_key(self.group.id))
        assert rec is not None
        meta = dict(rec.meta, players=list(game.players), hand_sig={}, hand_ver={}, timeouts={})
        await self.storage.commit(
            rec.id, rec.version, state=game.to_dict(), meta=meta, status="running", deadline=None
        )
        for user in self.users:
            if reopen and str(user.id) in game.players:
                await self.open_hand(user)

    async def open_hand(self, user: FakeUser) -> None:
        """The "my cards" deep link: /start g<id> in the private chat."""
        await self.say(user, f"/start g{await self.game_id()}", chat=user.id)

    async def ref(self, key: str) -> int | None:
        assert self.storage is not None
        value = await self.storage.get_ref(await self.game_id(), key)
        return None if value is None else int(value)

    async def table(self) -> StoredMessage:
        mid = await self.ref("tg:table")
        assert mid is not None
        return self.api.message(self.group.id, mid)

    async def hand(self, user: FakeUser) -> StoredMessage:
        mid = await self.ref(f"tg:hand:{user.id}")
        assert mid is not None, f"no hand message for {user.first_name}"
        return self.api.message(user.id, mid)

    async def acts(self, user: FakeUser) -> dict[str, str]:
        """The hand's buttons: action -> callback data."""
        return hand_acts(await self.hand(user))

    async def act(self, user: FakeUser, act: str) -> CallbackAnswer:
        """Press the hand's button for `act` (it must be on the current keyboard)."""
        acts = await self.acts(user)
        assert act in acts, f"{user.first_name}: no {act!r} in {sorted(acts)}"
        msg = await self.hand(user)
        return await self.press(user, user.id, msg.message_id, acts[act])

    async def play(self, user: FakeUser, card: str, color: str | None = None) -> CallbackAnswer:
        if color is None:
            return await self.act(user, f"play {card}")
        await self.act(user, f"pick play {card}")
        return await self.act(user, f"play {card} {color}")

    async def press_button(self, user: FakeUser, label: str) -> CallbackAnswer:
        msg, button = self.api._find_button(self.group.id, label, None)
        return await self.press(user, self.group, msg.message_id, button["callback_data"])

    def user(self, player: str) -> FakeUser:
        return next(u for u in self.users if str(u.id) == player)

    def group_texts(self) -> list[str]:
        return self.api.sent_texts(self.group.id)


# ---------------------------------------------------------------------- the checks


@cache
def card_pattern() -> re.Pattern[str]:
    """Any card label in any language and mode (longest first, so `🌈 +4` wins over `🌈`)."""
    i18n = renderer().i18n
    labels = set()
    for lang in LANGS:
        for colorblind in (False, True):
            for card in ALL_CARDS:
                labels.add(i18n.card_label(lang, card, colorblind=colorblind))
                if card.is_wild:
                    for color in COLORS:
                        labels.add(i18n.card_label(lang, card, color, colorblind))
    ordered = sorted(labels, key=len, reverse=True)
    return re.compile("|".join(re.escape(label) for label in ordered))


@dataclass
class Sent:
    chat_id: int
    text: str
    buttons: list[str] = field(default_factory=list)


def sent_text(call: ApiCall) -> str | None:
    """The text (or a photo's caption) a successful call of the bot showed, None for other
    calls: the one place that knows where each method carries its words."""
    if not call.ok:
        return None
    if call.is_("sendMessage") or call.is_("editMessageText"):
        return str(call.params.get("text"))
    if call.is_("sendPhoto") or call.is_("editMessageCaption"):
        return str(call.params.get("caption") or "")
    if call.is_("editMessageMedia"):
        return str((call.params.get("media") or {}).get("caption") or "")
    return None


def bot_texts(api: FakeBotAPI) -> list[Sent]:
    """Every text (and caption) the bot sent or edited to, with its buttons' labels."""
    out = []
    for call in api.calls():
        text = sent_text(call)
        if text is not None:
            chat = call.chat_id
            if chat is None and "inline_message_id" in call.params:  # a message chosen inline
                chat = api.inline_chat(str(call.params["inline_message_id"]))
            assert isinstance(chat, int)
            markup = call.params.get("reply_markup") or {}
            labels = [b["text"] for row in markup.get("inline_keyboard", []) for b in row]
            out.append(Sent(chat, text, labels))
    return out


def privacy_violations(api: FakeBotAPI) -> list[str]:
    """Group messages that show anyone's cards: a line with two cards (a hand), a line made of
    cards only, or a player's hand heading."""
    pattern = card_pattern()
    r = renderer()
    headings = {r.t(lang, "hand-title", count=n).split("(")[0] for lang in LANGS for n in (1, 5)}
    problems = []
    for sent in bot_texts(api):
        if sent.chat_id >= 0:
            continue
        for line in sent.text.splitlines():
            cards = pattern.findall(line)
            rest = pattern.sub("", line).strip(" ,.:•")
            if len(cards) > 1 or (cards and not rest):
                problems.append(f"cards {cards} in group line {line!r}")
            if any(h and h in line for h in headings):
                problems.append(f"a hand heading in group line {line!r}")
    return problems


UK_ONLY = re.compile("[іїєґІЇЄҐ]")
RU_ONLY = re.compile("[ыэъёЫЭЪЁ]")
LATIN = re.compile(r"[A-Za-z]{2,}")
MESSAGE_ID = re.compile(r"\b[a-z]+(-[a-z]+)+\b")


def language_violations(api: FakeBotAPI, lang: str, allowed: Iterable[str] = ()) -> list[str]:
    """Texts, buttons and alerts not in `lang`: the other language's letters, English words,
    message ids or placeholders. `allowed` strings (the users' names) are removed first."""
    other = UK_ONLY if lang == "ru" else RU_ONLY
    texts = []
    for sent in bot_texts(api):
        texts.append(sent.text)
        texts.extend(sent.buttons)
    for call in api.calls("answerCallbackQuery"):
        if call.params.get("text"):
            texts.append(str(call.params["text"]))
    problems = []
    for text in texts:
        clean = re.sub(r"/[a-z]+(@\w+)?", "", text)
        for name in allowed:
            clean = clean.replace(name, "")
        if other.search(clean):
            problems.append(f"other language: {text!r}")
        if LATIN.search(clean):
            problems.append(f"latin letters: {text!r}")
        if MESSAGE_ID.search(clean) or "{" in clean or "$" in clean:
            problems.append(f"untranslated: {text!r}")
    return problems


def bot_players(game: Game) -> list[str]:
    return [p for p in game.players if p.startswith(BOT_PREFIX)]


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    async with FakeBotAPI() as fake:
        yield fake


@pytest.fixture
def make_harness(api: FakeBotAPI, tmp_path: Path) -> Callable[..., Harness]:
    made: list[Harness] = []

    def make(**kwargs: Any) -> Harness:
        harness = Harness(api, tmp_path / f"uno{len(made)}.sqlite3", **kwargs)
        made.append(harness)
        return harness

    return make


@pytest.fixture
async def harness(
    api: FakeBotAPI, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Harness]:
    options = getattr(request, "param", {})
    h = Harness(api, tmp_path / "uno.sqlite3", **options)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert privacy_violations(api) == []
    if h.check_language:
        names = [u.first_name for u in h.users] + [TITLES[h.lang]]
        assert language_violations(api, h.lang, names) == []


async def can_act(h: Harness, user: FakeUser) -> dict[str, str] | None:
    """The user's hand buttons if it is their turn (a turn action is on the keyboard)."""
    if await h.ref(f"tg:hand:{user.id}") is None:
        return None
    acts = await h.acts(user)
    return acts if any(a.split()[0] in TURN_ACTS for a in acts) else None


async def press_turn(h: Harness, users: list[FakeUser]) -> FakeUser | None:
    """The first of `users` who can act presses the button `policy` picks, and is not refused;
    who pressed, None when none of them can act."""
    for user in users:
        acts = await can_act(h, user)
        if acts:
            act = policy(acts)
            assert act is not None
            answer = await h.act(user, act)
            assert answer.text is None, (user.first_name, act, answer.text)
            return user
    return None


async def play_until(
    h: Harness, done: Callable[[Game], bool], users: list[FakeUser], max_moves: int = 600
) -> int:
    """Everyone plays `policy` through their private buttons until `done(game)`."""
    for moves in range(max_moves):
        if done(await h.game()):
            return moves
        if await press_turn(h, users) is None:
            raise AssertionError(f"nobody can act: {await h.game()}")
    raise AssertionError("not done")
