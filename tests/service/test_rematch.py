"""A rematch: the last match's table again, the computer players back, the people only named.

Also what it refuses: a second open game, a chat whose last game did not finish, a button of
an older match; a refusal changes nothing.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, Service, rematch
from bot.service.match import Lobby
from bot.storage import Storage
from core.ai import Level
from core.events import GameEnded
from core.game import Game
from core.rules import MAX_PLAYERS, Rules
from tests.service.conftest import ALICE, BORIS, GLEB, VIKA
from tests.service.test_service import CHAT, install, lobby, position

ROBOTS = ["ai:1", "ai:2"]


def last_round(*humans: str) -> Game:
    """The first of `humans` plays her last card and wins the match (150 points of 100)."""
    first, *others = humans
    hands = {
        first: "r5",
        **dict.fromkeys(others, "wild4 wild4 wild"),
        **dict.fromkeys(ROBOTS, "g2"),
    }
    rules = dataclasses.replace(Rules.preset("classic"), target=100)
    return position(players=[*humans, *ROBOTS], hands=hands, rules=rules, current=first)


async def finished_match(service: Service) -> Outcome:
    """Alice, Boris, Vika and two robots play a match; Alice wins it."""
    await lobby(service, ALICE, BORIS, VIKA, bots=2)
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await install(service, service.storage, last_round(ALICE.id, BORIS.id, VIKA.id))
    out = await service.play.act(ALICE, "play r5", chat_key=CHAT)
    assert out.ok and any(isinstance(e, GameEnded) for e in out.events)
    assert out.match_finished
    return out


def error(out: Outcome) -> str | None:
    return None if out.error is None else out.error.key


async def test_a_rematch_opens_the_same_table_with_the_people_only_named(
    service: Service, renderer: Renderer
) -> None:
    first = await finished_match(service)
    assert first.table is not None
    out = await service.lobby.rematch(CHAT, BORIS, game_id=first.table.game_id)
    assert out.ok and out.info == Notice("info-rematch")
    table = out.table
    assert table is not None and table.status == "lobby" and table.creator == BORIS.id
    # Boris asked: he is in. The robots are back. Alice and Vika are waited for, not joined.
    assert [s.id for s in table.seats] == [BORIS.id, *ROBOTS]
    assert table.invited == (ALICE.id, VIKA.id)
    text = renderer.table(table, out.names)
    assert renderer.t("ru", "lobby-invited", names="Алиса и Віка", count=2) in text
    assert "Ждём игроков прошлой партии: Алиса и Віка" in text
    # Joining takes a name off the list, for good (also if she leaves again).
    joined = await service.lobby.join(CHAT, ALICE)
    assert joined.table is not None and joined.table.invited == (VIKA.id,)
    assert "Ждём игрока прошлой партии: Віка" in renderer.table(joined.table, joined.names)
    left = await service.lobby.leave(CHAT, ALICE)
    assert left.table is not None and left.table.invited == (VIKA.id,)
    # It is an ordinary lobby: it starts with the chat's current settings.
    assert (await service.settings.change_setting(CHAT, BORIS, "preset", "house")).ok
    started = await service.lobby.start_game(CHAT, BORIS)
    assert started.ok and started.table is not None
    assert started.table.rules == Rules.preset("house")
    assert sorted(s.id for s in started.table.seats) == sorted([BORIS.id, *ROBOTS])


async def test_the_invitation_is_in_the_chats_language(
    service: Service, renderer: Renderer
) -> None:
    assert (await service.settings.change_setting(CHAT, ALICE, "lang", "uk")).ok
    await finished_match(service)
    out = await service.lobby.rematch(CHAT, GLEB)  # not at the table before: he may still ask
    assert out.ok and out.lang == "uk" and out.table is not None
    assert [s.id for s in out.table.seats] == [GLEB.id, *ROBOTS]
    assert out.table.invited == (ALICE.id, BORIS.id, VIKA.id)
    text = renderer.table(out.table, out.names)
    assert "Чекаємо на гравців минулої партії: Алиса, Борис і Віка" in text


async def test_refusals_change_nothing(service: Service, storage: Storage) -> None:
    # A chat that never played: nothing to repeat, and its settings stay untouched.
    assert error(await service.lobby.rematch(CHAT, ALICE)) == "error-no-rematch"
    assert await storage.get_settings(CHAT) is None
    first = await finished_match(service)
    assert first.table is not None
    old_button = first.table.game_id
    assert (await service.lobby.rematch(CHAT, BORIS, game_id=old_button)).ok
    opened = await storage.active_game(CHAT)
    assert opened is not None
    # The lobby is open: neither the command nor the old button opens another or joins anyone.
    for again in (
        await service.lobby.rematch(CHAT, VIKA),
        await service.lobby.rematch(CHAT, VIKA, game_id=old_button),
    ):
        assert error(again) == "error-game-exists" and again.table is None
    assert await storage.active_game(CHAT) == opened
    # The lobby is cancelled: the chat's last game did not finish.
    assert (await service.lobby.kill(CHAT, BORIS)).ok
    assert error(await service.lobby.rematch(CHAT, VIKA)) == "error-no-rematch"
    # The old button now belongs to an older game than the chat's last one.
    assert (
        error(await service.lobby.rematch(CHAT, VIKA, game_id=old_button)) == "error-rematch-stale"
    )
    # A forged button naming another chat's game, or none at all, is stale the same way.
    assert error(await service.lobby.rematch(CHAT, VIKA, game_id=10_000)) == "error-rematch-stale"
    assert await storage.active_game(CHAT) is None


async def test_a_stopped_game_has_no_rematch(service: Service) -> None:
    await lobby(service, ALICE, BORIS)
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    assert (await service.lobby.kill(CHAT, ALICE)).ok
    assert error(await service.lobby.rematch(CHAT, ALICE)) == "error-no-rematch"


async def test_only_the_newest_matchs_button_works(service: Service) -> None:
    first = await finished_match(service)
    assert first.table is not None
    assert (await service.lobby.rematch(CHAT, ALICE)).ok  # by command
    for user in (BORIS, VIKA):
        assert (await service.lobby.join(CHAT, user)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await install(service, service.storage, last_round(VIKA.id, ALICE.id, BORIS.id))
    second = await service.play.act(VIKA, "play r5", chat_key=CHAT)
    assert second.match_finished and second.table is not None
    stale = await service.lobby.rematch(CHAT, BORIS, game_id=first.table.game_id)
    assert error(stale) == "error-rematch-stale"
    assert (await service.lobby.rematch(CHAT, BORIS, game_id=second.table.game_id)).ok


def test_the_new_lobby_never_holds_more_than_a_full_table() -> None:
    previous = Lobby(
        creator=ALICE.id,
        players=[ALICE.id, *(f"ai:{i}" for i in range(1, MAX_PLAYERS))],
        names={ALICE.id: "Алиса"},
        bot_level=Level.STRONG,
    )
    lobby = rematch.lobby_for(previous, GLEB.id, "Глеб")
    assert len(lobby.players) == MAX_PLAYERS and lobby.players[0] == GLEB.id
    assert lobby.bot_level is Level.STRONG
    assert lobby.bots == MAX_PLAYERS - 1 and lobby.invited == [ALICE.id]
    assert lobby.names[ALICE.id] == "Алиса" and lobby.names["ai:1"] == ""


@pytest.mark.parametrize("status", ["killed", "lobby", "running"])
def test_refusal_reasons(status: str) -> None:
    from bot.storage import GameRecord

    def record(game_id: int, status: str) -> GameRecord:
        return GameRecord(game_id, CHAT, status, 1, None, {}, None, 0.0, 0.0)

    finished = record(1, "finished")
    assert rematch.refusal(None, finished, None) is None
    assert rematch.refusal(None, finished, 1) is None
    assert rematch.refusal(None, finished, 2) == "error-rematch-stale"
    if status in ("lobby", "running"):
        assert rematch.refusal(record(2, status), None, 1) == "error-game-exists"
    else:
        assert rematch.refusal(None, record(2, status), None) == "error-no-rematch"


async def test_the_rematch_keeps_the_level_its_lobby_chose(
    service: Service, storage: Storage
) -> None:
    """As it keeps the robots: the table asked for the same match again, whatever the chat's
    setting says (here easy); the new lobby's button can still change it."""
    await lobby(service, ALICE, BORIS, VIKA, bots=2)
    assert (await service.lobby.set_bot_level(CHAT, ALICE, Level.STRONG)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    await install(service, storage, last_round(ALICE.id, BORIS.id, VIKA.id))
    assert (await service.play.act(ALICE, "play r5", chat_key=CHAT)).match_finished
    assert not (await service.settings.settings(CHAT)).strong_bots
    out = await service.lobby.rematch(CHAT, BORIS)
    assert out.ok and out.table is not None and out.table.bot_level is Level.STRONG
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["lobby_bot_level"] == "strong"
    assert (await service.lobby.set_bot_level(CHAT, BORIS, Level.EASY)).ok
    assert (await service.lobby.start_game(CHAT, BORIS)).ok
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "easy"


async def test_a_level_left_to_the_setting_follows_the_setting_into_the_rematch(
    service: Service, storage: Storage
) -> None:
    """Nobody chose a level in the lobby: the setting decided, and a change of it between the
    matches (the console's settings, /settings) decides the rematch."""
    await lobby(service, ALICE, BORIS, VIKA, bots=2)
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "easy"
    await install(service, storage, last_round(ALICE.id, BORIS.id, VIKA.id))
    assert (await service.play.act(ALICE, "play r5", chat_key=CHAT)).match_finished
    assert (await service.settings.toggle_setting(CHAT, ALICE, "strong_bots", is_admin=True)).ok
    out = await service.lobby.rematch(CHAT, BORIS)
    assert out.ok and out.table is not None and out.table.bot_level is Level.STRONG
    assert (await service.lobby.start_game(CHAT, BORIS)).ok
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.meta["bot_level"] == "strong"
