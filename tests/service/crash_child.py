"""A process that plays games through the service and reports each move once it is committed.

`bench/crash.py` (and the bounded crash test in the suite) kills it with SIGKILL mid-stream, over
and over on one database, and checks that every reported move is in what it left behind.  Each
line on stdout is one acknowledged move: ``game_id version actor action``.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

from bot.service import Service, User
from bot.storage import Storage
from core.ai import choose_action
from core.game import Game

CHAT = "tg:-1"
PLAYERS = [User("1", "A", "ru"), User("2", "B", "ru"), User("3", "C", "ru")]


async def main(path: str) -> None:
    storage = await Storage.open(path)
    rng = random.Random(os.getpid())  # each run plays on differently, and deals new games
    service = Service(storage, bot_delay=0.0, seed=lambda: rng.randrange(2**31))
    while True:
        rec = await storage.active_game(CHAT)
        if rec is None:
            await service.lobby.new_game(CHAT, PLAYERS[0])
            for user in PLAYERS[1:]:
                await service.lobby.join(CHAT, user)
            await service.lobby.start_game(CHAT, PLAYERS[0])
            continue
        assert rec.state is not None
        game = Game.from_dict(rec.state)
        user = next(u for u in PLAYERS if u.id == game.current_player)
        action = choose_action(game, user.id, rng) or game.default_action(user.id)
        assert action is not None
        out = await service.play.act(user, action, chat_key=CHAT)
        if out.ok:
            assert out.table is not None
            print(out.table.game_id, out.table.version, user.id, action, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
