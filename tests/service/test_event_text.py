"""bot.presentation.event_text: privacy of drawn cards and revealed hands, and exact lines."""

from __future__ import annotations

import pytest

from bot.presentation.event_text import event_lines, event_text
from bot.presentation.i18n import LANGS, I18n
from core import events as ev
from core.cards import Card, Color
from core.rules import Scoring

NAMES = {"a": "Аня", "b": "Боря", "c": "Вика"}
C = Card.parse


def sample_events() -> list[ev.Event]:
    """At least one event of every type and every draw reason (test_locales renders them all)."""
    drawn = [
        ev.CardsDrawn("a", n, reason, (C("r7"), C("bskip"), C("wild4"))[:n])
        for reason, n in zip(ev.DrawReason, (1, 2, 3, 3, 3, 2, 3), strict=True)
    ]
    return [
        ev.DealerCardDrawn("a", C("y9")),
        ev.DealerCardDrawn("b", C("wild")),
        ev.DealerChosen("a"),
        ev.RoundStarted(1, "a", 7),
        ev.FirstCardReturned(C("wild4")),
        ev.FirstCardFlipped(C("g5")),
        ev.CardPlayed("a", C("r7"), Color.RED, False, 5),
        ev.CardPlayed("b", C("r7"), Color.RED, True, 1),
        ev.CardPlayed("c", C("wild4"), Color.GREEN, False, 0),
        ev.CardPlayed("c", C("creeper"), Color.BLUE, False, 21),
        ev.ColorChosen("b", Color.YELLOW),
        *drawn,
        ev.CardsDrawn("c", 0, ev.DrawReason.CHOICE, ()),
        ev.CreeperRevealed("a"),
        ev.PileReshuffled(42),
        ev.PlayerSkipped("b"),
        ev.DirectionChanged(-1),
        ev.DirectionChanged(1),
        ev.PenaltyPending("b", 4, C("wild4")),
        ev.PenaltyPending("b", 2, C("b+2")),
        ev.Passed("c"),
        ev.UnoCalled("a"),
        ev.UnoCaught("b", "a"),
        ev.ChallengeResolved("b", "a", True),
        ev.ChallengeResolved("b", "a", False),
        ev.HandRevealed("b", "a", (C("r7"), C("wild4"))),
        ev.WildFourTakenBack("a", Color.RED),
        ev.HandsSwapped("a", "b"),
        ev.HandsPassed(1),
        ev.HandsPassed(-1),
        ev.TimedOut("c", 1),
        ev.TimedOut("c", 2),
        ev.PlayerLeft("c", 3),
        ev.PlayerLeft("c", 0),
        ev.RoundEnded(
            "a", {"a": 0, "b": 21, "c": 4}, {"a": 25, "b": 0, "c": 0}, {"a": 25, "b": 0, "c": 0}
        ),
        ev.RoundEnded(
            "a", {"a": 0, "b": 21, "c": 4}, {"a": 0, "b": 21, "c": 4}, {"a": 0, "b": 21, "c": 4}
        ),
        ev.GameEnded(("a",), {"a": 501, "b": 22, "c": 1}),
        ev.GameEnded(("a", "b"), {"a": 500, "b": 500, "c": 3}),
    ]


@pytest.fixture(scope="module")
def i18n() -> I18n:
    return I18n(strict=True)


def render(
    i18n: I18n,
    event: ev.Event,
    lang: str = "ru",
    viewer: str | None = None,
    cb: bool = False,
    scoring: Scoring = Scoring.WINNER,
) -> str | None:
    return event_text(i18n, lang, event, NAMES.__getitem__, viewer, scoring=scoring, colorblind=cb)


# ------------------------------------------------------------------------------ privacy


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("reason", list(ev.DrawReason))
def test_drawn_cards_are_shown_only_to_the_drawer(
    i18n: I18n, lang: str, reason: ev.DrawReason
) -> None:
    cards = (C("r7"), C("bskip"), C("wild4"))
    event = ev.CardsDrawn("a", 3, reason, cards)
    labels = [i18n.card_label(lang, c) for c in cards]
    for viewer in (None, "b", "c"):
        text = render(i18n, event, lang, viewer)
        assert text is not None
        assert not any(label in text for label in labels), (viewer, text)
    own = render(i18n, event, lang, "a")
    assert own is not None
    assert all(label in own for label in labels), own
    assert own.startswith(render(i18n, event, lang) or "")


@pytest.mark.parametrize("lang", LANGS)
def test_revealed_hand_only_for_the_challenger(i18n: I18n, lang: str) -> None:
    event = ev.HandRevealed("b", "a", (C("r7"), C("wild4")))
    for viewer in (None, "a", "c"):
        assert render(i18n, event, lang, viewer) is None
    text = render(i18n, event, lang, "b")
    assert text is not None and i18n.card_label(lang, C("wild4")) in text


def test_every_private_event_is_hidden_from_the_table(i18n: I18n) -> None:
    for event in sample_events():
        if event.is_private_to() is not None:
            assert render(i18n, event) is None


# ------------------------------------------------------------------------------ exact lines


@pytest.mark.parametrize(
    ("event", "viewer", "ru", "uk"),
    [
        (
            ev.CardsDrawn("a", 2, ev.DrawReason.DRAW_TWO, (C("r7"), C("bskip"))),
            None,
            "«Возьми две»: Аня берёт 2 карты",
            "«Візьми дві»: Аня бере 2 картки",
        ),
        (
            ev.CardsDrawn("a", 2, ev.DrawReason.DRAW_TWO, (C("r7"), C("bskip"))),
            "a",
            "«Возьми две»: Аня берёт 2 карты. Вы взяли: 🟥 7, 🟦 ⊘",
            "«Візьми дві»: Аня бере 2 картки. Ви взяли: 🟥 7, 🟦 ⊘",
        ),
        (
            ev.CardsDrawn("b", 1, ev.DrawReason.CHOICE, (C("g1"),)),
            None,
            "Боря берёт карту из колоды",
            "Боря бере картку з колоди",
        ),
        (
            ev.CardsDrawn("b", 6, ev.DrawReason.CHALLENGE_INNOCENT, ()),
            None,
            "Штраф за напрасную проверку: Боря берёт 6 карт",
            "Штраф за марну перевірку: Боря бере 6 карток",
        ),
        (
            ev.DealerCardDrawn("a", C("y9")),
            None,
            "Выбор раздающего: Аня тянет 🟨 9",
            "Хто роздаватиме: Аня тягне 🟨 9",
        ),
        (
            ev.RoundStarted(2, "b", 7),
            None,
            "Раунд 2. Боря раздаёт каждому 7 карт",
            "Раунд 2. Боря роздає кожному 7 карток",
        ),
        (
            ev.CardPlayed("a", C("wild4"), Color.GREEN, False, 5),
            None,
            "Аня кладёт 🌈 +4→🟩 и заказывает зелёный (осталось 5 карт)",
            "Аня кладе 🌈 +4→🟩 і замовляє зелений (залишилося 5 карток)",
        ),
        (
            ev.CardPlayed("b", C("bskip"), Color.BLUE, True, 1),
            None,
            "Боря перехватывает ход и кладёт 🟦 ⊘ (осталась 1 карта)",
            "Боря перехоплює хід і кладе 🟦 ⊘ (залишилася 1 картка)",
        ),
        (
            ev.CardPlayed("c", C("r+2"), Color.RED, False, 0),
            None,
            "Вика кладёт 🟥 +2 (карт не осталось)",
            "Вика кладе 🟥 +2 (карток не залишилося)",
        ),
        (
            ev.PenaltyPending("b", 4, C("wild4")),
            None,
            "🌈 +4 на игрока Боря: штраф — 4 карты",
            "🌈 +4 на гравця Боря: штраф — 4 картки",
        ),
        (
            ev.CardsDrawn("b", 2, ev.DrawReason.UNO_CAUGHT, ()),
            None,
            "Поймали без УНО: Боря берёт 2 карты",
            "Спіймали без УНО: Боря бере 2 картки",
        ),
        (
            ev.ChallengeResolved("b", "a", True),
            None,
            "Боря проверяет «+4» игрока Аня на блеф: блеф раскрыт!",
            "Боря перевіряє «+4» гравця Аня на блеф: блеф викрито!",
        ),
        (
            ev.PlayerLeft("c", 5),
            None,
            "Вика выходит из игры, 5 карт уходит под колоду",
            "Вика виходить із гри, 5 карток іде під колоду",
        ),
        (
            ev.UnoCaught("b", "a"),
            None,
            "Аня забывает сказать УНО, и Боря это замечает!",
            "Аня забуває сказати УНО, і Боря це помічає!",
        ),
        (
            ev.DirectionChanged(-1),
            None,
            "Направление сменилось: теперь против часовой стрелки ↺",
            "Напрямок змінився: тепер проти годинникової стрілки ↺",
        ),
        (
            ev.PlayerLeft("c", 21),
            None,
            "Вика выходит из игры, 21 карта уходит под колоду",
            "Вика виходить із гри, 21 картка йде під колоду",
        ),
        (
            ev.RoundEnded("a", {"a": 0, "b": 21}, {"a": 21, "b": 0}, {"a": 121, "b": 0}),
            None,
            "Аня выигрывает раунд и получает 21 очко! Счёт: Аня — 121 очко, Боря — 0 очков",
            "Аня виграє раунд і отримує 21 очко! Рахунок: Аня — 121 очко, Боря — 0 очок",
        ),
        (
            ev.GameEnded(("a", "b"), {"a": 502, "b": 502, "c": 3}),
            None,
            "Победу делят Аня и Боря! Итоговый счёт: Аня — 502 очка, Боря — 502 очка, "
            "Вика — 3 очка",
            "Перемогу ділять Аня і Боря! Підсумковий рахунок: Аня — 502 очки, Боря — 502 очки, "
            "Вика — 3 очки",
        ),
        (
            ev.HandRevealed("b", "a", (C("r7"), C("wild4"))),
            "b",
            "Карты игрока Аня: 🟥 7, 🌈 +4",
            "Картки гравця Аня: 🟥 7, 🌈 +4",
        ),
    ],
)
def test_exact_lines(i18n: I18n, event: ev.Event, viewer: str | None, ru: str, uk: str) -> None:
    assert render(i18n, event, "ru", viewer) == ru
    assert render(i18n, event, "uk", viewer) == uk


def test_color_blind_lines_name_colors_with_shape_and_letter(i18n: I18n) -> None:
    played = ev.CardPlayed("a", C("r7"), Color.RED, False, 3)
    assert render(i18n, played, cb=True) == "Аня кладёт 🟥▲К 7 (осталось 3 карты)"
    chosen = ev.ColorChosen("b", Color.YELLOW)
    assert render(i18n, chosen, "uk", cb=True) == "Боря обирає колір: 🟨●Ж жовтий"
    wild = ev.CardPlayed("a", C("wild"), Color.BLUE, False, 3)
    assert render(i18n, wild, cb=True) == "Аня кладёт 🌈→🟦◆С и заказывает синий (осталось 3 карты)"


# ------------------------------------------------------------------------------ score lists


def test_score_lists_rank_the_fewest_points_first_under_tally(i18n: I18n) -> None:
    """Tally scoring: everyone adds their own cards and the fewest points lead."""
    round_ended = ev.RoundEnded(
        "b", {"a": 30, "b": 0, "c": 4}, {"a": 30, "b": 0, "c": 4}, {"a": 130, "b": 12, "c": 130}
    )
    assert render(i18n, round_ended, scoring=Scoring.TALLY) == (
        "Боря выигрывает раунд! Счёт: Боря — 12 очков, Аня — 130 очков, Вика — 130 очков"
    )
    assert render(i18n, round_ended, "uk", scoring=Scoring.TALLY) == (
        "Боря виграє раунд! Рахунок: Боря — 12 очок, Аня — 130 очок, Вика — 130 очок"
    )
    game_ended = ev.GameEnded(("c",), {"a": 502, "b": 221, "c": 41})
    assert render(i18n, game_ended, scoring=Scoring.TALLY) == (
        "Вика выигрывает игру! Итоговый счёт: Вика — 41 очко, Боря — 221 очко, Аня — 502 очка"
    )
    assert render(i18n, game_ended, "uk", scoring=Scoring.TALLY) == (
        "Вика виграє гру! Підсумковий рахунок: Вика — 41 очко, Боря — 221 очко, Аня — 502 очки"
    )


def test_score_lists_rank_the_most_points_first_under_winner_scoring(i18n: I18n) -> None:
    game_ended = ev.GameEnded(("c",), {"a": 3, "b": 3, "c": 501})
    assert render(i18n, game_ended) == (
        "Вика выигрывает игру! Итоговый счёт: Вика — 501 очко, Аня — 3 очка, Боря — 3 очка"
    )


# ------------------------------------------------------------------------------ said once


def test_a_challenge_says_its_verdict_once_and_its_penalty_once(i18n: I18n) -> None:
    """The verdict and the cards it costs are two lines that do not repeat each other."""
    for guilty, reason in ((True, "CHALLENGE_GUILTY"), (False, "CHALLENGE_INNOCENT")):
        drawer = "a" if guilty else "b"
        count = 4 if guilty else 6
        events = [
            ev.ChallengeResolved("b", "a", guilty),
            ev.CardsDrawn(drawer, count, ev.DrawReason[reason], ()),
        ]
        for lang in LANGS:
            verdict, penalty = event_lines(i18n, lang, events, NAMES.__getitem__, scoring=WINNER)
            assert ("блеф" in verdict) and ("карт" not in verdict)  # the verdict names no cards
            assert "блеф" not in penalty.split(":")[1]  # the penalty line repeats no verdict
            assert i18n.t(lang, "cards-count", count=count).split()[0] in penalty


def test_the_final_score_is_said_once_where_lines_are_read_together(i18n: I18n) -> None:
    totals = {"a": 502, "b": 22}
    events = [ev.RoundEnded("a", {"a": 0, "b": 22}, {"a": 22, "b": 0}, totals)]
    events.append(ev.GameEnded(("a",), totals))
    both = event_lines(i18n, "ru", events, NAMES.__getitem__, scoring=WINNER)
    assert both[0].startswith("Аня выигрывает раунд и получает 22 очка!")
    assert [line.count("Аня — 502 очка") for line in both] == [1, 1]  # chats: each says it
    once = event_lines(i18n, "ru", events, NAMES.__getitem__, scoring=WINNER, score_once=True)
    assert once == ["Аня выигрывает раунд и получает 22 очка!", both[1]]
    # A round that does not end the match keeps its score.
    assert event_lines(i18n, "uk", events[:1], NAMES.__getitem__, scoring=WINNER, score_once=True)[
        0
    ].endswith("Рахунок: Аня — 502 очки, Боря — 22 очки")


# ------------------------------------------------------------------------------ color-blind mode


def test_every_card_named_in_a_line_carries_the_color_blind_mark(i18n: I18n) -> None:
    """Every event that names a colored card or a color marks it with a shape and a letter."""
    marks = [i18n.swatch("ru", color, colorblind=True) for color in Color]
    for event in sample_events():
        for viewer in (None, "a", "b"):
            plain = event_text(i18n, "ru", event, NAMES.__getitem__, viewer, scoring=WINNER)
            marked = event_text(
                i18n, "ru", event, NAMES.__getitem__, viewer, scoring=WINNER, colorblind=True
            )
            if plain is None:
                continue
            assert marked is not None
            for color in Color:
                emoji = i18n.t("ru", f"color-{color.name.lower()}-emoji")
                assert marked.count(emoji) == sum(marked.count(m) for m in marks if emoji in m)
                assert plain.count(emoji) == marked.count(emoji)


WINNER = Scoring.WINNER
