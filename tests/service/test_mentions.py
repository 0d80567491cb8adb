"""Where a lobby names the people it invites (bot.presentation.mentions), for adapters to mention
them: the spans cover exactly each name, whatever the names contain, in every language."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import LANGS, I18n
from bot.presentation.mentions import Marked, Mention, fill, marker
from bot.presentation.render import Renderer
from bot.service.views import Seat, TableView
from core.rules import Rules

RENDERER = Renderer(I18n(strict=True))


def lobby(lang: str, invited: tuple[str, ...]) -> TableView:
    seats = [
        Seat("1", "Дина", 0, 0, False, False, False),
        Seat("ai:1", "", 0, 0, True, False, False),
    ]
    return TableView(
        chat_key="t:1",
        game_id=2,
        version=1,
        status="lobby",
        lang=lang,
        colorblind=False,
        rules=Rules.preset("classic"),
        creator="1",
        seats=seats,
        invited=invited,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_each_invited_name_is_marked_where_it_stands(lang: str) -> None:
    # The same name twice, a name inside another, a name that looks like a marker, an emoji.
    names = {"2": "Лиса", "3": "Лиса", "4": "🦊 Лиса & <b>", "5": marker(0), "ai:2": ""}
    view = lobby(lang, ("2", "3", "4", "5", "ai:2"))
    marked = RENDERER.lobby_marked(view, names)
    assert marked.text == RENDERER.lobby(view, names) == RENDERER.table(view, names)
    assert [m.player for m in marked.mentions] == ["2", "3", "4", "5"]  # never a robot
    assert [marked.text[m.start : m.end] for m in marked.mentions] == [
        "Лиса",
        "Лиса",
        "🦊 Лиса & <b>",
        marker(0),
    ]
    waiting = RENDERER.i18n.join(lang, ["Лиса", "Лиса", "🦊 Лиса & <b>", marker(0)])
    assert RENDERER.t(lang, "lobby-invited", names=waiting, count=4) in marked.text
    replaced = marked.replaced(lambda p: f"<@{p}>")
    assert RENDERER.i18n.join(lang, ["<@2>", "<@3>", "<@4>", "<@5>"]) in replaced


@pytest.mark.parametrize("lang", LANGS)
def test_a_lobby_that_invites_nobody_marks_nothing(lang: str) -> None:
    marked = RENDERER.table_marked(lobby(lang, ()), {"1": "Дина"})
    assert marked.mentions == () and marked.replaced(lambda p: "?") == marked.text


def test_fill_counts_from_the_offset_and_skips_unknown_markers() -> None:
    marked = fill(f"a {marker(1)} b {marker(7)} c {marker(0)}", ["x", "y"], ["X1", "Y22"], 10)
    assert marked == Marked("a Y22 b  c X1", (Mention("y", 12, 15), Mention("x", 21, 23)))
