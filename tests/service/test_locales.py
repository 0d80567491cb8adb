"""The locales: same ids in every language, every message formats, plural forms, no English.

The variables of each message are discovered from the Fluent AST, so a message added to any
`locales/<lang>/*.ftl` file is checked without touching this file.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from fluent.syntax import FluentParser
from fluent.syntax import ast as ftl

from bot.presentation.event_text import event_text
from bot.presentation.i18n import COMMANDS, LANGS, LOCALES_DIR, I18n, I18nError, normalize_lang
from core import events as ev
from core.cards import ALL_CARDS, COLORS, Card, Color
from core.errors import REASONS
from core.rules import PRESET_NAMES, Rules, Scoring

PLURAL_KEYS = {"one", "few", "many", "other"}
# Numbers tried for every variable that selects a plural form.
SAMPLE_NUMBERS = (0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 101, 111, 1000)
SAMPLE_STRING = "Аня"
NAMES = {"a": "Аня", "b": "Боря", "c": "Вика"}

# English words must not leak into what users read. Allowed, and removed before the check:
# - chat commands, written as the platforms spell them: /new, /join, ... (letters after a slash);
# - single ASCII letters, which are keys to press (the console's "q"), not words.
COMMAND_RE = re.compile(r"/[a-z]+")
ENGLISH_RE = re.compile(r"[A-Za-z]{2,}")
DISCORD_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")


@pytest.fixture(scope="module")
def i18n() -> I18n:
    return I18n(strict=True)


# ------------------------------------------------------------------------------ the AST


@cache
def messages(lang: str) -> dict[str, ftl.Message]:
    parser = FluentParser()
    found: dict[str, ftl.Message] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        for entry in parser.parse(path.read_text(encoding="utf-8")).body:
            assert not isinstance(entry, ftl.Junk), f"{path}: {entry.annotations}"
            if isinstance(entry, ftl.Message):
                assert entry.id.name not in found, f"{path}: {entry.id.name} defined twice"
                found[entry.id.name] = entry
    return found


def walk(node: object, selectors: tuple[str | None, ...] = ()) -> Iterator[tuple[object, tuple]]:
    """Every node under `node`, with the variables of the select expressions around it."""
    yield node, selectors
    if isinstance(node, ftl.SelectExpression):
        yield from walk(node.selector, selectors)
        sel = node.selector
        var = sel.id.name if isinstance(sel, ftl.VariableReference) else None
        for variant in node.variants:
            yield from walk(variant, (*selectors, var))
        return
    if isinstance(node, ftl.BaseNode):
        for value in vars(node).values():
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, ftl.BaseNode) and not isinstance(item, ftl.Span):
                    yield from walk(item, selectors)


def plural_selects(message: ftl.Message) -> list[ftl.SelectExpression]:
    found = []
    for node, _ in walk(message):
        if isinstance(node, ftl.SelectExpression):
            keys = {v.key.name for v in node.variants if isinstance(v.key, ftl.Identifier)}
            if keys & PLURAL_KEYS or any(
                isinstance(v.key, ftl.NumberLiteral) for v in node.variants
            ):
                found.append(node)
    return found


def variables(lang: str, key: str, seen: frozenset[str] = frozenset()) -> tuple[set[str], set[str]]:
    """(all variables, numeric variables) of a message, through the messages it references."""
    message = messages(lang)[key]
    names: set[str] = set()
    numeric: set[str] = set()
    for node, _ in walk(message):
        if isinstance(node, ftl.VariableReference):
            names.add(node.id.name)
        elif isinstance(node, ftl.MessageReference) and node.id.name not in seen:
            more, more_numeric = variables(lang, node.id.name, seen | {key})
            names |= more
            numeric |= more_numeric
    for select in plural_selects(message):
        if isinstance(select.selector, ftl.VariableReference):
            numeric.add(select.selector.id.name)
    return names, numeric


def samples(lang: str, key: str) -> Iterator[dict[str, str | int]]:
    names, numeric = variables(lang, key)
    if not numeric:
        yield {n: SAMPLE_STRING for n in names}
        return
    for number in SAMPLE_NUMBERS:
        yield {n: (number if n in numeric else SAMPLE_STRING) for n in names}


def english(text: str) -> list[str]:
    return ENGLISH_RE.findall(COMMAND_RE.sub("", text))


# ------------------------------------------------------------------------------ the files


def test_languages_have_the_same_message_ids(i18n: I18n) -> None:
    ru, uk = i18n.ids("ru"), i18n.ids("uk")
    assert ru, "no messages loaded"
    assert sorted(ru - uk) == [], "missing in uk"
    assert sorted(uk - ru) == [], "missing in ru"
    assert set(messages("ru")) == ru


def test_every_language_has_files_of_the_same_names() -> None:
    names = {lang: sorted(p.name for p in (LOCALES_DIR / lang).glob("*.ftl")) for lang in LANGS}
    assert names["ru"] == names["uk"]
    for required in ("cards.ftl", "events.ftl", "reasons.ftl", "rules.ftl", "help.ftl"):
        assert required in names["ru"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_formats_with_sample_arguments(i18n: I18n, lang: str) -> None:
    for key in sorted(i18n.ids(lang)):
        for args in samples(lang, key):
            text = i18n.t(lang, key, **args)  # strict: any error raises
            assert text.strip(), key
            assert "{" not in text and "}" not in text, (key, text)
            assert "???" not in text, (key, text)


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_words_in_any_message(i18n: I18n, lang: str) -> None:
    leaks = {}
    for key in sorted(i18n.ids(lang)):
        for args in samples(lang, key):
            words = english(i18n.t(lang, key, **args))
            if words:
                leaks[key] = words
    assert leaks == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_plural_select_has_all_four_forms(lang: str) -> None:
    for key, message in messages(lang).items():
        for select in plural_selects(message):
            keys = {v.key.name for v in select.variants if isinstance(v.key, ftl.Identifier)}
            default = [v for v in select.variants if v.default]
            assert keys >= PLURAL_KEYS, (key, sorted(keys))
            assert isinstance(default[0].key, ftl.Identifier), key
            assert default[0].key.name == "other", key


@pytest.mark.parametrize("lang", LANGS)
def test_counts_are_only_shown_inside_their_plural_select(lang: str) -> None:
    """A variable that selects a plural form (and every `$count`) appears only in its variants."""
    for key, message in messages(lang).items():
        plural_vars = {
            s.selector.id.name
            for s in plural_selects(message)
            if isinstance(s.selector, ftl.VariableReference)
        } | {"count"}
        for node, selectors in walk(message):
            if isinstance(node, ftl.Placeable) and isinstance(
                node.expression, ftl.VariableReference
            ):
                name = node.expression.id.name
                if name in plural_vars:
                    assert name in selectors, f"{lang} {key}: ${name} outside its plural select"


# ------------------------------------------------------------------------------ plural forms


def cldr_category(n: int) -> str:
    """CLDR plural category of a non-negative integer in Russian and Ukrainian (same rule)."""
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


CARD_WORDS = {
    "ru": {"one": "карта", "few": "карты", "many": "карт"},
    "uk": {"one": "картка", "few": "картки", "many": "карток"},
}
POINT_WORDS = {
    "ru": {"one": "очко", "few": "очка", "many": "очков"},
    "uk": {"one": "очко", "few": "очки", "many": "очок"},
}


def plain(text: str) -> str:
    """Drop the digit-group separators (non-breaking spaces) that Babel puts in 1 000."""
    return re.sub(r"(?<=\d)[\u00a0\u202f ](?=\d)", "", text)


@pytest.mark.parametrize("lang", LANGS)
def test_card_count_plural_forms_0_to_1000(i18n: I18n, lang: str) -> None:
    for n in range(1001):
        expected = f"{n} {CARD_WORDS[lang][cldr_category(n)]}"
        assert plain(i18n.t(lang, "cards-count", count=n)) == expected
        assert plain(i18n.count(lang, n)) == expected
        points = f"{n} {POINT_WORDS[lang][cldr_category(n)]}"
        assert plain(i18n.points(lang, n)) == points


@pytest.mark.parametrize(
    ("lang", "n", "text"),
    [
        ("ru", 1, "1 карта"),
        ("ru", 2, "2 карты"),
        ("ru", 5, "5 карт"),
        ("ru", 11, "11 карт"),
        ("ru", 21, "21 карта"),
        ("ru", 22, "22 карты"),
        ("ru", 25, "25 карт"),
        ("ru", 111, "111 карт"),
        ("ru", 1000, "1000 карт"),
        ("uk", 1, "1 картка"),
        ("uk", 2, "2 картки"),
        ("uk", 5, "5 карток"),
        ("uk", 21, "21 картка"),
        ("uk", 12, "12 карток"),
        ("uk", 1000, "1000 карток"),
    ],
)
def test_card_count_examples(i18n: I18n, lang: str, n: int, text: str) -> None:
    assert plain(i18n.count(lang, n)) == text


def test_the_cldr_helper_agrees_with_babel() -> None:
    from babel import Locale
    from babel.plural import to_python

    for lang in LANGS:
        rule = to_python(Locale.parse(lang).plural_form)
        assert all(rule(n) == cldr_category(n) for n in range(1001))


# ------------------------------------------------------------------------------ coverage


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_code_has_a_distinct_text(i18n: I18n, lang: str) -> None:
    texts = {}
    for code in REASONS:
        assert i18n.has(lang, "reason-" + code.replace("_", "-")), code
        texts[code] = i18n.reason(lang, code)
    assert len(set(texts.values())) == len(REASONS)
    assert i18n.t(lang, "reason-unknown")


def test_reason_texts_say_what_was_asked() -> None:
    i18n = I18n(strict=True)
    assert i18n.reason("ru", "not_your_turn") == "Сейчас не ваш ход"
    assert i18n.reason("uk", "not_your_turn") == "Зараз не ваш хід"
    assert "перехватил" in i18n.reason("ru", "turn_taken_by_jump_in")
    assert "перехопив" in i18n.reason("uk", "turn_taken_by_jump_in")


@pytest.mark.parametrize("lang", LANGS)
def test_presets_options_and_scoring_have_texts(i18n: I18n, lang: str) -> None:
    for preset in PRESET_NAMES:
        assert i18n.preset_name(lang, preset)
        assert len(i18n.rules_summary(lang, preset).splitlines()) >= 2
    for field in dataclasses.fields(Rules):
        assert i18n.option_name(lang, field.name)
        assert i18n.option_help(lang, field.name)
        assert i18n.has(lang, f"opt-{field.name}")
    for scoring in Scoring:
        assert i18n.t(lang, f"scoring-{scoring.value}")
        assert i18n.t(lang, f"scoring-{scoring.value}-help")


@pytest.mark.parametrize("lang", LANGS)
def test_help_mentions_every_player_command(i18n: I18n, lang: str) -> None:
    text = i18n.help_text(lang)
    for command in COMMANDS:
        assert f"/{command}" in text, command


@pytest.mark.parametrize("lang", LANGS)
def test_command_descriptions_and_discord_names(i18n: I18n, lang: str) -> None:
    names = []
    for command in COMMANDS:
        description = i18n.command_description(lang, command)
        assert 1 <= len(description) <= 100, command
        name = i18n.command_name(lang, command)
        assert DISCORD_NAME_RE.match(name), name
        assert name == name.lower(), name
        assert CYRILLIC_RE.search(name), name
        names.append(name)
    assert len(set(names)) == len(names), names
    assert i18n.command_name(lang, "uno") == "уно"


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_and_event_type_renders(i18n: I18n, lang: str) -> None:
    from tests.service.test_event_text import sample_events

    events = sample_events()
    assert {type(e).name for e in events} == set(ev.EVENT_TYPES)
    assert {e.reason for e in events if isinstance(e, ev.CardsDrawn)} == set(ev.DrawReason)
    for colorblind, scoring in zip((False, True), Scoring, strict=True):
        for event in events:
            for viewer in (None, "a", "b", "c"):
                text = event_text(
                    i18n,
                    lang,
                    event,
                    NAMES.__getitem__,
                    viewer,
                    scoring=scoring,
                    colorblind=colorblind,
                )
                if text is None:
                    assert event.is_private_to() is not None, event
                    continue
                assert text.strip() and "{" not in text and "}" not in text, text
                assert english(text) == [], text


# ------------------------------------------------------------------------------ cards


@pytest.mark.parametrize("lang", LANGS)
def test_card_labels_and_names_are_distinct(i18n: I18n, lang: str) -> None:
    for colorblind in (False, True):
        labels = [i18n.card_label(lang, c, colorblind=colorblind) for c in ALL_CARDS]
        assert len(set(labels)) == len(ALL_CARDS)
    names = [i18n.card_name(lang, c) for c in ALL_CARDS]
    assert len(set(names)) == len(ALL_CARDS)
    assert all(not english(n) for n in names)


@pytest.mark.parametrize("lang", LANGS)
def test_color_blind_labels_do_not_rely_on_color(i18n: I18n, lang: str) -> None:
    emojis = {i18n.t(lang, f"color-{c.name.lower()}-emoji") for c in COLORS}
    shapes = {i18n.t(lang, f"color-{c.name.lower()}-shape") for c in COLORS}
    letters = {i18n.t(lang, f"color-{c.name.lower()}-letter") for c in COLORS}
    assert len(shapes) == len(letters) == len(emojis) == 4

    def without_emoji(text: str) -> str:
        for emoji in emojis:
            text = text.replace(emoji, "")
        return text

    labels = [without_emoji(i18n.card_label(lang, c, colorblind=True)) for c in ALL_CARDS]
    assert len(set(labels)) == len(ALL_CARDS)
    chosen = {
        without_emoji(i18n.card_label(lang, Card.parse("wild"), color, colorblind=True))
        for color in COLORS
    }
    assert len(chosen) == 4
    for color in COLORS:
        # Each color's letter is the first letter of its name in that language.
        name = i18n.color(lang, color)
        assert i18n.t(lang, f"color-{color.name.lower()}-letter") == name[0].upper()


def test_card_labels_and_names_examples() -> None:
    i18n = I18n(strict=True)
    label = i18n.card_label
    assert label("ru", Card.parse("r7")) == "🟥 7"
    assert label("ru", Card.parse("bskip")) == "🟦 ⊘"
    assert label("ru", Card.parse("grev")) == "🟩 ⇄"
    assert label("ru", Card.parse("y+2")) == "🟨 +2"
    assert label("ru", Card.parse("wild")) == "🌈"
    assert label("ru", Card.parse("wild"), Color.RED) == "🌈→🟥"
    assert label("ru", Card.parse("wild4")) == "🌈 +4"
    assert label("ru", Card.parse("creeper")) == "💥"
    assert label("ru", Card.parse("r7"), colorblind=True) == "🟥▲К 7"
    assert label("uk", Card.parse("r7"), colorblind=True) == "🟥▲Ч 7"
    assert label("uk", Card.parse("wild4"), Color.BLUE, colorblind=True) == "🌈 +4→🟦◆С"
    name = i18n.card_name
    assert name("ru", Card.parse("r7")) == "красная 7"
    assert name("uk", Card.parse("r7")) == "червона 7"
    assert name("ru", Card.parse("bskip")) == "синяя карта «Пропуск хода»"
    assert name("uk", Card.parse("g+2")) == "зелена картка «Візьми дві» (+2)"
    assert name("ru", Card.parse("wild4")) == "«Закажи цвет и возьми четыре» (+4)"
    assert name("uk", Card.parse("creeper")) == "Кріпер"
    assert (
        name("ru", Card.parse("wild"), Color.YELLOW) == "«Закажи цвет» (Дикая карта), цвет: жёлтый"
    )
    assert i18n.color("uk", Color.BLUE) == "синій"
    assert i18n.join("ru", ["Аня", "Боря", "Вика"]) == "Аня, Боря и Вика"
    assert i18n.join("uk", ["Аня"]) == "Аня"


# ------------------------------------------------------------------------------ the loader


@pytest.mark.parametrize(
    ("code", "lang"),
    [
        ("uk", "uk"),
        ("uk-UA", "uk"),
        ("uk_UA", "uk"),
        ("ua", "uk"),
        ("UK", "uk"),
        ("ru", "ru"),
        ("ru-RU", "ru"),
        ("en", "ru"),
        ("en-US", "ru"),
        ("", "ru"),
        (None, "ru"),
    ],
)
def test_normalize_lang(code: str | None, lang: str) -> None:
    assert normalize_lang(code) == lang


def _write(root: Path, lang: str, name: str, text: str) -> None:
    (root / lang).mkdir(parents=True, exist_ok=True)
    (root / lang / name).write_text(text, encoding="utf-8")


def test_strict_raises_and_lenient_falls_back(tmp_path: Path) -> None:
    _write(tmp_path, "ru", "a.ftl", "hello = Привет, { $name }\nonly-ru = Только тут\n")
    _write(tmp_path, "uk", "a.ftl", "hello = Привіт, { $name }\n")
    strict = I18n(tmp_path, strict=True)
    lenient = I18n(tmp_path)
    assert strict.t("uk", "hello", name="Аня") == "Привіт, Аня"
    with pytest.raises(I18nError):
        strict.t("ru", "missing")
    with pytest.raises(I18nError):
        strict.t("ru", "hello")  # no $name
    with pytest.raises(I18nError):
        strict.t("uk", "only-ru")
    assert lenient.t("ru", "missing") == "missing"
    assert lenient.t("ru", "hello") == "hello"
    assert lenient.t("uk", "only-ru") == "Только тут"
    assert lenient.t("uk-UA", "hello", name="Аня") == "Привіт, Аня"


def test_strict_refuses_broken_files(tmp_path: Path) -> None:
    _write(tmp_path, "ru", "a.ftl", "same = Раз\n")
    _write(tmp_path, "ru", "b.ftl", "same = Два\n")
    _write(tmp_path, "uk", "a.ftl", "same = Раз\n")
    with pytest.raises(I18nError):
        I18n(tmp_path, strict=True)
    assert I18n(tmp_path).t("ru", "same") == "Раз"
    _write(tmp_path, "ru", "b.ftl", "broken = { $\n")
    with pytest.raises(I18nError):
        I18n(tmp_path, strict=True)


def test_get_i18n_is_cached() -> None:
    from bot.presentation.i18n import get_i18n

    assert get_i18n() is get_i18n()
    assert not get_i18n().strict


def test_python_code_has_no_user_facing_words() -> None:
    root = Path(__file__).resolve().parents[2]
    paths = [
        "bot/presentation/i18n.py",
        "bot/presentation/event_text.py",
        "bot/presentation/render.py",
        "bot/__main__.py",
    ]
    paths += [str(p.relative_to(root)) for p in sorted((root / "bot/console").glob("*.py"))]
    assert len(paths) >= 7
    for path in paths:
        assert not CYRILLIC_RE.search((root / path).read_text(encoding="utf-8")), path
