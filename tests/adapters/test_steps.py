"""Two-step moves, written once for both platforms: the actions sharing a first part are one
button, then a step that lists them (a wild's colors; under seven-zero, the players a 7 swaps
with), with back and stale handling. The 7's actions come from a hand built by hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.presentation import steps
from bot.presentation.buttons import HandKey
from bot.presentation.i18n import I18n
from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, User
from bot.service.unit_of_work import BUSY
from bot.service.views import HandView
from tests.adapters.hands import PLAYERS, SEVEN_ZERO, hand
from tests.adapters.test_publishing import table

R = Renderer(I18n(strict=True))
ANYA = User("100", "Аня", "ru")


def test_actions_sharing_a_first_part_are_one_button() -> None:
    view = hand(*SEVEN_ZERO)
    acts = [o.act for o in steps.options(view)]
    assert acts == ["pick play r7", "play r5", "pick play wild4", "draw"]
    by_act = {o.act: o for o in steps.options(view)}
    assert by_act["pick play r7"].opens == "play r7" and by_act["pick play r7"].card
    assert by_act["play r5"].opens is None
    assert not by_act["draw"].card
    # The first level shows the card, not a color or a player.
    assert steps.option_label(R, view, by_act["pick play r7"]) == R.card("ru", view.cards[1], False)
    assert steps.option_label(R, view, by_act["pick play wild4"]) == R.card(
        "ru", view.cards[2], False
    )


def test_the_second_step_lists_the_players_or_the_colors() -> None:
    view = hand(*SEVEN_ZERO)
    sevens = steps.second_step(view, "play r7")
    assert [str(a) for a in sevens] == ["play r7 @200", "play r7 @300", "play r7 @ai:1"]
    labels = [steps.second_label(R, view, a, PLAYERS) for a in sevens]
    assert labels == ["Боря", "Вика", R.name("ru", "ai:1", PLAYERS)]
    assert all(steps.second_color(a) is None for a in sevens)
    wilds = steps.second_step(view, "play wild4")
    assert [str(a) for a in wilds] == [f"play wild4 {c}" for c in "rygb"]
    assert [steps.second_label(R, view, a, PLAYERS) for a in wilds] == [
        R.color("ru", a.color, False)  # type: ignore[arg-type]
        for a in wilds
    ]
    assert steps.second_step(view, "play b7") == []
    assert "Выберите цвет" in steps.step_title(R, view, "play wild4")
    swap = steps.step_title(R, view, "play r7")
    assert swap == R.t("ru", "step-swap-title", card=R.card("ru", view.cards[1], False))
    assert swap != steps.step_title(R, view, "play wild4")


def test_without_seven_zero_a_seven_is_one_step() -> None:
    view = hand("play r5", "play r7", "draw")
    assert [o.act for o in steps.options(view)] == ["play r5", "play r7", "draw"]


@dataclass
class FakeService:
    """The two calls a press makes; records the moves."""

    view: HandView
    moves: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def act(self, user: User, action: str, **kw: Any) -> Outcome:
        self.moves.append((action, kw))
        return Outcome("tg:-100", "ru", info=Notice("info-moved"))

    async def hand(self, user: User, **kw: Any) -> Outcome:
        out = Outcome(self.view.chat_key, "ru", names=dict(PLAYERS))
        out.hands[user.id] = self.view
        return out

    @property
    def play(self) -> FakeService:  # the press's move
        return self

    @property
    def queries(self) -> FakeService:  # the press's look at the hand
        return self


async def test_a_press_opens_the_step_goes_back_or_moves() -> None:
    service = FakeService(hand(*SEVEN_ZERO, version=4))
    opened = await steps.press(service, ANYA, HandKey(12, 4, "pick play r7"))
    assert (opened.step, opened.error, opened.moved) == ("play r7", None, False)
    back = await steps.press(service, ANYA, HandKey(12, 4, "back"))
    assert (back.step, back.error, back.hand) == (None, None, service.view)
    assert service.moves == []
    moved = await steps.press(service, ANYA, HandKey(12, 4, "play r7 @300"), chat_key="tg:-100")
    assert moved.moved and moved.error is None
    assert service.moves == [("play r7 @300", {"chat_key": "tg:-100", "game_id": 12, "version": 4})]


async def test_an_outdated_or_foreign_step_is_stale() -> None:
    service = FakeService(hand(*SEVEN_ZERO, version=5))
    for act in ("pick play r7", "back", "page 1"):
        old = await steps.press(service, ANYA, HandKey(12, 4, act))  # drawn for version 4
        assert old.error == steps.STALE and old.hand is service.view and old.step is None
    for head in ("play b7", "play wild", "draw"):  # not a first part this hand has
        forged = await steps.press(service, ANYA, HandKey(12, 5, "pick " + head))
        assert forged.error == steps.STALE and forged.step is None
    assert service.moves == []


@dataclass
class Tables:
    """The chat's table as the service reads it: a game, none, or the read refused."""

    out: Outcome

    async def table(self, chat_key: str) -> Outcome:
        return self.out


async def test_a_lobby_button_is_refused_by_why_it_cannot_be_pressed() -> None:
    lobby = Outcome("tg:-100", "ru", table=table(status="lobby"))  # game 12
    assert await steps.lobby_refusal(Tables(lobby), "tg:-100", 12) is None
    assert await steps.lobby_refusal(Tables(lobby), "tg:-100", 11) == steps.STALE
    none = Outcome("tg:-100", "ru", error=Notice("error-no-game"))
    assert await steps.lobby_refusal(Tables(none), "tg:-100", 12) == Notice("error-no-game")
    # A read refused as busy is answered as busy: the lobby may well be there.
    busy = Outcome("tg:-100", "ru", error=BUSY)
    assert await steps.lobby_refusal(Tables(busy), "tg:-100", 12) == BUSY
