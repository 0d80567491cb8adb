"""One aiogram Router per feature, built fresh for every Dispatcher (a router joins only one)."""

from __future__ import annotations

from aiogram import Router

from bot.telegram.routers import info, inline, lobby, play, private, settings


def all_routers() -> list[Router]:
    # `inline` first (a hand's key on a message chosen inline is its, not `play`'s), then `play`
    # (the hands' buttons are most of the traffic); `private` last: its catch-all callback
    # handler refuses data no other router understood.
    return [m.make_router() for m in (inline, play, lobby, settings, info, private)]
