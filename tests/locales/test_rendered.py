"""Texts as the renderer puts them together: penalty answers named, color-blind marks kept."""

from __future__ import annotations

import dataclasses

import pytest

from bot.presentation.i18n import I18n
from bot.presentation.render import Renderer
from bot.service import Outcome
from bot.service.views import Choice
from core import events as ev
from core.actions import Action, ActionType
from core.cards import Card
from core.rules import Rules
from tests.console.test_layout import hand_view, table_view

R = Renderer(I18n(strict=True))
WILD4, DRAW2 = Card.parse("wild4"), Card.parse("r+2")


@pytest.mark.parametrize(
    ("top", "rules", "answer"),
    [
        (WILD4, Rules(), "challenge"),
        (WILD4, Rules(no_bluffing=True), "none"),
        (WILD4, Rules(defend_wild_four=True), "challenge-defend"),
        (WILD4, Rules(defend_wild_four=True, no_bluffing=True), "defend"),
        (DRAW2, Rules(), "none"),
        (DRAW2, Rules(pass_draw_two=True), "pass"),
    ],
)
def test_the_table_names_what_a_penalized_player_may_do(
    top: Card, rules: Rules, answer: str
) -> None:
    assert R.penalty_answer(top, rules) == answer
    view = dataclasses.replace(
        table_view(3, 5), top=top, rules=rules, pending_target="human", pending_amount=4
    )
    text = R.table(view, {})
    line = next(line for line in text.splitlines() if "нужно взять 4 карты" in line)
    assert "ответить" not in line
    assert ("проверить «+4» на блеф" in line) == ("challenge" in answer)
    assert ("отбиться картой «Возьми две»" in line) == ("defend" in answer)
    assert ("передать штраф" in line) == (answer == "pass")


def test_the_hand_names_the_answers_it_offers() -> None:
    draw = Choice(Action(ActionType.ACCEPT))
    challenge = Choice(Action(ActionType.CHALLENGE))
    defend = Choice(Action(ActionType.PLAY, Card.parse("g+2")))
    cases = [
        ([draw, challenge], "⚠️ Вам нужно взять 4 карты или проверить «+4» на блеф."),
        ([draw], "⚠️ Вам нужно взять 4 карты."),
        (
            [defend, draw, challenge],
            "⚠️ Вам нужно взять 4 карты, проверить «+4» на блеф или отбиться картой «Возьми две» "
            "заказанного цвета.",
        ),
    ]
    for choices, said in cases:
        view = hand_view([], choices, pending_amount=4, colorblind=False)
        assert R.hand_status(view, {}) == [said]
    passed = hand_view([], [defend, draw], pending_amount=2, top=DRAW2, lang="uk")
    assert R.hand_status(passed, {}) == [
        "⚠️ Вам треба взяти 2 картки або передати штраф своєю «Візьми дві»."
    ]


def test_private_lines_follow_the_chats_color_blind_mode() -> None:
    """A chat in color-blind mode: the drawn cards and a challenged hand carry the marks even
    where an adapter does not say so itself."""
    table = table_view(3, 5)  # colorblind=True
    drawn = ev.CardsDrawn("human", 1, ev.DrawReason.CHOICE, (Card.parse("r7"),))
    shown = ev.HandRevealed("human", "ai:1", (Card.parse("b5"), WILD4))
    out = Outcome("console:local", "ru", table=table, events=[drawn, shown])
    texts = R.private(out, "human")
    assert "🟥▲К 7" in texts[0] and "🟦◆С 5" in texts[1]
    plain = dataclasses.replace(out, table=dataclasses.replace(table, colorblind=False))
    assert "🟥 7" in R.private(plain, "human")[0]
    assert R.colorblind(out) and not R.colorblind(plain)
