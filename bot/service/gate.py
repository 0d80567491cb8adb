"""Whose turn it is to run: every use case of the process, in order of when it was due.

A person's press, a computer player's move and a turn that ran out are all moves of a game.
Under load they must share the process fairly, and the storage's own queues (SQLite's group
commit, PostgreSQL's connection pool) are first come, first served per call: a use case makes
several calls, so with hundreds of presses in flight a deadline's work waited behind all of
them at each of its calls, and fell further behind with every one.

So at most `width` use cases run at once and the others wait here, the one due first going
first: a press is due when it arrived, a deadline's work when the deadline passed. A use case
that may be refused (a person's) waits at most its `patience`, then is refused as `Busy`:
nothing was done, and the person is told the table is busy instead of waiting in silence
past the time their platform gives an answer. A deadline's work is never refused: it waits
for its turn, which comes before that of every press that arrived after it was due.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

WIDTH = 32  # use cases running at once (each holds at most one storage connection at a time)


class Busy(Exception):
    """The use case waited its patience out before its turn came: refused, nothing done."""


@dataclass(order=True)
class _Waiter:
    due: float
    seq: int
    turn: asyncio.Future[None] = field(compare=False)


class Gate:
    def __init__(self, width: int = WIDTH) -> None:
        if width < 1:
            raise ValueError(f"width must be at least 1, got {width}")
        self.width = width
        self.running = 0
        self.waiting = 0
        self._queue: list[_Waiter] = []  # a heap; waiters who gave up stay until popped
        self._seq = itertools.count()

    @asynccontextmanager
    async def turn(self, due: float, patience: float | None = None) -> AsyncIterator[None]:
        """Run the body in its turn: at once while fewer than `width` run and nobody waits,
        else after every waiter due earlier. `patience`: seconds to wait at most (None: for
        ever), then `Busy`."""
        await self._enter(due, patience)
        try:
            yield
        finally:
            self._leave()

    async def _enter(self, due: float, patience: float | None) -> None:
        if self.running < self.width and not self.waiting:
            self.running += 1
            return
        loop = asyncio.get_running_loop()
        waiter = _Waiter(due, next(self._seq), loop.create_future())
        heapq.heappush(self._queue, waiter)
        self.waiting += 1
        timer = None
        out_of_patience = False

        def give_up() -> None:
            nonlocal out_of_patience
            if not waiter.turn.done():
                out_of_patience = True
                waiter.turn.cancel()

        if patience is not None:
            timer = loop.call_later(max(0.0, patience), give_up)
        try:
            await waiter.turn  # the one who leaves hands its place over (`_leave`)
        except asyncio.CancelledError:
            if waiter.turn.cancelled():
                self.waiting -= 1
            else:
                self._leave()  # handed over just as this task was cancelled: pass it on
            if out_of_patience:
                raise Busy() from None
            raise
        finally:
            if timer is not None:
                timer.cancel()

    def _leave(self) -> None:
        while self._queue:
            waiter = heapq.heappop(self._queue)
            if not waiter.turn.done():
                waiter.turn.set_result(None)  # its place: `running` stays as it is
                self.waiting -= 1
                return
        self.running -= 1
