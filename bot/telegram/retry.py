"""Bot API calls carried through Telegram's passing failures.

A call may fail for a reason that passes by itself: 429 (a flood: wait `retry_after`), a 5xx
from Telegram or from the gateway in front of it, a dropped connection or a timeout. Such a call
is made again after a growing pause (`backoff`: 0.25 s, doubling), and given up -- its failure
raised -- once the next try would start later than `budget` seconds after the first: a
callback query must be answered within 10 s of its arrival, so a press's answer keeps to
`ANSWER_BUDGET`. Any other failure (a refusal, a 403) is raised at once.

`retrying` wraps the calls a handler or the start-up makes directly; the sender
(`bot.telegram.sender`) retries its own calls with the same `backoff`, between its rate limits.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    stop_before_delay,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

TRANSIENT = (TelegramServerError, TelegramNetworkError, TimeoutError)
"""Failures that pass: tried again after a pause (a 429 is waited out as it says)."""

FIRST_WAIT = 0.25  # seconds before the second try; every further pause doubles
ANSWER_BUDGET = 8.0  # seconds a press's answer is tried for (Telegram waits 10 s for it)
SETUP_BUDGET = 120.0  # seconds a call of the start-up is tried for (nobody waits on it)
MAX_ATTEMPTS = 8  # tries of one call at most, whatever the budget


def backoff(failures: int) -> float:
    """The pause after the `failures`-th transient failure in a row: 0.25, 0.5, 1, 2, ... s."""
    return FIRST_WAIT * 2.0 ** (failures - 1)


def _wait(state: RetryCallState) -> float:
    assert state.outcome is not None
    exc = state.outcome.exception()
    if isinstance(exc, TelegramRetryAfter):
        return float(exc.retry_after)
    return backoff(state.attempt_number)


def _before_sleep(state: RetryCallState) -> None:
    assert state.outcome is not None
    log.info(
        "a Bot API call failed (%r); try %d in %.2f s",
        state.outcome.exception(),
        state.attempt_number + 1,
        state.upcoming_sleep,
    )


async def retrying(call: Callable[[], Awaitable[T]], *, budget: float | None = None) -> T:
    """`call()`, made again after a passing failure while `budget` seconds allow (see above;
    None: `ANSWER_BUDGET`)."""
    async for attempt in AsyncRetrying(
        retry=retry_if_exception_type((TelegramRetryAfter, *TRANSIENT)),
        wait=_wait,
        stop=stop_before_delay(ANSWER_BUDGET if budget is None else budget)
        | stop_after_attempt(MAX_ATTEMPTS),
        before_sleep=_before_sleep,
        reraise=True,
    ):
        with attempt:
            return await call()
    raise AssertionError("unreachable: the last try's failure is raised")  # pragma: no cover
