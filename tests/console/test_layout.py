"""The console's screen, without a terminal: widths, the compact turn and the second step."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.console.layout import COLUMNS, ROWS, flow, grid, width, wrap
from bot.console.table import ConsoleTable
from bot.presentation.i18n import I18n
from bot.presentation.render import Renderer
from bot.service import Service
from bot.service.views import Choice, HandView, Seat, TableView
from bot.storage import Storage
from core.actions import Action, ActionType
from core.cards import ALL_CARDS, Card, Color
from core.rules import Rules

RENDERER = Renderer(I18n(strict=True))


def test_width_counts_terminal_columns() -> None:
    assert width("abc") == 3
    assert width("🟥 7") == 4  # the swatch is two columns wide
    assert width("▶️ ") == 3  # the emoji style makes a narrow arrow wide
    assert width("е\u0301") == 1  # a combining accent takes no column


def test_flow_and_grid_keep_to_the_width() -> None:
    items = [f"{i}. 🟥 {i}" for i in range(40)]
    lines = flow(items, 30, "  ")
    assert all(width(line) <= 30 for line in lines) and len(lines) > 1
    assert "   ".join(line.strip() for line in lines) == "   ".join(items)
    assert grid(["a", "bbbb", "cc", "d"], 10) == ["a    bbbb", "cc   d"]
    assert grid(["a", "bbbb", "cc"], 80) == ["a   bbbb   cc"]
    assert grid(["a" * 90, "b"], 80) == ["a" * 90, "b"]  # one a line when nothing fits
    assert grid([]) == []


def table_view(players: int, cards: int) -> TableView:
    seats = [
        Seat(f"ai:{i}" if i else "human", "", cards, 120 + i, bool(i), i == 0, i == 3)
        for i in range(players)
    ]
    return TableView(
        chat_key="console:local",
        game_id=1,
        version=1,
        status="running",
        lang="ru",
        colorblind=True,
        rules=Rules(),
        creator="human",
        seats=seats,
        round_no=12,
        top=Card.parse("wild4"),
        color=Color.GREEN,
        current="human",
        draw_size=101,
    )


def hand_view(cards: list[Card], choices: list[Choice], **changes: Any) -> HandView:
    view = HandView(
        chat_key="console:local",
        game_id=1,
        player="human",
        version=1,
        lang="ru",
        colorblind=True,
        status="running",
        cards=cards,
        choices=choices,
        is_turn=True,
        current="human",
        current_name="",
        top=Card.parse("wild4"),
        color=Color.GREEN,
    )
    return dataclasses.replace(view, **changes)


@pytest.fixture
def table() -> Iterator[ConsoleTable]:
    lines: list[str] = []
    service: Any = None  # the screen is built without the service
    console = ConsoleTable(service, RENDERER, say=lines.append)
    console.lines = lines  # type: ignore[attr-defined]
    yield console


def test_the_biggest_turn_leaves_room_for_the_moves(table: ConsoleTable) -> None:
    """Ten players, a 25-card hand with 11 cards to play, color-blind mode, 3-digit scores."""
    cards = sorted(ALL_CARDS, key=lambda c: c.text)[:25]
    playable = [c for c in cards if c.color is Color.GREEN]
    assert len(playable) == 11
    choices = [Choice(Action(ActionType.PLAY, c)) for c in playable]
    choices += [Choice(Action(ActionType.DRAW)), Choice(Action(ActionType.UNO))]
    view = hand_view(cards, choices)
    names = table.names({})
    screen = table.screen.turn_lines(table_view(10, 25), view, names)
    screen += table.screen.menu_lines(view, table.screen.menu(view))
    assert all(width(line) <= COLUMNS for line in screen), screen
    assert len(screen) <= ROWS - 8, "\n".join(screen)  # a prompt and seven moves fit too
    assert sum("Игрок — 25 карт" in line for line in screen) == 1  # the table once
    assert sum(line.startswith("🃏") for line in screen) == 1  # the hand once


@dataclasses.dataclass(frozen=True)
class AimedSeven:
    """What a seven-zero option could list: one `play r7 @<player>` action per target."""

    target: str
    type: ActionType = ActionType.PLAY
    card: Card = dataclasses.field(default_factory=lambda: Card.parse("r7"))
    color: Color | None = None

    def __str__(self) -> str:
        return f"play r7 @{self.target}"


async def test_any_actions_listed_under_one_card_are_a_second_step(
    tmp_path: Path, table: ConsoleTable
) -> None:
    aimed = [AimedSeven("ai:1"), AimedSeven("ai:2")]
    wild = Card.parse("wild")
    colors = tuple(Action(ActionType.PLAY, wild, c) for c in Color)
    choices = [Choice(a) for a in aimed] + [Choice(colors[0], colors)]  # type: ignore[arg-type]
    choices.append(Choice(Action(ActionType.DRAW)))
    view = hand_view([Card.parse("r7"), wild], choices)
    groups = table.screen.menu(view)
    assert [len(g) for g in groups] == [2, 4, 1]  # the seven, the wild, the draw
    menu = "\n".join(table.screen.menu_lines(view, groups))
    assert "1. 🟥▲К 7" in menu and "2. 🌈" in menu and "3. 📥 Взять карту" in menu

    storage = await Storage.open(tmp_path / "console.sqlite3")
    try:
        table.service = Service(storage)
        answers = iter(["5", "2"])  # out of range, then the second player

        async def ask(prompt: str) -> str:
            return next(answers)

        table.ask = ask
        picked = await table._second_step(view, groups[0], table.names({}))
    finally:
        await storage.close()
    assert picked is aimed[1]
    said = "\n".join(table.lines)  # type: ignore[attr-defined]
    assert "Как сыграть карту 🟥▲К 7?" in said
    assert "1. 🤖 Робот 1   2. 🤖 Робот 2   0. ↩️ Назад" in said
    assert "Введите число от 0 до 2." in said


def test_moves_that_scroll_away_are_counted_on_the_screen(table: ConsoleTable) -> None:
    lines = table.lines  # type: ignore[attr-defined]
    table._moves = [f"• ход {i}" for i in range(10)]
    table.flush(room=11)  # a blank line and ten moves fit
    assert lines == [f"• ход {i}" for i in range(10)]
    lines.clear()
    table._moves = [f"• ход {i}" for i in range(10)]
    table.flush(room=5)  # the note and the last four moves stay in sight
    assert lines[-5:] == ["↑ ещё 6 строк с ходами выше", "• ход 6", "• ход 7", "• ход 8", "• ход 9"]
    assert lines[:6] == [f"• ход {i}" for i in range(6)]  # nothing is lost: it is above


def test_wrap_breaks_long_lines_between_words() -> None:
    text = "• 🤖 Робот 3 проверяет «+4» игрока 🤖 Робот 2 на блеф: всё честно, блефа не было."
    lines = wrap(text, 40)
    assert all(width(line) <= 40 for line in lines) and len(lines) == 3
    assert " ".join(line.strip() for line in lines) == text
    assert lines[1].startswith("  ")
    assert wrap("короткая строка", 40) == ["короткая строка"]
