"""One aiogram Router per feature, built fresh for every Dispatcher (a router joins only one)."""

from __future__ import annotations

from aiogram import Router

from bot.telegram.routers import info, lobby, play, private, settings


def all_routers() -> list[Router]:
    # `play` first (the hands' buttons are most of the traffic); `private` last: its catch-all
    # callback handler refuses data no other router understood.
    return [m.make_router() for m in (play, lobby, settings, info, private)]
