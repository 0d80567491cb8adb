"""Every message of both locales, formatted as players see it, against the wording we agreed on.

Each message is formatted with representative arguments: every numeric variable takes the
numbers that pick every plural form (0, 1, 2, 5, 11, 21, 22, 25, 101), every variable that
selects a variant by a word takes each of its words, the rest a sample name. The outputs must
not contain the calques and mistakes found in review (issue 17), and every card must be named
as RULES.md section 7 names it (the full name where a card is named, `+4` where a line is
short). A new message is checked without touching this file.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import cache

import pytest
from fluent.syntax import ast as ftl

from bot.presentation.i18n import LANGS, I18n
from tests.service.test_locales import messages, plural_selects, walk

NUMBERS = (0, 1, 2, 5, 11, 21, 22, 25, 101)
NAME = "Аня"
# Variables that hold a number even where no plural form depends on them.
NUMERIC = frozenset(
    {"count", "score", "seconds", "minutes", "min", "max", "low", "high", "page", "pages"}
    | {"wins", "games", "round", "number", "bots"}
)

# RULES.md section 7, the names a group knows.
RULES_NAMES = {
    "ru": {
        "color-red": "красный",
        "color-yellow": "жёлтый",
        "color-green": "зелёный",
        "color-blue": "синий",
        "card-name-wild": "«Закажи цвет» (Дикая карта)",
        "card-name-wild-four": "«Закажи цвет и возьми четыре» (+4)",
        "card-name-creeper": "Крипер",
    },
    "uk": {
        "color-red": "червоний",
        "color-yellow": "жовтий",
        "color-green": "зелений",
        "color-blue": "синій",
        "card-name-wild": "Дика карта (Замов колір)",
        "card-name-wild-four": "Дика карта «Візьми чотири» (+4)",
        "card-name-creeper": "Кріпер",
    },
}
# The card names that may stand in quotes: the section's names, or the short `+2` / `+4`.
QUOTED_CARDS = {
    "ru": {
        "Пропуск хода",
        "Смена направления",
        "Возьми две",
        "Закажи цвет",
        "Закажи цвет и возьми четыре",
        "+2",
        "+4",
    },
    "uk": {"Пропуск ходу", "Зміна напрямку", "Візьми дві", "Візьми чотири", "+2", "+4"},
}
CARD_WORD = re.compile(r"возьми|візьми|пропуск|смена|зміна|закажи|замов|\+\d", re.IGNORECASE)

# What must not be read: (pattern, why). Case-insensitive.
FORBIDDEN = {
    "ru": [
        (r"несказанн", "«несказанный» means ineffable: say they were caught without UNO"),
        (r"л[её]гкая рука", "a calque: say who has the fewest points in hand"),
        (r"не в игре: исключ", "a log line: «Игрок … исключён из игры»"),
        (r"карт крипер", "the apposition is not declined: «Криперов»"),
        (r"криперов в колоде: \d+ карт", "counts the noun twice"),
        (r"очки до конца игры", "ambiguous: «Очков для победы»"),
        (r"оспорить", "one verb for the challenge: «Проверить на блеф»"),
        (r"или ответ(ить|ьте)|ответ(ить|ьте) на (него|штраф)", "name the answers to a penalty"),
        (r"\d+ человек", "computer players take seats too"),
        (r"игрок\w*-бот|добавить-бота|\bботами\b", "computer players are «роботы»"),
        (
            r"(?<!закажи цвет и )возьми четыре",
            "the Wild Draw Four is «Закажи цвет и возьми четыре»",
        ),
        (r"желт|зелен(?!ь)", "RULES.md writes «жёлтый», «зелёный»"),
        (r"кріп", "the Russian word is «Крипер»"),
        (r"\b[ву] /settings", "Discord shows the command localized: «командой /settings»"),
        (r"(карт|очков) (уходят|остались)", "with 5 and more the verb is singular"),
        (r"лично для вас|лично, .*личн", "a tautology"),
        (r"платформа просит", "a calque"),
        (r"\bсходить\b", "«сделать ход»"),
        (r"выгна", "one verb for removing a player: «исключить»"),
    ],
    "uk": [
        (r"несказан", "say they were caught without UNO"),
        (r"найлегш", "a calque: say who has the fewest points in hand"),
        (r"виключення", "a log line: «Гравця … виключено з гри»"),
        (r"вилуч", "«вилучити» means to confiscate: «виключити»"),
        (r"вигна", "one verb for removing a player: «виключити»"),
        (r"карток кріпер", "the apposition is not declined: «Кріперів»"),
        (r"кріперів у колоді: \d+ карт", "counts the noun twice"),
        (r"очки до кінця гри", "ambiguous: «Очок для перемоги»"),
        (r"оскаржити", "one verb for the challenge: «Перевірити на блеф»"),
        (r"да(йте|ти) відповідь|або відповісти", "a calque; name the answers to a penalty"),
        (r"\d+ осіб", "computer players take seats too"),
        (r"гравц\w*-бот|додати-бота|\bботами\b", "computer players are «роботи»"),
        (r"походит", "«походити» is to walk about: «зробити хід»"),
        (r"по порядку", "«за порядком»"),
        (r"цього ходу", "«за цей хід»"),
        (r"людей з дальтонізмом", "one name for the mode: «Режим для дальтоніків»"),
        (r"(?<!дика карта )(?<!дику карту )(?<!дикої карти )«візьми чотири»", "RULES.md name"),
        (r"крипер", "the Ukrainian word is «Кріпер»"),
        (r"\b[ву] /settings", "Discord shows the command localized: «командою /settings»"),
        (r"(карток|очок) (ідуть|йдуть|залишилися)", "with 5 and more the verb is singular"),
        (r"особисто для вас|особисто, .*особист", "a tautology"),
        (r"платформа просить", "a calque"),
    ],
}


@pytest.fixture(scope="module")
def i18n() -> I18n:
    return I18n(strict=True)


@cache
def variables(lang: str, key: str) -> dict[str, tuple[str | int, ...]]:
    """Each variable of a message (through the messages it references) and its sample values."""
    found: dict[str, tuple[str | int, ...]] = {}
    pending = [key]
    seen = set()
    while pending:
        current = pending.pop()
        seen.add(current)
        message = messages(lang)[current]
        numeric = {
            s.selector.id.name
            for s in plural_selects(message)
            if isinstance(s.selector, ftl.VariableReference)
        }
        for node, _ in walk(message):
            if isinstance(node, ftl.MessageReference) and node.id.name not in seen:
                pending.append(node.id.name)
            elif isinstance(node, ftl.SelectExpression) and isinstance(
                node.selector, ftl.VariableReference
            ):
                name = node.selector.id.name
                if name not in numeric and name not in NUMERIC:
                    words = [v.key.name for v in node.variants if isinstance(v.key, ftl.Identifier)]
                    found[name] = tuple(words)
            if isinstance(node, ftl.VariableReference):
                name = node.id.name
                if name in numeric or name in NUMERIC:
                    found[name] = NUMBERS
                else:
                    found.setdefault(name, (NAME,))
    return found


def formatted(i18n: I18n, lang: str, key: str) -> Iterator[str]:
    names = variables(lang, key)
    for values in itertools.product(*names.values()):
        yield i18n.t(lang, key, **dict(zip(names, values, strict=True)))


@cache
def all_texts(lang: str) -> dict[str, list[str]]:
    i18n = I18n(strict=True)
    return {key: list(formatted(i18n, lang, key)) for key in sorted(i18n.ids(lang))}


def test_both_languages_have_the_same_ids(i18n: I18n) -> None:
    assert i18n.ids("ru") == i18n.ids("uk")


def test_numeric_variables_take_every_sample_number() -> None:
    """The sampler itself: plural selectors and the known numeric names get the numbers."""
    assert variables("ru", "cards-count") == {"count": NUMBERS}
    assert variables("ru", "console-prompt") == {"low": NUMBERS, "high": NUMBERS}
    assert variables("uk", "table-pending")["answer"] == (
        "challenge",
        "pass",
        "defend",
        "challenge-defend",
        "none",
    )
    assert len(all_texts("ru")["table-seat"]) == len(NUMBERS) ** 2


@pytest.mark.parametrize("lang", LANGS)
def test_no_forbidden_phrase_in_any_message(lang: str) -> None:
    found = []
    for key, texts in all_texts(lang).items():
        for pattern, why in FORBIDDEN[lang]:
            for text in texts:
                if re.search(pattern, text, re.IGNORECASE):
                    found.append((key, why, text))
                    break
    assert found == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_forbidden_list_catches_what_it_names(lang: str) -> None:
    """Each pattern matches the text it was written against (a pattern that can fail)."""
    samples = {
        "ru": [
            "Штраф за несказанное УНО",
            "Пойманный забирает «Возьми четыре» обратно",
            "играть могут не больше 10 человек",
            "5 карт уходят под колоду",
            "Правила можно выбрать в /settings.",
        ],
        "uk": [
            "Ви вже взяли картку цього ходу",
            "Можна походити поза чергою",
            "Щоб вилучити гравця",
            "Від «Візьми чотири» можна відбитися",
            "5 карток ідуть під колоду",
        ],
    }[lang]
    for text in samples:
        assert any(re.search(p, text, re.IGNORECASE) for p, _ in FORBIDDEN[lang]), text


@pytest.mark.parametrize("lang", LANGS)
def test_cards_and_colors_are_named_as_in_the_rules(i18n: I18n, lang: str) -> None:
    for key, name in RULES_NAMES[lang].items():
        assert i18n.t(lang, key) == name
    for key, texts in all_texts(lang).items():
        for text in texts:
            for quoted in re.findall(r"«([^»]*)»", text):
                if CARD_WORD.search(quoted):
                    assert quoted in QUOTED_CARDS[lang], (key, quoted)


@pytest.mark.parametrize(
    ("key", "args", "singular"),
    [
        ("table-finished", {"names": NAME}, ("Победитель", "Переможець")),
        ("lobby-invited", {"names": NAME}, ("Ждём игрока ", "Чекаємо на гравця ")),
        ("error-not-enough-players", {}, ("Нужен хотя бы один", "Потрібен хоча б один")),
    ],
)
def test_exactly_one_is_not_21(i18n: I18n, key: str, args: dict[str, str], singular: tuple) -> None:
    """ "Exactly one" is a `[1]` variant: the CLDR `one` form also holds 21 and 101."""
    number = "min" if key == "error-not-enough-players" else "count"
    for lang, word in zip(LANGS, singular, strict=True):
        assert word in i18n.t(lang, key, **args, **{number: 1})
        for n in (2, 21, 101):
            assert word not in i18n.t(lang, key, **args, **{number: n}), (lang, n)


@pytest.mark.parametrize("lang", LANGS)
def test_one_verb_per_action(i18n: I18n, lang: str) -> None:
    challenge = {"ru": "Проверить на блеф", "uk": "Перевірити на блеф"}[lang]
    assert challenge in i18n.t(lang, "btn-challenge")
    assert challenge.split()[0] in i18n.t(lang, "cmd-challenge")
    robot = {"ru": "робот", "uk": "робот"}[lang]
    for key in ("btn-addbot", "cmd-addbot", "cmd-addbot-name", "info-bot-added"):
        assert robot in i18n.t(lang, key).lower(), key
    colorblind = {"ru": "Режим для дальтоников", "uk": "Режим для дальтоніків"}[lang]
    assert i18n.t(lang, "dc-opt-colorblind") == colorblind
    assert i18n.t(lang, "settings-colorblind", value="x").startswith(colorblind)
