"""The gate every use case passes (`bot.service.gate`): at most `width` at once, the others in
order of when they were due, a refusal as busy past a waiter's patience, and no turn lost or
taken twice when a waiter gives up or is cancelled."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.gate import Busy, Gate


async def hold(gate: Gate, due: float, entered: list[float], release: asyncio.Event) -> None:
    async with gate.turn(due):
        entered.append(due)
        await release.wait()


async def test_at_most_width_run_and_the_rest_go_in_order_of_due_time() -> None:
    gate = Gate(2)
    release = asyncio.Event()
    entered: list[float] = []
    first = [asyncio.create_task(hold(gate, due, entered, release)) for due in (10.0, 11.0)]
    await asyncio.sleep(0)
    later = [asyncio.create_task(hold(gate, due, entered, release)) for due in (30.0, 5.0, 20.0)]
    await asyncio.sleep(0)
    assert entered == [10.0, 11.0] and (gate.running, gate.waiting) == (2, 3)
    release.set()
    await asyncio.gather(*first, *later)
    assert entered == [10.0, 11.0, 5.0, 20.0, 30.0]  # the earliest due first, not the first come
    assert (gate.running, gate.waiting) == (0, 0)


async def test_a_waiter_out_of_patience_is_busy_and_its_turn_goes_on() -> None:
    gate = Gate(1)
    release = asyncio.Event()
    entered: list[float] = []
    holder = asyncio.create_task(hold(gate, 1.0, entered, release))
    await asyncio.sleep(0)
    with pytest.raises(Busy):
        async with gate.turn(2.0, patience=0.01):
            raise AssertionError("not its turn")
    patient = asyncio.create_task(hold(gate, 3.0, entered, release))
    await asyncio.sleep(0)
    assert gate.waiting == 1
    release.set()
    await asyncio.gather(holder, patient)
    assert entered == [1.0, 3.0] and (gate.running, gate.waiting) == (0, 0)


async def test_a_cancelled_waiter_gives_its_turn_back() -> None:
    gate = Gate(1)
    release = asyncio.Event()
    entered: list[float] = []
    holding = gate.turn(1.0)
    await holding.__aenter__()
    waiting = asyncio.create_task(hold(gate, 2.0, entered, release))
    await asyncio.sleep(0)
    waiting.cancel()  # while it waits
    with pytest.raises(asyncio.CancelledError):
        await waiting
    handed = asyncio.create_task(hold(gate, 3.0, entered, release))
    await asyncio.sleep(0)
    await holding.__aexit__(None, None, None)  # the turn is handed to the next waiter...
    handed.cancel()  # ...which is cancelled before it could use it
    with pytest.raises(asyncio.CancelledError):
        await handed
    assert entered == [] and (gate.running, gate.waiting) == (0, 0)
    async with gate.turn(4.0, patience=0.0):  # free at once
        pass


def test_a_gate_needs_room_for_one() -> None:
    with pytest.raises(ValueError):
        Gate(0)
