"""The Discord bot end to end against the fake Discord REST server: lobby, a whole round, UNO,
challenges, stale and foreign buttons, a restart mid-round, hands by DM, token lifetime, deferral.

Every interaction is a real INTERACTION_CREATE payload fed to discord.py; everything the bot sends
goes through HTTP to the fake on 127.0.0.1. The `Table` harness here is shared by the other
Discord test modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord import layout
from bot.discord.app import UnoBot
from bot.discord.publisher import TABLE_REF
from bot.discord.reply import DEFER_AFTER
from bot.presentation.i18n import I18n
from bot.presentation.render import Renderer
from bot.service import Service
from bot.service.deadlines import DEFAULT_LOBBY_IDLE
from bot.service.match import meta_from_dict
from bot.storage import Storage
from core.ai import Level
from core.game import Game
from core.rules import Rules
from tests.discord.fake_discord import (
    FakeDiscord,
    FakeUser,
    FakeWorld,
    InteractionHandle,
    StoredMessage,
    message_texts,
    walk_components,
)
from tests.service.conftest import FakeClock

ROBOT = "ai:1"
NAMES = {"ru": ["Аня", "Боря", "Вика", "Глеб"], "uk": ["Оксана", "Тарас", "Ірина", "Богдан"]}
RENDERER = Renderer(I18n(strict=True))
SLOW_WORK = DEFER_AFTER + 0.5  # simulated seconds of a service call that must be deferred
JSON = dict[str, Any]


class _Errors(logging.Handler):
    """ERROR records of the bot's own loggers (discord.py's are in `fake.bot_errors`)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Table:
    """One guild channel with four members, the bot, its service and a clock for the service."""

    fake: FakeDiscord
    world: FakeWorld
    db_path: Path
    clock: Callable[[], float]
    storage: Storage
    service: Service
    bot: UnoBot
    lang: str
    errors: _Errors
    handles: list[InteractionHandle] = field(default_factory=list)
    bot_options: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ world

    @property
    def users(self) -> list[FakeUser]:
        return self.world.users

    @property
    def chat(self) -> str:
        return f"dc:{self.world.channel.id}"

    def uid(self, user: FakeUser) -> str:
        return str(user.id)

    # ------------------------------------------------------------------ driving

    def _check(self, handle: InteractionHandle) -> InteractionHandle:
        self.handles.append(handle)
        assert handle.answered_within(3.0), handle
        return handle

    async def slash(
        self, user: FakeUser, name: str, options: dict[str, Any] | None = None
    ) -> InteractionHandle:
        return self._check(await self.fake.slash(self.bot, user, name, options))

    async def click(
        self,
        user: FakeUser,
        message: StoredMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        snapshot: JSON | None = None,
        forge: bool = False,
    ) -> InteractionHandle:
        handle = await self.fake.click(
            self.bot, user, message, custom_id, label=label, snapshot=snapshot, forge=forge
        )
        return self._check(handle)

    async def select(
        self, user: FakeUser, message: StoredMessage, custom_id: str, value: str
    ) -> InteractionHandle:
        return self._check(await self.fake.select(self.bot, user, message, custom_id, [value]))

    # ------------------------------------------------------------------ the game

    async def table_message(self) -> StoredMessage:
        rec = await self.storage.active_game(self.chat)
        if rec is None:
            rec = await self.storage.get_game(await self._last_game_id())
        assert rec is not None
        ref = await self.storage.get_ref(rec.id, TABLE_REF)
        assert ref is not None
        return self.fake.message(int(ref))

    async def _last_game_id(self) -> int:
        game_id = 0
        for i in range(1, 1000):
            rec = await self.storage.get_game(i)
            if rec is None:
                break
            game_id = i
        return game_id

    async def game(self) -> Game:
        rec = await self.storage.active_game(self.chat)
        assert rec is not None and rec.state is not None
        return Game.from_dict(rec.state)

    async def version(self) -> int:
        rec = await self.storage.active_game(self.chat)
        assert rec is not None
        return rec.version

    async def lobby(self, *players: FakeUser) -> StoredMessage:
        """/new by the first player, the others join (by button and by /join alternately)."""
        new = await self.slash(players[0], "new")
        table = new.original
        assert table is not None and not table.is_ephemeral
        for i, user in enumerate(players[1:]):
            if i % 2 == 0:
                await self.click(user, table, label=RENDERER.t(self.lang, "btn-join"))
            else:
                await self.slash(user, "join")
        return table

    async def started(self, *players: FakeUser) -> StoredMessage:
        table = await self.lobby(*players)
        await self.click(players[0], table, label=RENDERER.t(self.lang, "btn-start"))
        return table

    async def install(self, game: Game) -> None:
        """Replace the running game's engine state with a hand-made position."""
        rec = await self.storage.active_game(self.chat)
        assert rec is not None
        meta = dict(
            rec.meta, players=list(game.players), hand_sig={}, hand_ver={}, timeouts={}, recent=[]
        )
        meta.pop("turn", None)  # no turn of the position began yet: the next move's begins
        await self.storage.commit(
            rec.id, rec.version, state=game.to_dict(), meta=meta, status="running", deadline=None
        )

    def position(self, hands: dict[FakeUser, str], **kwargs: Any) -> Game:
        defaults: dict[str, Any] = dict(
            players=[self.uid(u) for u in hands],
            hands={self.uid(u): cards for u, cards in hands.items()},
            discard="r1",
            draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3 b4 b5 b6 b7 b8",
            rules=Rules.preset("classic"),
        )
        defaults.update(kwargs)
        return Game.from_position(**defaults)

    async def my_cards(self, user: FakeUser) -> StoredMessage:
        table = await self.table_message()
        handle = await self.click(user, table, label=RENDERER.t(self.lang, "btn-my-cards"))
        message = handle.original
        assert message is not None and message.is_ephemeral and message.ephemeral_to == user.id
        return message

    async def press(self, user: FakeUser, message: StoredMessage, key: str) -> InteractionHandle:
        """Press the hand button whose act is `key` (`play r7`, `draw`, `pick play wild4`)."""
        button = hand_button(message, key)
        assert button is not None, (key, hand_keys(message))
        return await self.click(user, message, button["custom_id"])

    def slow_past_deferral(self, monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
        """The use cases `names` (`lobby.join`) take `SLOW_WORK` seconds, longer than the bot's
        `defer_after`: each moves the fake clock that far, then holds its work until Discord
        has the interaction's answer, which can only be the deferral. No real time counts."""
        for name in names:
            role, _, case = name.partition(".")
            cases = getattr(self.service, role)
            original = getattr(cases, case)

            async def call(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                handle = list(self.fake.interactions.values())[-1]  # the one being handled
                self.fake.advance(SLOW_WORK)
                await handle.wait_answered()
                return await _original(*args, **kwargs)

            monkeypatch.setattr(cases, case, call)

    async def run_due(self) -> None:
        """Let the computer players and timers act now, published like the timer loop does."""
        for out in await self.service.clock.run_due(math.inf):
            await self.bot.publisher.publish_timed(out)

    # ------------------------------------------------------------------ restart

    async def restart(self) -> None:
        """A new process: the old bot stops, a new service opens the same database."""
        await self.shutdown_for_restart()
        await self.boot_after_restart()

    async def shutdown_for_restart(self) -> None:
        """The old process stops (the storage stays open: a test may change it meanwhile)."""
        await self.fake.shutdown(self.bot)

    async def boot_after_restart(self) -> None:
        await self.storage.close()
        self.storage = await Storage.open(self.db_path, clock=self.clock)
        self.service = Service(self.storage, clock=self.clock, bot_delay=2.0, seed=lambda: 4242)
        await self.service.start()
        self.bot = UnoBot(self.service, renderer=RENDERER, **self.bot_options)
        await self.fake.boot(self.bot)

    async def bot_idle(self) -> None:
        """Until the bot's outbox delivery has settled what it tracked and, with card emoji, the
        upload is over (`FakeDiscord.settle` waits for this too)."""
        if self.bot.delivery is not None:
            await self.bot.delivery.settled()
        if self.bot_options.get("card_emoji"):
            await self.bot.emoji.ready.wait()

    # ------------------------------------------------------------------ checks

    def assert_clean(self) -> None:
        assert not self.fake.bot_errors, self.fake.bot_errors
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]
        assert not self.fake.internal_errors, self.fake.internal_errors
        assert not self.fake.unknown_calls, self.fake.unknown_calls
        for handle in self.fake.interactions.values():
            assert handle.answered_within(3.0), handle
            assert not handle.rejected_callbacks, handle
        # No token was used after its 15 minutes (Discord answers 50027).
        assert not [c for c in self.fake.calls if c.status == 401]


def hand_keys(message: StoredMessage | JSON) -> list[str]:
    """Action keys of a hand message's buttons (`h:<game>:<version>:<key>`)."""
    data = message.data if isinstance(message, StoredMessage) else message
    keys = []
    for comp in walk_components(data.get("components") or []):
        cid = str(comp.get("custom_id", ""))
        if cid.startswith("h:"):
            keys.append(cid.split(":", 3)[3])
    return keys


def hand_button(message: StoredMessage | JSON, key: str) -> JSON | None:
    data = message.data if isinstance(message, StoredMessage) else message
    for comp in walk_components(data.get("components") or []):
        cid = str(comp.get("custom_id", ""))
        if cid.startswith("h:") and cid.split(":", 3)[3] == key:
            return comp
    return None


def hand_version(message: StoredMessage | JSON) -> int | None:
    data = message.data if isinstance(message, StoredMessage) else message
    for comp in walk_components(data.get("components") or []):
        cid = str(comp.get("custom_id", ""))
        if cid.startswith(("h:", "hm:")):
            return int(cid.split(":")[2])
    return None


def every_payload(
    fake: FakeDiscord, *, public_only: bool, since: dict[int, int] | None = None
) -> Iterator[tuple[StoredMessage, JSON]]:
    """Every version of every message the bot sent (what anyone could ever have seen).

    `since` (message id -> number of versions, from `versions_now`) keeps only what was sent
    or edited after that moment.
    """
    for message in sorted(fake.messages.values(), key=lambda m: m.id):
        if public_only and (message.is_ephemeral or message.is_dm):
            continue
        states = [*message.versions, message.data]
        first = 0 if since is None or message.id not in since else since[message.id] + 1
        for data in states[first:]:
            yield message, data


def versions_now(fake: FakeDiscord) -> dict[int, int]:
    return {m.id: len(m.versions) for m in fake.messages.values()}


def every_text(fake: FakeDiscord, *, public_only: bool) -> list[str]:
    return [
        t for _, data in every_payload(fake, public_only=public_only) for t in message_texts(data)
    ]


def table_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """`async with make_table(locale="ru") as t:` a booted bot in a fresh world.

    Other modules define their own `make_table` fixture returning this factory.
    """

    @contextlib.asynccontextmanager
    async def make(
        locale: str = "ru",
        lang: str | None = None,
        bot_delay: float = 2.0,
        clock: Callable[[], float] | None = None,
        **bot_options: Any,
    ) -> AsyncIterator[Table]:
        """`clock`: the service's and the storage's (a `FakeClock` unless given)."""
        lang = lang or ("uk" if locale == "uk" else "ru")
        errors = _Errors()
        logging.getLogger("bot").addHandler(errors)
        clock = clock or FakeClock()
        db_path = tmp_path / f"uno-{locale}.sqlite3"
        storage = await Storage.open(db_path, clock=clock)
        service = Service(storage, clock=clock, bot_delay=bot_delay, seed=lambda: 4242)
        await service.start()
        options = {"timers": False, "card_emoji": False, **bot_options}
        table: Table | None = None
        try:
            async with FakeDiscord() as fake:
                monkeypatch.setattr(discord.utils, "utcnow", fake.utcnow)
                # The bot defers on the fake's simulated clock: only a test that moves it (or
                # simulates a slow network) sees a deferral, however busy the machine is.
                options.setdefault("clock", fake.clock)
                world = fake.setup_guild(NAMES[lang], locale=locale)
                bot = UnoBot(service, renderer=RENDERER, **options)
                await fake.boot(bot)
                await bot.tree.sync()
                table = Table(
                    fake, world, db_path, clock, storage, service, bot, lang, errors,
                    bot_options=options,
                )  # fmt: skip
                fake.settle_also.append(table.bot_idle)
                yield table
                await fake.settle()
        finally:
            logging.getLogger("bot").removeHandler(errors)
            await storage.close()
            if table is not None:
                await table.storage.close()

    return make


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


# ============================================================================== tests

LEVEL_IDS = ("l:1:easy", "l:1:strong")  # the first game's level button, either way


async def test_lobby_by_buttons_and_commands(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, gleb = t.users
        table = await t.lobby(anya, borya, vika)
        assert table.is_public
        assert all(n in table.content for n in ("Аня", "Боря", "Вика"))
        assert [c["custom_id"] for c in t.fake.buttons(table)] == [
            f"l:1:{op}" for op in ("join", "addbot", "start", "strong")
        ]
        joined = [m for m in t.fake.channel_messages(t.world.channel) if "Вика" in m.content]
        assert joined, "the /join answer is public"
        # Joining twice is refused privately; the robot button adds a computer player.
        again = await t.click(borya, table, label=RENDERER.t("ru", "btn-join"))
        assert again.ephemeral and RENDERER.t("ru", "error-already-joined") in again.text
        await t.click(anya, table, label=RENDERER.t("ru", "btn-addbot"))
        assert RENDERER.t("ru", "bot-name", number=1) in table.content
        # Only a player (or an admin) starts; Gleb is neither.
        refused = await t.click(gleb, table, label=RENDERER.t("ru", "btn-start"))
        not_joined = RENDERER.t("ru", "error-not-joined").split(" (")[0]
        assert refused.ephemeral and not_joined in refused.text
        start = await t.click(anya, table, label=RENDERER.t("ru", "btn-start"))
        assert start.callback_type == 7 and start.original_id == table.id  # edited in place
        assert [c["custom_id"] for c in t.fake.buttons(table)] == ["t:1"]
        assert RENDERER.t("ru", "table-title", round=1) in table.content
        t.assert_clean()


async def test_the_lobby_chooses_the_robots_level(make_table: Callable[..., Any]) -> None:
    """The button names the level in force and asks for the other one; the game plays it."""
    async with make_table() as t:
        anya, borya, _, gleb = t.users
        table = await t.lobby(anya, borya)
        easy, strong = (RENDERER.t("ru", "btn-bot-level", level=x) for x in ("easy", "strong"))

        def level_button() -> tuple[str, str]:
            [button] = [b for b in t.fake.buttons(table) if b["custom_id"] in LEVEL_IDS]
            return button["label"], button["custom_id"]

        assert level_button() == (easy, "l:1:strong")
        await t.click(anya, table, label=RENDERER.t("ru", "btn-addbot"))
        assert RENDERER.t("ru", "lobby-bot-level", level="easy") in table.content
        # Gleb has not joined: he may not choose, and the lobby stays as it was.
        shown = table.content
        refused = await t.click(gleb, table, label=easy)
        not_joined = RENDERER.t("ru", "error-not-joined").split(" (")[0]
        assert refused.ephemeral and not_joined in refused.text
        assert table.content == shown and level_button() == (easy, "l:1:strong")
        before = copy.deepcopy(table.data)
        pressed = await t.click(borya, table, label=easy)
        assert pressed.callback_type == 7 and pressed.original_id == table.id  # edited in place
        assert level_button() == (strong, "l:1:easy")
        assert RENDERER.t("ru", "lobby-bot-level", level="strong") in table.content
        # The same press again from a client still showing the old button: strong it stays.
        again = await t.click(anya, table, "l:1:strong", snapshot=before)
        assert not again.ephemeral
        assert level_button() == (strong, "l:1:easy")
        assert not (await t.service.settings.settings(t.chat)).strong_bots  # only this lobby's
        await t.click(anya, table, label=RENDERER.t("ru", "btn-start"))
        rec = await t.storage.active_game(t.chat)
        assert rec is not None and rec.status == "running"
        assert meta_from_dict(rec.meta)[1].bot_level is Level.STRONG
        t.assert_clean()


@pytest.mark.parametrize("locale", ["ru", "uk"])
async def test_an_idle_lobby_expires_with_a_notice(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale) as t:
        table = await t.lobby(*t.users[:2])
        assert isinstance(t.clock, FakeClock)
        t.clock.advance(DEFAULT_LOBBY_IDLE + 1)
        outs = await t.service.clock.run_due(
            prefix="dc:"
        )  # what the timer loop of this adapter runs
        assert len(outs) == 1
        await t.bot.publisher.publish_timed(outs[0])
        await t.fake.settle()
        # The notice, with the /new command as Discord names it in the channel's language.
        new = "/" + RENDERER.i18n.command_name(t.lang, "new")
        notice = RENDERER.t(t.lang, "info-lobby-expired", minutes=30).replace("/new", new)
        posted = [m.content for m in t.fake.channel_messages(t.world.channel)]
        assert posted.count(notice) == 1
        assert t.fake.message(table.id).content == RENDERER.t(t.lang, "lobby-cancelled")
        assert t.fake.buttons(t.fake.message(table.id)) == []
        # The channel is free at once.
        assert (await t.slash(t.users[1], "new")).original is not None
        t.assert_clean()


def pick(keys: list[str]) -> str | None:
    """The harness's player: calls UNO first, then plays the first card, else draws or passes."""
    for key in keys:
        if key == "uno":
            return key
    for key in keys:
        if key.startswith(("play ", "pick ", "choose ")):
            return key
    for wanted in ("draw", "pass", "accept"):
        if wanted in keys:
            return wanted
    return None


# A round trip to Discord of 0.45 s (simulated, see FakeDiscord.latency): every interaction of
# a whole round is still answered within Discord's 3 s (`assert_clean`).
@pytest.mark.parametrize("latency", [0.0, 0.45])
async def test_a_whole_round_by_three_players(
    make_table: Callable[..., Any], latency: float
) -> None:
    async with make_table() as t:
        t.fake.latency = latency
        players = t.users[:3]
        table = await t.started(*players)
        hands = {u.id: await t.my_cards(u) for u in players}
        by_id = {str(u.id): u for u in players}
        moves = 0
        while (await t.game()).round_no == 1 and not (await t.game()).is_over:
            game = await t.game()
            user = by_id[game.current_player]
            message = hands[user.id]
            # Live updates keep the hand in the ephemeral message current: no stale presses.
            rec = await t.storage.active_game(t.chat)
            assert rec is not None
            assert hand_version(message) == rec.meta["hand_ver"][str(user.id)], message.text
            key = pick(hand_keys(message))
            assert key is not None, message.text
            handle = await t.press(user, message, key)
            assert handle.callback_type == 7 and handle.original_id == message.id
            if key.startswith("pick "):
                colors = [k for k in hand_keys(message) if k.startswith("play ")]
                assert len(colors) == 4 and "back" in hand_keys(message)
                await t.press(user, message, colors[0])
            assert RENDERER.t("ru", "error-stale") not in message.text
            moves += 1
            assert moves < 500
        game = await t.game()
        assert game.round_no == 2 or game.is_over
        winner = max(players, key=lambda u: game.scores.get(str(u.id), 0))
        points = game.scores[str(winner.id)]
        said = RENDERER.t(
            "ru", "event-round-ended-points", winner=winner.name, count=points, scores="-"
        ).split("!")[0]
        channel = t.fake.channel_messages(t.world.channel)
        assert len([m for m in channel if said in m.content and m.id != table.id]) == 1
        # One table message, edited in place, now showing the next round.
        assert table.content.startswith(RENDERER.t("ru", "table-title", round=2))
        assert len([m for m in t.fake.channel_messages(t.world.channel) if m.id == table.id]) == 1
        assert len(table.versions) > moves
        t.assert_clean()


async def test_uno_call_catch_and_false_catch(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        await t.install(t.position({anya: "r5 r7", borya: "b5 y1 y2", vika: "g9 g8 g7"}))
        before = await t.version()
        channel_before = len(t.fake.channel_messages(t.world.channel))
        false = await t.slash(borya, "uno")
        assert false.ephemeral and RENDERER.t("ru", "reason-nothing-to-catch") in false.text
        assert await t.version() == before  # a false catch changes nothing
        assert len(t.fake.channel_messages(t.world.channel)) == channel_before
        hand = await t.my_cards(anya)
        await t.press(anya, hand, "play r7")  # forgot to call UNO
        caught = await t.slash(vika, "уно")  # the localized name works too
        assert not caught.ephemeral and caught.original is not None
        said = RENDERER.t("ru", "event-uno-caught", player="Аня", catcher="Вика")
        assert said in caught.text
        assert len((await t.game()).hands[t.uid(anya)]) == 3
        # Anya's ephemeral hand followed: three cards, and what she drew is told only to her.
        assert RENDERER.t("ru", "hand-title", count=3) in hand.text
        assert "🟨 3" in hand.text and "🟨 3" not in "\n".join(every_text(t.fake, public_only=True))
        # Calling one's own UNO in time is public too.
        await t.install(t.position({anya: "r5 r7", borya: "b5 y1 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        called = await t.slash(anya, "uno")
        assert RENDERER.t("ru", "event-uno-called", player="Аня") in called.text
        assert not called.ephemeral
        await t.press(anya, hand, "play r7")
        late = await t.slash(vika, "uno")
        assert late.ephemeral and RENDERER.t("ru", "reason-nothing-to-catch") in late.text
        assert len((await t.game()).hands[t.uid(anya)]) == 1
        t.assert_clean()


async def test_challenge_guilty_by_command_innocent_by_button(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        # Guilty: Anya holds red (the current color) and plays a Wild Draw Four anyway.
        await t.install(t.position({anya: "wild4 r7 g2", borya: "b5 y1", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        await t.press(anya, hand, "pick play wild4")
        assert RENDERER.t("ru", "step-color-title", card="🌈 +4") in hand.text
        await t.press(anya, hand, "play wild4 b")
        assert (await t.game()).pending is not None
        challenge = await t.slash(borya, "challenge")
        public = "\n".join(m.text for m in challenge.messages if not m.is_ephemeral)
        private = [m for m in challenge.messages if m.is_ephemeral]
        assert RENDERER.t("ru", "event-challenge-guilty", challenger="Боря", offender="Аня") in (
            public
        )
        assert len(private) == 1 and private[0].ephemeral_to == borya.id
        revealed = RENDERER.t("ru", "event-hand-revealed", owner="Аня", cards="").strip()
        assert revealed in private[0].text and "🟥 7" in private[0].text
        # Anya's cards went to Borya only: not to the channel, not to Vika.
        assert revealed not in "\n".join(every_text(t.fake, public_only=True))
        assert all(revealed not in text for text in t.fake.visible_texts_for(vika))
        assert len((await t.game()).hands[t.uid(anya)]) == 2 + 4
        # Innocent: no red in Anya's hand; Borya challenges with his hand's button and draws 6.
        await t.install(t.position({anya: "wild4 g2 y3", borya: "b5 y1", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        borya_hand = await t.my_cards(borya)
        await t.press(anya, hand, "pick play wild4")
        await t.press(anya, hand, "play wild4 g")
        assert "challenge" in hand_keys(borya_hand)  # his ephemeral hand was updated live
        press = await t.press(borya, borya_hand, "challenge")
        assert press.original_id == borya_hand.id
        assert RENDERER.t("ru", "event-hand-revealed", owner="Аня", cards="").strip() in (
            borya_hand.text
        )
        game = await t.game()
        assert len(game.hands[t.uid(borya)]) == 2 + 6 and game.current_player == t.uid(vika)
        said = RENDERER.t("ru", "event-challenge-innocent", challenger="Боря", offender="Аня")
        assert any(said in m.content for m in t.fake.channel_messages(t.world.channel))
        assert "🟩 2" not in "\n".join(every_text(t.fake, public_only=True))
        t.assert_clean()


async def test_stale_buttons_and_a_non_player(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, gleb = t.users
        await t.started(anya, borya, vika)
        await t.install(t.position({anya: "r5 r7 g2", borya: "b5 y1 y2", vika: "g9 g8 g7"}))
        old = await t.my_cards(anya)
        newer = await t.my_cards(anya)  # the bot keeps this one up to date
        await t.press(anya, newer, "play r7")
        await t.press(borya, await t.my_cards(borya), "draw")  # y3: no match, the turn passes
        before = await t.version()
        # A press on the old message: refused, and that message now shows the current hand.
        stale = await t.press(anya, old, "play r5")
        assert stale.callback_type == 7 and stale.original_id == old.id
        assert RENDERER.t("ru", "error-stale") in old.text
        assert old.versions and hand_version(old) == hand_version(newer)
        assert hand_version(old) != hand_version(old.versions[0])
        assert await t.version() == before
        # The same with a client still showing an outdated version of the message.
        snapshot = newer.versions[0]
        button = hand_button(snapshot, "play r5")
        assert button is not None
        again = await t.click(anya, newer, button["custom_id"], snapshot=snapshot)
        assert again.ephemeral and RENDERER.t("ru", "error-stale") in newer.text
        assert await t.version() == before
        # Gleb never joined: "my cards" refuses him privately.
        spectator = await t.click(gleb, await t.table_message(), label="🃏 Мои карты")
        assert spectator.ephemeral and spectator.original is not None
        assert spectator.original.ephemeral_to == gleb.id
        assert RENDERER.t("ru", "error-not-in-game") in spectator.text
        # Vika (to play) leaves; her old hand's buttons no longer act for her.
        vika_hand = await t.my_cards(vika)
        await t.slash(vika, "leave")
        assert t.uid(vika) not in (await t.game()).hands
        before = await t.version()
        assert RENDERER.t("ru", "hand-left") in vika_hand.text  # her hand said so at once
        snapshot = vika_hand.versions[-1]
        button = hand_button(snapshot, "play g7")
        assert button is not None
        gone = await t.click(vika, vika_hand, button["custom_id"], snapshot=snapshot)
        assert gone.ephemeral and RENDERER.t("ru", "error-not-in-game") in gone.text
        assert await t.version() == before
        t.assert_clean()


async def test_restart_mid_round_keeps_the_buttons_working(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        table = await t.started(anya, borya, vika)
        await t.install(t.position({anya: "r5 r7 g2", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        anya_hand = await t.my_cards(anya)
        borya_hand = await t.my_cards(borya)
        await t.press(anya, anya_hand, "play r7")
        assert "play r2" in hand_keys(borya_hand)
        old_bot = t.bot
        await t.restart()
        assert old_bot.is_closed() and t.bot is not old_bot
        # Borya's ephemeral from before the restart still plays.
        press = await t.press(borya, borya_hand, "play r2")
        assert press.callback_type == 7
        game = await t.game()
        assert game.top_card.text == "r2" and game.current_player == t.uid(vika)
        # The same table message goes on (its id was stored with the game).
        assert await t.table_message() is table
        assert RENDERER.t("ru", "table-turn", name="Вика") in table.content
        vika_hand = await t.my_cards(vika)
        assert "draw" in hand_keys(vika_hand)
        # Somebody deleted the table message: the next move posts a new one and keeps it.
        table.deleted = True
        await t.press(vika, vika_hand, "draw")
        new_table = await t.table_message()
        assert new_table is not table and new_table.is_public
        assert "t:1" in [b["custom_id"] for b in t.fake.buttons(new_table)]
        t.assert_clean()


async def test_hands_by_direct_message_and_closed_dms(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, gleb = t.users
        on = RENDERER.t("ru", "dc-opt-state", value=RENDERER.t("ru", "value-on"))
        off = RENDERER.t("ru", "dc-opt-state", value=RENDERER.t("ru", "value-off"))

        def dm_state(panel: StoredMessage) -> str:
            toggles = panel.find(custom_id="s:toggle")
            assert toggles is not None
            (option,) = [o for o in toggles["options"] if o["value"] == "dm_hands"]
            return str(option["description"])

        # "Cards in private messages" is each player's own choice, open to every member.
        for user in (anya, borya, vika):
            panel = (await t.slash(user, "settings")).original
            assert panel is not None and panel.is_ephemeral and dm_state(panel) == off
            await t.select(user, panel, "s:toggle", "dm_hands")
            assert dm_state(panel) == on
            assert (await t.service.settings.personal(f"dc:{t.uid(user)}"))["dm_hands"] is True
        assert not (
            await t.service.settings.settings(t.chat)
        ).dm_hands  # the channel default is untouched
        others = (await t.slash(gleb, "settings")).original
        assert others is not None and dm_state(others) == off
        t.fake.set_dm_closed(vika)
        await t.started(anya, borya, vika)
        # Anya and Borya got their hands by DM; the channel explains why Vika did not.
        assert len(t.fake.dm_messages(anya)) == len(t.fake.dm_messages(borya)) == 1
        assert t.fake.dm_messages(vika) == []

        def told() -> list[StoredMessage]:
            channel = t.fake.channel_messages(t.world.channel)
            return [m for m in channel if f"<@{vika.id}>" in m.content]

        closed = told()
        assert len(closed) == 1
        assert closed[0].content == RENDERER.t("ru", "dc-dm-closed", mention=f"<@{vika.id}>")
        await t.install(t.position({anya: "r5 r7 g2", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        # "My cards" refreshes the DM in place and says so; Vika gets an ephemeral hand instead.
        sent = await t.click(anya, await t.table_message(), label="🃏 Мои карты")
        assert sent.ephemeral and sent.text == RENDERER.t("ru", "dc-hand-sent-dm")
        (dm,) = t.fake.dm_messages(anya)
        assert "play r7" in hand_keys(dm)
        assert RENDERER.t("ru", "dc-dm-header", channel=f"<#{t.world.channel.id}>") in dm.text
        vika_hand = await t.my_cards(vika)
        assert RENDERER.t("ru", "hand-title", count=3) in vika_hand.text
        # A move from the DM: that message is the answer; Borya's DM follows, in place.
        press = await t.press(anya, dm, "play r7")
        assert press.payload["context"] == 1 and press.original_id == dm.id
        (borya_dm,) = t.fake.dm_messages(borya)
        assert "play r2" in hand_keys(borya_dm)
        await t.press(borya, borya_dm, "play r2")
        assert "play g9" not in hand_keys(vika_hand) and "draw" in hand_keys(vika_hand)
        assert len(t.fake.dm_messages(anya)) == len(t.fake.dm_messages(borya)) == 1
        assert told() == closed  # told once
        t.assert_clean()


async def test_no_edit_of_an_ephemeral_after_14_minutes(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        await t.install(
            t.position({borya: "b5 r2 y2", anya: "r5 r7 g2", vika: "g9 g8 g7"}, current=None)
        )
        hand = await t.my_cards(anya)
        opened = t.handles[-1]
        shown = hand.text
        t.fake.advance(14.5 * 60)
        await t.press(borya, await t.my_cards(borya), "play r2")  # now it is Anya's turn
        assert (await t.game()).current_player == t.uid(anya)
        assert [c for c in opened.calls if c.method == "PATCH"] == []
        assert hand.text == shown  # left alone rather than edited with a dying token
        # She opens her cards again: a new interaction, a new token, the current hand.
        assert hand_keys(hand) == []
        hand = await t.my_cards(anya)
        assert "play r5" in hand_keys(hand)
        await t.press(anya, hand, "play r5")
        assert (await t.game()).top_card.text == "r5"
        t.assert_clean()


async def test_slow_work_is_deferred_in_time(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        t.slow_past_deferral(
            monkeypatch, "lobby.new_game", "lobby.join", "play.act", "queries.hand"
        )
        lost = await t.slash(borya, "join")  # no game yet: the error stays private
        assert lost.callback_type == 5 and lost.answered_within(SLOW_WORK)
        assert RENDERER.t("ru", "error-no-game").split(".")[0] in lost.text
        assert all(m.is_ephemeral or m.deleted for m in lost.messages)
        assert not [m for m in t.fake.channel_messages(t.world.channel)]
        new = await t.slash(anya, "new")
        assert new.callback_type == 5 and new.original is not None
        assert RENDERER.t("ru", "lobby-title") in new.original.content
        assert await t.table_message() is new.original
        await t.click(borya, new.original, label=RENDERER.t("ru", "btn-join"))
        await t.slash(vika, "join")
        start = await t.click(anya, new.original, label=RENDERER.t("ru", "btn-start"))
        assert RENDERER.t("ru", "table-title", round=1) in new.original.content
        await t.install(t.position({anya: "r5 r7 g2", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        assert t.handles[-1].callback_type == 5
        press = await t.press(anya, hand, "play r7")
        assert press.callback_type == 6 and press.original_id == hand.id
        assert "play r7" not in hand_keys(hand) and RENDERER.t("ru", "hand-title", count=2) in (
            hand.text
        )
        # Deferred as the work outlasted `defer_after`, within Discord's 3 s.
        assert start.answered_within(SLOW_WORK) and press.answered_within(SLOW_WORK)
        t.assert_clean()


async def test_a_busy_machine_does_not_defer(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """How long the work takes in real time (a loaded machine) decides nothing: the bot defers
    on the fake's simulated clock, so a /new whose service call outlasts `defer_after` of real
    time, and takes no simulated time, is answered at once with the lobby, as on a fast machine.
    (The real delay is the stimulus, not a wait: any longer delay gives the same result.)"""
    async with make_table() as t:
        new_game = t.service.lobby.new_game
        real_time: list[float] = []

        async def on_a_busy_machine(*args: Any, **kwargs: Any) -> Any:
            started = time.monotonic()
            await asyncio.sleep(DEFER_AFTER + 0.2)
            real_time.append(time.monotonic() - started)
            return await new_game(*args, **kwargs)

        monkeypatch.setattr(t.service.lobby, "new_game", on_a_busy_machine)
        new = await t.slash(t.users[0], "new")
        assert real_time and real_time[0] > DEFER_AFTER  # longer than `defer_after`, really
        assert new.callback_type == 4 and not new.deferred and new.followups == []
        assert new.original is not None and new.original.is_public
        assert RENDERER.t("ru", "lobby-title") in new.original.content
        assert await t.table_message() is new.original
        t.assert_clean()


async def test_card_menu_with_pages_and_a_wild(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(layout, "MAX_ROWS", 2)  # as if the cards did not fit in 25 buttons
    monkeypatch.setattr(layout, "SELECT_PAGE", 3)
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        cards = "r2 r3 r4 r5 r6 r7 g1 wild"
        await t.install(t.position({anya: cards, borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)

        def menu() -> JSON:
            found: list[JSON] = [c for c in t.fake.components(hand) if c.get("type") == 3]
            assert len(found) == 1
            return found[0]

        first = menu()
        assert len(first["options"]) == 3
        assert first["placeholder"] == RENDERER.t("ru", "dc-select-card-page", page=1, pages=3)
        assert "draw" in hand_keys(hand) and "page 1" in hand_keys(hand)
        seen = [o["value"] for o in first["options"]]
        await t.press(anya, hand, "page 1")
        seen += [o["value"] for o in menu()["options"]]
        await t.press(anya, hand, "page 2")
        last = menu()
        seen += [o["value"] for o in last["options"]]
        assert sorted(seen) == sorted(
            ["play " + c for c in cards.split()[:-1]] + ["pick play wild"]
        )
        last_page = t.fake.find_component(hand, label=RENDERER.t("ru", "dc-btn-next"))
        assert last_page is not None and last_page["disabled"]

        # The wild in the menu opens its colors; back returns to the first page.
        async def choose(value: str) -> None:
            """Page back to the start, then forward until the menu offers `value`."""
            prev, following = RENDERER.t("ru", "dc-btn-prev"), RENDERER.t("ru", "dc-btn-next")
            while not (t.fake.find_component(hand, label=prev) or {}).get("disabled", True):
                await t.click(anya, hand, label=prev)
            for _ in range(3):
                if value in [o["value"] for o in menu()["options"]]:
                    await t.select(anya, hand, menu()["custom_id"], value)
                    return
                await t.click(anya, hand, label=following)
            raise AssertionError(value)

        await choose("pick play wild")
        assert sorted(hand_keys(hand)) == sorted(
            ["play wild r", "play wild y", "play wild g", "play wild b", "back"]
        )
        await t.press(anya, hand, "back")
        assert menu()["placeholder"] == first["placeholder"]
        await choose("play r3")
        assert (await t.game()).top_card.text == "r3"
        t.assert_clean()


async def test_computer_players_move_through_the_timer_loop(
    make_table: Callable[..., Any],
) -> None:
    # Real time: the robot waits its 0.3 s while Anya finishes her turn, then the loop acts; the
    # test waits for the loop's publications (events), however long a busy machine takes.
    async with make_table(bot_delay=0.3, clock=time.time, timers=True) as t:
        anya = t.users[0]
        table = await t.lobby(anya)
        await t.click(anya, table, label=RENDERER.t("ru", "btn-addbot"))
        await t.click(anya, table, label=RENDERER.t("ru", "btn-start"))

        timers = t.bot.timers

        async def anyas_turn() -> None:
            """Until Anya may act: each robot move is waited for as the loop publishes it."""
            while True:
                published = timers.published  # before the game: a later move is waited for
                game = await t.game()
                if game.current_player == t.uid(anya) or game.is_over:
                    return
                await asyncio.wait_for(timers.wait_published(published + 1), 30)

        await anyas_turn()
        hand = await t.my_cards(anya)
        published = timers.published  # the robot cannot move during Anya's turn
        before = len(await t.storage.log(1))
        while (await t.game()).current_player == t.uid(anya):
            key = pick(hand_keys(hand))
            assert key is not None
            await t.press(anya, hand, key)
        # The loop publishes after its commit, the table's edit included.
        await asyncio.wait_for(timers.wait_published(published + 1), 30)
        await anyas_turn()
        await t.fake.settle()
        # The robot moved on its own, and the loop showed it: the table is the current state.
        log = await t.storage.log(1)
        assert log[before].actor == t.uid(anya) and log[-1].actor == ROBOT
        now = await t.service.queries.table(t.chat)
        assert now.table is not None
        assert table.content == t.bot.texts.table_message(now.table, now.names)[0]
        assert RENDERER.t("ru", "table-turn", name="Аня") in table.content
        patches = [c for c in t.fake.calls if c.method == "PATCH" and str(table.id) in c.path]
        assert patches[-1].interaction_id is None  # edited by the loop, not by an interaction
        t.assert_clean()
