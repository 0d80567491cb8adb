"""The refs port: the adapters' per-game facts, kept through the service."""

from __future__ import annotations

import asyncio

from bot.service import Service
from tests.service.conftest import ALICE

CHAT = "tg:-100500"


async def test_refs_round_trip(service: Service) -> None:
    game_id = (await service.lobby.new_game(CHAT, ALICE)).table.game_id  # type: ignore[union-attr]
    assert await service.refs.get(game_id, "tg:table") is None
    await service.refs.put(game_id, "tg:table", "42")
    await service.refs.put(game_id, "tg:table", "43")
    await service.refs.put(game_id, "tg:hand:1001", "7")
    assert await service.refs.get(game_id, "tg:table") == "43"
    assert await service.refs.all(game_id) == {"tg:table": "43", "tg:hand:1001": "7"}
    assert await service.refs.all(game_id + 1) == {}


async def test_once_is_true_only_the_first_time_even_when_racing(service: Service) -> None:
    game_id = (await service.lobby.new_game(CHAT, ALICE)).table.game_id  # type: ignore[union-attr]
    first = await asyncio.gather(*(service.refs.once(game_id, "dm-closed:1001") for _ in range(5)))
    assert sorted(first) == [False, False, False, False, True]
    assert not await service.refs.once(game_id, "dm-closed:1001")
    assert await service.refs.once(game_id, "dm-closed:1002")  # another key
    # Kept in storage: a restarted service still remembers.
    again = Service(service.storage)
    assert not await again.refs.once(game_id, "dm-closed:1001")
