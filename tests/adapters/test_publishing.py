"""The publishing flow every platform shares (`bot.delivery.publishing`), through a fake
platform whose sends complete when the test says so."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import pytest

from bot.delivery import publisher as reads
from bot.delivery.outbox_loop import Send, Undelivered
from bot.delivery.publisher import RESULTS
from bot.delivery.publishing import Publisher, Shown
from bot.service import Outcome, User
from bot.service.outcome import Entries, Notice
from bot.service.views import HandView, TableView
from core.cards import Card, Color
from core.rules import Rules
from tests.adapters.hands import hand

GAME = 12


def table(version: int = 4, status: str = "running") -> TableView:
    return TableView(
        chat_key="tg:-100",
        game_id=GAME,
        version=version,
        status=status,
        lang="ru",
        colorblind=False,
        rules=Rules(),
        creator="100",
        seats=[],
        top=Card.parse("r1"),
        color=Color.RED,
        current="100",
    )


class Platform:
    """Records each operation; each send is a future the test completes (`land`)."""

    awaited = False

    def __init__(self, *, shared: bool = False) -> None:
        self.shared = shared
        self.calls: list[tuple[Any, ...]] = []
        self.pending: list[Shown] = []
        self.forgotten: list[int] = []

    def _send(self) -> Shown:
        future: Shown = asyncio.get_running_loop().create_future()
        self.pending.append(future)
        return future

    def land(self) -> None:
        for future in self.pending:
            if not future.done():
                future.set_result(None)

    def ours(self, out: Outcome) -> bool:
        return True

    async def catch_up(self, out: Outcome) -> None:
        pass

    async def present_table(
        self, out: Outcome, view: TableView, *, opens: bool, strict: bool
    ) -> Shown:
        self.calls.append(("table", view.version, opens))
        return self._send()

    async def present_results(self, out: Outcome, *, strict: bool, reply: Any) -> Shown | None:
        self.calls.append(("results",))
        return self._send()

    async def private_hands(self, out: Outcome) -> bool:
        return True

    async def present_hand(
        self, out: Outcome, view: HandView, *, strict: bool, opens: bool
    ) -> Shown | None:
        self.calls.append(("hand", view.player, view.version, opens))
        return self._send()

    def reveals(self, out: Outcome) -> Mapping[str, str]:
        return {}

    def present_reveal(self, viewer: str, text: str, *, strict: bool) -> Shown:
        raise AssertionError("no reveals here")

    async def after_hands(
        self, out: Outcome, shown: Collection[str], skip: Collection[str]
    ) -> None:
        self.calls.append(("after", sorted(shown)))

    async def hands_again(self, out: Outcome) -> Outcome:
        return out

    def forget(self, game_id: int) -> None:
        self.forgotten.append(game_id)


class Queries:
    """The committed state: a table and hands, newer than what was published when set so."""

    def __init__(self, latest: TableView, hands: Sequence[HandView] = ()) -> None:
        self.latest = latest
        self.hands = {h.player: h for h in hands}

    async def game_table(self, game_id: int) -> Outcome:
        return Outcome(self.latest.chat_key, "ru", table=self.latest)

    async def table(self, chat_key: str) -> Outcome:
        return await self.game_table(GAME)

    async def hand(
        self, user: User, *, chat_key: str | None = None, game_id: int | None = None
    ) -> Outcome:
        return Outcome("tg:-100", "ru", hands={user.id: self.hands[user.id]})

    async def running_games(self) -> Sequence[Any]:
        return [Record(GAME, self.latest.chat_key)]


@dataclasses.dataclass(frozen=True)
class Record:
    id: int
    chat_key: str


class Service:
    def __init__(self, queries: Queries) -> None:
        self.queries = queries


class Delivery:
    def __init__(self) -> None:
        self.tracked: list[tuple[Outcome, Sequence[Send], BaseException | None]] = []

    def track(self, out: Outcome, sends: Sequence[Send], failure: BaseException | None) -> None:
        self.tracked.append((out, sends, failure))


async def landing(platform: Platform, look: Any) -> None:
    """Every send lands as soon as it is made, until the look for a newer state is done."""
    while not look.done():
        platform.land()
        await asyncio.sleep(0)


def outcome(**kw: Any) -> Outcome:
    return Outcome("tg:-100", "ru", table=table(), names={"100": "A"}, **kw)


def publisher(platform: Platform, queries: Queries) -> tuple[Publisher, Delivery]:
    pub = Publisher(platform, Service(queries))
    delivery = Delivery()
    pub.delivery = delivery  # type: ignore[assignment]
    return pub, delivery


async def test_results_are_posted_once_when_delivered_again() -> None:
    platform = Platform()
    pub, delivery = publisher(platform, Queries(table()))
    first = outcome(outbox=Entries(GAME, [1]))
    await pub.publish(first, wait=False)
    again = outcome(outbox=Entries(GAME, [1], delivered={RESULTS}))
    await pub.publish(again, wait=False)
    assert [c for c in platform.calls if c[0] == "results"] == [("results",)]
    assert [item for item, _ in delivery.tracked[0][1]] == [None, RESULTS]
    assert [item for item, _ in delivery.tracked[1][1]] == [None]


async def test_the_hands_of_computer_players_are_not_shown() -> None:
    platform = Platform()
    pub, _ = publisher(platform, Queries(table()))
    out = outcome(hands={"100": hand(player="100"), "ai:1": hand(player="ai:1")})
    await pub.publish(out, wait=False, results=False)
    assert [c[1] for c in platform.calls if c[0] == "hand"] == ["100"]
    assert ("after", ["100"]) in platform.calls


async def test_a_newer_committed_state_is_shown_after_the_sends_landed() -> None:
    """With other processes: once the table and the hands went out, a newer committed table
    is shown (never sent new), then the newer hands; the look ends when nothing is newer."""
    platform = Platform(shared=True)
    queries = Queries(table(version=6), [hand(player="100", version=6)])
    pub, delivery = publisher(platform, queries)
    out = outcome(hands={"100": hand(player="100", version=4)}, outbox=Entries(GAME, [1]))
    await pub.publish(out, wait=False, results=False)
    ((_, sends, failure),) = delivery.tracked
    look = sends[-1][1]
    assert isinstance(look, asyncio.Future)
    assert failure is None and not look.done()  # tracked, the look chained after the sends
    await asyncio.sleep(0)
    assert ("table", 6, False) not in platform.calls  # the first sends have not landed yet
    await asyncio.wait_for(landing(platform, look), 1)
    assert platform.calls[-2:] == [("table", 6, False), ("hand", "100", 6, False)]
    assert not pub.tasks


async def test_nothing_newer_is_one_read_and_no_show() -> None:
    platform = Platform(shared=True)
    pub, delivery = publisher(platform, Queries(table()))
    await pub.publish(outcome(outbox=Entries(GAME, [1])), wait=False, results=False)
    await asyncio.wait_for(landing(platform, delivery.tracked[0][1][-1][1]), 1)
    assert [c for c in platform.calls if c[0] == "table"] == [("table", 4, False)]


async def test_a_finished_game_is_forgotten_once_its_table_went_out() -> None:
    platform = Platform()
    pub, _ = publisher(platform, Queries(table()))
    out = dataclasses.replace(outcome(), table=table(status="finished"))
    await pub.publish(out, wait=False, results=False)
    assert platform.forgotten == []
    platform.land()
    await asyncio.sleep(0)
    assert platform.forgotten == [GAME]


class Refusing(Queries):
    """The committed state, read only after the first reads of the table and of the hands
    were refused as busy (the process too loaded to run them within their patience)."""

    def __init__(
        self, tables: int, hands: int, latest: TableView, views: Sequence[HandView] = ()
    ) -> None:
        super().__init__(latest, views)
        self.refusals = {"table": tables, "hand": hands}
        self.reads = 0

    def _refused(self, what: str) -> Outcome | None:
        self.reads += 1
        if self.refusals[what] == 0:
            return None
        self.refusals[what] -= 1
        return Outcome("tg:-100", "ru", error=Notice("error-busy", {"seconds": 5}))

    async def game_table(self, game_id: int) -> Outcome:
        return self._refused("table") or await super().game_table(game_id)

    async def hand(
        self, user: User, *, chat_key: str | None = None, game_id: int | None = None
    ) -> Outcome:
        return self._refused("hand") or await super().hand(user, game_id=game_id)


async def _look(pub: Publisher, platform: Platform, delivery: Delivery) -> asyncio.Future[Any]:
    out = outcome(hands={"100": hand(player="100", version=4)}, outbox=Entries(GAME, [1]))
    await pub.publish(out, wait=False, results=False)
    look = delivery.tracked[0][1][-1][1]
    assert isinstance(look, asyncio.Future)
    with contextlib.suppress(Undelivered):
        await asyncio.wait_for(landing(platform, look), 5)
    return look


async def test_a_look_refused_as_busy_reads_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read of the look refused because the process is busy tells nothing of a newer state:
    it is made again, and the newer table and hand are shown. Taken for "nothing newer", it
    would leave a hand one turn behind until the next move: a turn's hand without its turn."""
    monkeypatch.setattr(reads, "READ_WAIT", 0.001)
    for tables, hands in ((2, 0), (0, 1)):
        platform = Platform(shared=True)
        queries = Refusing(tables, hands, table(version=6), [hand(player="100", version=6)])
        pub, delivery = publisher(platform, queries)
        look = await _look(pub, platform, delivery)
        assert look.exception() is None
        assert platform.calls[-2:] == [("table", 6, False), ("hand", "100", 6, False)]
        assert queries.reads == tables + hands + 3  # (and the read that finds nothing newer)


async def test_a_look_refused_every_time_gives_its_entry_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Refused at every try, the look fails: the outcome's outbox entry comes back and is
    delivered again later, rather than finished as if nothing were newer."""
    monkeypatch.setattr(reads, "READ_WAIT", 0.001)
    platform = Platform(shared=True)
    views = [hand(player="100", version=6)]
    queries = Refusing(reads.READ_TRIES, 0, table(version=6), views)
    pub, delivery = publisher(platform, queries)
    look = await _look(pub, platform, delivery)
    assert isinstance(look.exception(), Undelivered)
    assert queries.reads == reads.READ_TRIES
    assert ("table", 6, False) not in platform.calls


async def test_a_game_shown_again_at_start_is_read_again_when_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At start, a game whose table read is refused as busy is read again and shown, rather
    than left out as if it were not running; refused at every try, it is left out (logged)."""
    monkeypatch.setattr(reads, "READ_WAIT", 0.001)
    for refusals, shown in ((reads.READ_TRIES - 1, 1), (reads.READ_TRIES, 0)):
        platform = Platform()
        pub, _ = publisher(platform, Refusing(refusals, 0, table(version=6)))
        assert await pub.show_open_games("tg:") == shown
        assert [c for c in platform.calls if c[0] == "table"] == [("table", 6, True)] * shown


async def test_a_refusal_that_does_not_pass_is_not_read_again() -> None:
    """Only a refusal that passes is tried again: "no game" is an answer."""
    answers = [Outcome("tg:-100", "ru", error=Notice("error-no-game"))]

    async def read() -> Outcome:
        return answers.pop()

    out = await reads.read_again(read)
    assert out.error == Notice("error-no-game") and answers == []
