"""`make run` without a token, typed at as a person would, in an 80x24 pseudo-terminal."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pexpect
import pytest

from bot.console.layout import width
from tests.console.conftest import (
    BACK_PROMPT,
    PROMPT,
    TURN_PROMPT,
    Spawn,
    active_record,
    active_rules,
    console_db,
    saved_match,
    screen_lines,
)

ENGLISH = re.compile(r"[A-Za-z]{2,}")


def finish(child: pexpect.spawn) -> str:
    """Wait for the process to end; what it printed last."""
    child.expect(pexpect.EOF)
    rest = child.before
    child.close()
    return rest


# ------------------------------------------------------------------------------ a saved match


async def test_a_saved_match_is_not_replaced_silently(tmp_path: Path, spawn: Spawn) -> None:
    db = console_db(tmp_path)
    await saved_match(db, lang="ru", preset="classic")
    child = spawn("--lang", "uk", "--preset", "house")
    child.expect(TURN_PROMPT)
    question = child.before
    assert "Є незавершена партія: Класика, 3 роботи, раунд 1." in question
    assert "1. ▶️ Продовжити її" in question
    assert "2. 🆕 Почати нову: Домашні правила, 3 роботи" in question
    child.sendline("1")  # continue: the classic match, now at a Ukrainian table
    child.expect(TURN_PROMPT)
    turn = child.before
    assert "Продовжуємо збережену партію" in turn
    assert "Гравець — " in turn and "Игрок" not in turn  # the name follows the table's language
    child.sendline("q")
    assert "Партію збережено" in finish(child)
    assert child.exitstatus == 0
    assert (await active_rules(db)).preset_name() == "classic"

    child = spawn("--preset", "house")  # afresh this time
    child.expect(TURN_PROMPT)
    assert "Є незавершена партія" in child.before
    child.sendline("2")
    child.expect(TURN_PROMPT)
    assert "Роздає" in child.before  # a new deal
    child.sendline("q")
    finish(child)
    assert (await active_rules(db)).preset_name() == "house"


async def test_new_starts_afresh_without_asking(tmp_path: Path, spawn: Spawn) -> None:
    db = console_db(tmp_path)
    await saved_match(db)
    child = spawn("--new", "--preset", "minecraft")
    child.expect(TURN_PROMPT)
    assert "незаконченная" not in child.before and "Раздаёт" in child.before
    child.sendline("q")
    assert "Партия сохранена" in finish(child)
    assert (await active_rules(db)).preset_name() == "minecraft"


# ------------------------------------------------------------------------------ bad arguments


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--bots", "0"], "Роботов может быть от 1 до 9, а указано «0»."),
        (["--bots", "12"], "Роботов может быть от 1 до 9, а указано «12»."),
        (["--lang", "uk", "--bots", "12"], "Роботів може бути від 1 до 9, а вказано «12»."),
        (["--preset", "party"], "Набора правил «party» нет; есть classic, house, minecraft."),
        (["--lang", "en"], "Языка «en» нет; есть ru, uk."),
        (["--bots"], "Аргумент --bots задан неверно."),
        (["--robots", "3"], "Такого аргумента нет: --robots 3."),
    ],
)
def test_a_bad_argument_is_one_localized_line(spawn: Spawn, args: list[str], said: str) -> None:
    child = spawn(*args)
    lines = [line for line in screen_lines(finish(child)) if line.strip()]
    assert child.exitstatus == 2
    assert len(lines) == 1 and lines[0].startswith(said), lines
    assert "Traceback" not in lines[0]


# ------------------------------------------------------------------------------ a wild card


async def test_the_color_prompt_has_a_title_named_colors_and_a_way_back(
    tmp_path: Path, spawn: Spawn
) -> None:
    await saved_match(console_db(tmp_path), wild=True)
    child = spawn()
    child.expect(TURN_PROMPT)
    child.sendline("1")  # continue the saved match
    child.expect(TURN_PROMPT)
    wild = re.search(r"(\d+)\. 🌈", child.before)
    assert wild is not None, child.before
    for answer in ("q", "0"):  # both go back to the same choices, and the game goes on
        child.sendline(wild[1])
        child.expect(BACK_PROMPT)
        step = child.before
        assert "🎨 Выберите цвет для карты 🌈" in step
        for item in ("1. 🟥 красный", "2. 🟨 жёлтый", "3. 🟩 зелёный", "4. 🟦 синий", "0. ↩️ Назад"):
            assert item in step
        child.sendline(answer)
        child.expect(TURN_PROMPT)
        assert f"{wild[1]}. 🌈" in child.before  # the choices again
        assert child.isalive()
    child.sendline(wild[1])
    child.expect(BACK_PROMPT)
    child.sendline("2")
    child.expect(PROMPT)
    assert "заказывает жёлтый" in child.before
    child.sendline("q")
    finish(child)


# ------------------------------------------------------------------------------ leaving


@pytest.mark.parametrize("sigint_ignored", [False, True])
def test_ctrl_c_leaves_at_once_and_says_the_match_is_saved(
    spawn: Spawn, sigint_ignored: bool
) -> None:
    """Also when started as a background job, which inherits SIGINT ignored."""
    child = spawn(sigint_ignored=sigint_ignored)
    child.expect(TURN_PROMPT)
    assert not ENGLISH.search(child.before), child.before  # no log line in English
    child.sendintr()
    child.expect("Партия сохранена", timeout=10)  # no Enter needed
    finish(child)
    assert child.signalstatus is None and child.exitstatus == 130


@pytest.mark.parametrize("leave", ["ctrl-d", "q", "й"])  # й: the q key on a Cyrillic layout
def test_ctrl_d_and_q_say_the_match_is_saved(spawn: Spawn, leave: str) -> None:
    child = spawn("--lang", "uk")
    child.expect(TURN_PROMPT)
    if leave == "ctrl-d":
        child.sendeof()
    else:
        child.sendline(leave)
    assert "💾 Партію збережено" in finish(child)
    assert child.exitstatus == 0


# ------------------------------------------------------------------------------ a turn


async def test_full_turns_fit_an_80_by_24_terminal(tmp_path: Path, spawn: Spawn) -> None:
    await saved_match(console_db(tmp_path))  # a seeded deal: the same turns every time
    child = spawn()
    child.expect(TURN_PROMPT)
    child.sendline("1")  # continue it
    child.expect(TURN_PROMPT)
    for _ in range(6):  # turns, each a full screen: moves, table, hand, choices
        choices = re.findall(r"(\d+)\. ", child.before)
        child.sendline(choices[0] if choices else "1")
        index = child.expect([BACK_PROMPT, TURN_PROMPT])
        if index == 0:  # a wild card: its color first
            child.sendline("1")
            child.expect(TURN_PROMPT)
        turn = screen_lines(child.before + child.after)[1:]  # after the typed answer's line
        screen = turn[-24:]  # what the terminal shows at the prompt
        if len(turn) > 24:  # moves scrolled out of sight: the screen begins by saying so
            assert screen[0].startswith("↑ ещё") and screen[0].endswith("с ходами выше")
            assert screen[0].split()[2] == str(len(turn) - 24 - 1)  # the blank line above
        assert len(screen) <= 24, "\n".join(screen)
        assert max(width(line) for line in screen) <= 80, "\n".join(screen)
        assert screen[-1].endswith("q — выход): ")
        text = "\n".join(screen)
        assert text.count("🃏 Ваши карты") == 1 and text.count("🎴 УНО") == 1
        assert all(a != b for a, b in itertools.pairwise(screen) if a)  # nothing said twice
    child.sendline("q")
    finish(child)


# ------------------------------------------------------------------------------ color-blind mode

MARKED = re.compile(r"🟥▲К|🟨●Ж|🟩■З|🟦◆С")
UNMARKED = re.compile(r"(🟥|🟨|🟩|🟦)(?![▲●■◆])")


def test_colorblind_marks_every_card_and_is_remembered(spawn: Spawn) -> None:
    child = spawn("--colorblind")
    child.expect(TURN_PROMPT)
    screen = child.before
    moves = [line for line in screen_lines(screen) if line.startswith("• ")]
    assert any(MARKED.search(line) for line in moves)  # the move lines
    hand = next(line for line in screen_lines(screen) if line.startswith("🃏"))
    assert MARKED.search(hand)  # the hand
    assert not UNMARKED.search(screen), screen  # and nowhere a color without its mark
    child.sendline("q")
    finish(child)

    child = spawn()  # the table remembers the mode
    child.expect(TURN_PROMPT)
    child.sendline("1")
    child.expect(TURN_PROMPT)
    assert MARKED.search(child.before) and not UNMARKED.search(child.before)
    child.sendline("q")
    finish(child)

    child = spawn("--no-colorblind")
    child.expect(TURN_PROMPT)
    child.sendline("1")
    child.expect(TURN_PROMPT)
    assert UNMARKED.search(child.before) and not MARKED.search(child.before)
    child.sendline("q")
    finish(child)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_help_speaks_the_language(spawn: Spawn, lang: str) -> None:
    child = spawn("--help", "--lang", lang)
    text = finish(child)
    assert child.exitstatus == 0
    words = re.sub(r"python -m bot|--?[a-z-]+|\{[a-z,]+\}", "", text)
    assert not ENGLISH.search(words), text
    assert ("аргументы:" if lang == "ru" else "аргументи:") in text


# ------------------------------------------------------------------------------ settings, rules


async def test_settings_and_rules_at_the_prompt_apply_to_the_next_match(
    tmp_path: Path, spawn: Spawn
) -> None:
    db = console_db(tmp_path)
    child = spawn("--new")
    child.expect(r"s — настройки, r — правила, " + TURN_PROMPT)
    child.sendline("ы")  # `s` where it is on the Cyrillic keyboard
    child.expect(BACK_PROMPT)
    menu = screen_lines(child.before)
    strong = next(line for line in menu if "Сильные роботы: выкл." in line)
    stacking = next(line for line in menu if "Накопление штрафов: выкл." in line)
    assert all(width(line) <= 80 for line in menu)
    child.sendline(strong.split(".")[0].strip())
    child.expect(BACK_PROMPT)
    assert "Сильные роботы: вкл." in child.before
    child.sendline(stacking.split(".")[0].strip())
    child.expect(BACK_PROMPT)
    assert "Накопление штрафов: вкл." in child.before
    child.sendline("q")  # back to the game: the turn is shown again
    child.expect(TURN_PROMPT)
    assert "🎴 УНО · раунд 1" in child.before  # the turn (or the first color) again
    child.sendline("r")
    child.expect("Чтобы вернуться к игре, нажмите ↵")
    rules = child.before
    assert "Классические правила" in rules and "Накопление штрафов: вкл." in rules
    child.sendline("")
    child.expect(TURN_PROMPT)
    child.sendline("q")
    finish(child)
    # The running match keeps the rules and the robots it was dealt with.
    assert not (await active_rules(db)).stacking
    assert (await active_record(db)).meta["bot_level"] == "easy"

    child = spawn("--new")
    child.expect(TURN_PROMPT)
    child.sendline("q")
    finish(child)
    assert (await active_rules(db)).stacking
    assert (await active_record(db)).meta["bot_level"] == "strong"
