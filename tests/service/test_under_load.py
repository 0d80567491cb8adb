"""Computer players under load (issue 31, item 1): a computer's move, a turn that ran out and a
person's press share the process by due time, the timer loop does not hold one game's move
back behind another's, and a press that cannot get its turn in time is answered that the
table is busy."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, Service, User
from bot.service.unit_of_work import BUSY
from bot.storage import Storage, StoragePort
from core.game import Game
from tests.service.conftest import ALICE, FakeClock

BOT_DELAY = 2.0


class Holding:
    """The storage, with the commits of chosen games held until they are let go."""

    def __init__(self, storage: StoragePort) -> None:
        self._storage = storage
        self.held: dict[int, asyncio.Event] = {}
        self.arrived: dict[int, asyncio.Event] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)

    def hold(self, game_id: int) -> asyncio.Event:
        self.arrived[game_id] = asyncio.Event()
        self.held[game_id] = asyncio.Event()
        return self.held[game_id]

    async def commit(self, game_id: int, expected_version: int, **kwargs: Any) -> Any:
        if game_id in self.held:
            self.arrived[game_id].set()
            await self.held[game_id].wait()
        return await self._storage.commit(game_id, expected_version, **kwargs)


async def computer_due(service: Service, chat: str, person: User) -> int:
    """A running game of `person` and a computer player, the computer's move due (its game id).
    The person moves first when it is their turn (the first choice of their hand)."""
    assert (await service.settings.change_setting(chat, person, "timer", "off", is_admin=True)).ok
    assert (await service.lobby.new_game(chat, person)).ok
    assert (await service.lobby.add_bot(chat, person)).ok
    out = await service.lobby.start_game(chat, person)
    assert out.table is not None
    while out.table.current == person.id:
        hand = (await service.queries.hand(person, chat_key=chat)).hands[person.id]
        choice = hand.choices[0]
        out = await service.play.act(person, choice.colors[0] if choice.colors else choice.action,
                                chat_key=chat)  # fmt: skip
        assert out.ok and out.table is not None
    return out.table.game_id


async def test_one_games_slow_move_does_not_hold_back_the_others(
    storage: Storage, clock: FakeClock
) -> None:
    holding = Holding(storage)
    service = Service(holding, clock=clock, bot_delay=BOT_DELAY, seed=lambda: 11)  # type: ignore[arg-type]
    await service.start()
    games = [await computer_due(service, f"tg:-{n}", User(str(500 + n), f"P{n}")) for n in range(5)]
    slow = holding.hold(games[2])
    published: list[int] = []
    four = asyncio.Event()
    five = asyncio.Event()

    async def publish(out: Outcome) -> None:
        assert out.table is not None
        published.append(out.table.game_id)
        if len(published) == 4:
            four.set()
        if len(published) == 5:
            five.set()

    clock.advance(BOT_DELAY)
    loop = asyncio.create_task(service.clock.run_timers(publish))
    try:
        service.alarms.wake()
        await asyncio.wait_for(four.wait(), 10)  # the others' moves, while game 3's waits
        assert sorted(published) == sorted(games[:2] + games[3:])
        slow.set()
        await asyncio.wait_for(five.wait(), 10)
        assert published[-1] == games[2]
    finally:
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)


async def test_a_computers_move_goes_before_the_presses_that_came_after_it_was_due(
    storage: Storage, clock: FakeClock
) -> None:
    """A hundred presses in flight, each in a game of its own, eight use cases at a time, and a
    computer whose move was due before they came: its move is done with the first, not
    behind them all."""
    service = Service(storage, clock=clock, bot_delay=BOT_DELAY, seed=lambda: 11, concurrency=8)
    await service.start()
    computer_game = await computer_due(service, "tg:-1", ALICE)
    people = []
    for n in range(100):
        chat, a, b = f"tg:-{100 + n}", User(str(1000 + n), "A"), User(str(2000 + n), "B")
        assert (await service.settings.change_setting(chat, a, "timer", "off", is_admin=True)).ok
        assert (await service.lobby.new_game(chat, a)).ok
        assert (await service.lobby.join(chat, b)).ok
        out = await service.lobby.start_game(chat, a)
        assert out.table is not None and out.table.current is not None
        people.append((chat, a if out.table.current == a.id else b))
    clock.advance(BOT_DELAY + 1.0)  # the computer's move is due; then the presses come
    done: list[str] = []

    async def press(chat: str, user: User) -> None:
        await service.play.act(user, "draw", chat_key=chat)
        done.append(chat)

    async def computer() -> None:
        await service.clock.run_due()
        done.append("computer")

    presses = [asyncio.create_task(press(chat, user)) for chat, user in people]
    await asyncio.sleep(0)  # every press is on its way before the timer loop looks
    await asyncio.gather(*presses, asyncio.create_task(computer()))
    rec = await storage.get_game(computer_game)
    assert rec is not None and Game.from_dict(rec.state).current_player == ALICE.id  # type: ignore[arg-type]
    # The eight running when it came due, the eight whose commit it shares, and a few more.
    assert done.index("computer") < 25, done.index("computer")


async def test_a_press_that_cannot_get_its_turn_is_told_the_table_is_busy(
    storage: Storage, clock: FakeClock
) -> None:
    holding = Holding(storage)
    service = Service(
        holding,  # type: ignore[arg-type]
        clock=clock,
        bot_delay=BOT_DELAY,
        seed=lambda: 11,
        concurrency=1,
        patience=0.05,
    )
    await service.start()
    slow_game = await computer_due(service, "tg:-1", ALICE)
    chat, boris = "tg:-2", User("2002", "Борис", "ru")
    assert (await service.lobby.new_game(chat, boris)).ok
    slow = holding.hold(slow_game)
    clock.advance(BOT_DELAY)
    computer = asyncio.create_task(service.clock.run_due())  # the only turn, held in its commit
    await holding.arrived[slow_game].wait()
    out = await service.lobby.join(chat, User("2003", "Вика", "uk"))
    assert out.error is not None and out.error.key == "error-busy"
    assert out.error.args == {"seconds": 5}
    table = (await storage.active_game(chat)).meta["players"]  # type: ignore[union-attr]
    assert table == [boris.id]  # nothing changed
    slow.set()
    assert len(await computer) == 1
    assert (await service.lobby.join(chat, User("2003", "Вика", "uk"))).ok  # its turn comes now


@pytest.mark.parametrize(
    ("lang", "seconds", "words"),
    [
        ("ru", 1, "1 секунду"),
        ("ru", 3, "3 секунды"),
        ("ru", 5, "5 секунд"),
        ("uk", 1, "1 секунду"),
        ("uk", 3, "3 секунди"),
        ("uk", 5, "5 секунд"),
    ],
)
def test_the_busy_answer_says_when_to_try_again(
    renderer: Renderer, lang: str, seconds: int, words: str
) -> None:
    text = renderer.notice(lang, Notice("error-busy", {"seconds": seconds}))
    assert text.endswith(words + ".")
    assert renderer.notice(lang, BUSY).endswith("5 секунд.")
