"""A group's rate limit: Telegram takes about 20 messages a minute in one group.

`Bucket` is a token bucket reckoned in the sender's clock. It is not `aiolimiter.AsyncLimiter`,
which waits on the event loop's own clock (not a test's fake time), cannot tell a wait without
waiting it (a `low` operation's wait is cut short when another operation arrives) and cannot
block a chat for a 429's `retry_after`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

RESERVE = 1  # tokens of a group's bucket that a `low` operation leaves for the others


@dataclass(frozen=True)
class RateLimit:
    """At most `count` calls in any `period` seconds, `burst` of them back to back.

    A token bucket holding `burst` tokens, refilled at (count - burst) / period per second: any
    window of `period` seconds sees at most burst + (count - burst) = count calls.
    """

    count: int = 20
    period: float = 60.0
    burst: int = 3

    def __post_init__(self) -> None:
        if not 0 < self.burst < self.count or self.period <= 0:
            raise ValueError("need 0 < burst < count and a positive period")

    @property
    def rate(self) -> float:
        return (self.count - self.burst) / self.period


DEFAULT_GROUP_LIMIT = RateLimit()


class Bucket:
    def __init__(self, limit: RateLimit, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.clock = clock
        self.tokens = float(limit.burst)
        self.stamp = clock()
        self.blocked_until = 0.0

    def delay(self, reserve: int = 0) -> float:
        """Seconds until a call may go out (0 when it may go now), leaving `reserve` tokens."""
        now = self.clock()
        self.tokens = min(
            float(self.limit.burst), self.tokens + (now - self.stamp) * self.limit.rate
        )
        self.stamp = now
        wait = max(0.0, self.blocked_until - now)
        need = 1.0 + min(reserve, self.limit.burst - 1)
        if self.tokens < need - 1e-6:  # (a float a hair under must not spin the loop)
            wait = max(wait, (need - self.tokens) / self.limit.rate)
        return wait

    def take(self) -> None:
        self.tokens -= 1.0

    def block(self, seconds: float) -> None:
        """A 429: no call to the chat for `seconds`."""
        self.blocked_until = max(self.blocked_until, self.clock() + seconds)
