"""Issue 29 across processes: two `python -m bot` workers (Telegram webhook mode, each serving
the web table since WEBAPP_URL is set, as docker-compose.yml runs them) over one PostgreSQL
database, against the fake Bot API, which delivers each update to either worker.

Two people open a game in a group; each opens the page from the group's link (Telegram's
`initData`, signed with the fake bot's token), Anna's page on worker 1 and Boris's on worker 2.
A move on Anna's page is pushed to Boris's (worker 2 hears worker 1's commit only through
PostgreSQL's NOTIFY) and shows in the group's table; a move pressed in Boris's Telegram hand
reaches both pages. Then worker 1 is killed (SIGKILL) under Anna's page: while her page is away
Boris moves, and her page, handed to worker 2 by the proxy, catches up to Boris's table and
her next move is taken. No frame either page got holds the other's cards.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiohttp import ClientSession

from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service, User
from bot.storage.postgres import PostgresStorage
from bot.telegram.common import chat_key
from core.cards import Card
from core.game import Game
from core.rules import Rules
from tests.scale.cluster import BOUND, START_BOUND, Table, Worker, free_port, stop_all
from tests.scale.pages import Frame, Page
from tests.telegram.conftest import privacy_violations
from tests.telegram.fake_bot_api import FakeBotAPI, FakeUser, StoredMessage
from tests.telegram.players import hand_acts
from tests.web.tables import init_data, install

WEBAPP = {"WEBAPP_URL": "https://uno.example/", "WEBAPP_NAME": "table", "WEB_HOST": "127.0.0.1"}
# Anna plays r7 on her page, Boris a red skip in his Telegram hand (with two players, his turn
# again) and r3 on his page, Anna g3; the other cards are never played: no page of the other
# player may ever show them.
ANNA_HAND, ANNA_KEEPS = "r7 g3 r5 b9 g2", ("r5", "b9", "g2")
BORIS_HAND, BORIS_KEEPS = "rskip r3 y1 y2 b6", ("y1", "y2", "b6")
R = Renderer(get_i18n())


def web_worker(api: FakeBotAPI, database: str, folder: Path) -> tuple[Worker, str]:
    """A worker serving the web table too, and its page's socket address."""
    port = free_port()
    worker = Worker(api, database, folder, {**WEBAPP, "WEB_PORT": str(port)})
    return worker, f"http://127.0.0.1:{port}/ws"


def person(user: FakeUser) -> User:
    return User(str(user.id), user.first_name, user.language_code)


def card_key(frame: Frame, pic: str) -> str:
    key = next((c["key"] for c in frame["hand"]["cards"] if c["pic"] == pic), None)
    assert key, f"{pic} is not playable: {frame['hand']}"
    return str(key)


async def group_link(api: FakeBotAPI, group: int) -> str:
    """The game the group's table links the Mini App to (its `startapp` parameter), once the
    table is posted."""

    def links() -> list[str]:
        return [
            b["url"]
            for m in api.messages(group)
            for b in m.buttons
            if "startapp=" in b.get("url", "")
        ]

    await api.wait_until(lambda: bool(links()), BOUND)
    return parse_qs(urlsplit(links()[-1]).query)["startapp"][0]


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def privacy(page: Page, me: str, mine: str, theirs: tuple[str, ...]) -> list[str]:
    """What in the page's frames shows cards that are not its player's: a hand not of `me`, a
    card not from `mine`, or any trace (picture or label) of the other's kept cards. The log
    lines of the first frame are left out: they tell the random deal's public events (a
    dealer's draw), from before the position the test installed."""
    labels = [R.card("ru", Card.parse(c), False) for c in theirs]
    history = set(page.states()[0]["table"].get("log", []))
    problems = []
    for frame in page.frames:
        if frame["t"] == "state":
            seat = next(s for s in frame["table"]["seats"] if s["id"] == frame["me"])
            cards = [c["pic"] for c in frame["hand"]["cards"]]
            if (
                frame["me"] != me
                or len(cards) != seat["cards"]
                or not set(cards) <= set(mine.split())
            ):
                problems.append(f"a hand not {me}'s own: {frame['hand']}")
        shown = [
            s
            for s in strings(frame)
            if s not in history and (s in theirs or any(x in s for x in labels))
        ]
        if shown:
            problems.append(f"the other's cards {shown} in {json.dumps(frame, ensure_ascii=False)}")
    return problems


async def shows(api: FakeBotAPI, group: int, text: str) -> StoredMessage:
    """The group's table message once it shows `text` (looked at after every call)."""

    def table() -> StoredMessage | None:
        return next((m for m in api.messages(group) if m.from_bot and m.plain_text == text), None)

    await api.wait_until(lambda: table() is not None, BOUND)
    found = table()
    assert found is not None
    return found


async def test_pages_on_two_workers_follow_every_move_and_one_outlives_its_worker(
    postgres_url: str, tmp_path: Path
) -> None:
    async with FakeBotAPI() as api, ClientSession() as session:
        people = Table(api, "Web", 2)
        anna, boris = people.users
        (one, one_ws), (two, two_ws) = (
            web_worker(api, postgres_url, tmp_path / f"worker{n}") for n in (1, 2)
        )
        storage = await PostgresStorage.open(postgres_url)
        service = Service(storage)  # the test's reader of what the workers committed
        pages: list[Page] = []
        try:
            await asyncio.gather(one.start(), two.start())
            api.balance([one.url, two.url])
            game = await people.open_game()
            assert await group_link(api, people.group.id) == str(game)
            chat = chat_key(people.group.id)
            a, b = str(anna.id), str(boris.id)
            await install(
                storage,
                chat,
                Game.from_position(
                    players=[a, b],
                    hands={a: ANNA_HAND, b: BORIS_HAND},
                    discard="r1",
                    draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
                    rules=Rules.preset("classic"),
                    current=a,
                ),
            )

            def hello(user: FakeUser) -> dict[str, str]:
                return {
                    "init_data": init_data(person(user), token=api.token, start_param=str(game))
                }

            # Each page opened from the group's link, Anna's handed to worker 1, Boris's to 2.
            page_a = Page(session, [one_ws], hello(anna))
            page_b = Page(session, [two_ws], hello(boris))
            pages += [page_a, page_b]
            first = await page_a.state_at(0, START_BOUND)
            start = first["table"]["version"]
            assert (await page_b.state_at(start, START_BOUND))["table"]["version"] == start
            assert sorted(c["pic"] for c in first["hand"]["cards"]) == sorted(ANNA_HAND.split())

            # Anna's move on worker 1: Boris's page on worker 2 sees it, so does the group.
            await page_a.press(card_key(first, "r7"))
            seen = await page_b.state_at(start + 1)
            assert seen["table"]["version"] == start + 1 and seen["table"]["top"] == "r7"
            now = await service.queries.table(chat)
            assert now.table is not None and now.table.version == start + 1
            await shows(api, people.group.id, R.table(now.table, now.names))

            # Boris's red skip from his Telegram hand (either worker takes the press): both pages.
            await api.wait_until(lambda: "play rskip" in acts(api, boris), BOUND)
            hand = last_hand(api, boris)
            pressed = await people.press(boris, hand, hand_acts(hand)["play rskip"], "play rskip")
            assert pressed.acknowledged, pressed.alert
            for page in (page_a, page_b):
                frame = await page.state_at(start + 2)
                assert frame["table"]["top"] == "rskip" and frame["table"]["version"] == start + 2
            skipped = await page_b.state_at(start + 2)

            # Worker 1 dies under Anna's page; Boris moves on his page while hers is away.
            page_a.urls = [one_ws, two_ws]  # the proxy skips a worker that does not answer
            page_a.resume.clear()
            await one.kill()
            async with asyncio.timeout(BOUND):
                await page_a.lost.wait()
            await page_b.press(card_key(skipped, "r3"))
            current = await page_b.state_at(start + 3)
            assert current["table"]["top"] == "r3"
            since = len(page_a.frames)
            page_a.resume.set()
            caught = await page_a.state_at(start + 3)
            assert page_a.url == two_ws
            assert page_a.states(since)[0] == caught  # the first state it got: the current one
            assert caught["table"] == current["table"]

            # Her next move, now through worker 2, is taken and reaches both pages and the group.
            await page_a.press(card_key(caught, "g3"))
            for page in (page_a, page_b):
                frame = await page.state_at(start + 4)
                assert frame["table"]["top"] == "g3" and frame["table"]["version"] == start + 4
            now = await service.queries.table(chat)
            assert now.table is not None and now.table.version == start + 4
            await shows(api, people.group.id, R.table(now.table, now.names))

            refused = [f for p in pages for f in p.frames if f["t"] == "notice" and f["error"]]
            assert refused == []
            assert privacy(page_a, a, ANNA_HAND, ANNA_KEEPS)  # the check sees cards it is shown
            assert privacy(page_a, a, ANNA_HAND, BORIS_KEEPS) == []
            assert privacy(page_b, b, BORIS_HAND, ANNA_KEEPS) == []
            assert privacy_violations(api) == []
        finally:
            for page in pages:
                await page.close()
            await stop_all([one, two])
            await storage.close()


def last_hand(api: FakeBotAPI, user: FakeUser) -> StoredMessage:
    """The newest hand message in the player's private chat."""
    return next(m for m in reversed(api.messages(user.id)) if m.from_bot and hand_acts(m))


def acts(api: FakeBotAPI, user: FakeUser) -> dict[str, str]:
    hands = [m for m in api.messages(user.id) if m.from_bot and hand_acts(m)]
    return hand_acts(hands[-1]) if hands else {}
