"""One line of text per engine event, for the table log or for one player's private view.

Privacy follows core.events: `CardsDrawn.cards` are shown only to the drawer (everyone else reads
the count), and `HandRevealed` only to its `viewer`. Every event type has a line; None means
"nothing for this viewer". Score lists (round and match results) name the leader first, as the
match's scoring counts: the caller passes that scoring, because the events do not carry it.
`event_lines` renders several events at once; with `score_once` a round that ends the match
names its winner only, and the match's result that follows carries the final score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from bot.presentation.i18n import I18n, dashed
from bot.presentation.standings import ranked
from core import events as ev
from core.cards import Card, Color
from core.rules import Scoring


def event_text(
    i18n: I18n,
    lang: str,
    event: ev.Event,
    name: Callable[[str], str],
    viewer: str | None = None,
    *,
    scoring: Scoring,
    colorblind: bool = False,
    with_scores: bool = True,
) -> str | None:
    """The line for `event` in `lang`; `viewer` None is the group table, else that player's view.

    `name(player_id)` gives display names; `scoring` is the match's (it orders score lists:
    required, so no caller can forget that a tally match ranks the fewest points first);
    `colorblind` marks colors with shapes and letters too; `with_scores` False leaves the score
    list out of a round's result (the match's result that follows says it).
    """

    def label(card: Card, color: Color | None = None) -> str:
        return i18n.card_label(lang, card, color, colorblind)

    def scores(table: Mapping[str, int]) -> str:
        entries = [
            i18n.t(lang, "score-entry", player=name(p), count=n) for p, n in ranked(table, scoring)
        ]
        return ", ".join(entries)

    t = i18n.t
    match event:
        case ev.DealerCardDrawn(player=player, card=card):
            return t(lang, "event-dealer-card-drawn", player=name(player), card=label(card))
        case ev.DealerChosen(player=player):
            return t(lang, "event-dealer-chosen", player=name(player))
        case ev.RoundStarted(number=number, dealer=dealer, hand_size=hand_size):
            return t(
                lang, "event-round-started", number=number, dealer=name(dealer), count=hand_size
            )
        case ev.FirstCardReturned(card=card):
            return t(lang, "event-first-card-returned", card=label(card))
        case ev.FirstCardFlipped(card=card):
            return t(lang, "event-first-card-flipped", card=label(card))
        case ev.CardPlayed(player=player, card=card, color=color, jump_in=jump_in):
            left = t(lang, "event-cards-left", count=event.cards_left)
            if card.is_wild:
                return t(
                    lang,
                    "event-card-played-wild",
                    player=name(player),
                    card=label(card, color),
                    color=i18n.color(lang, color),
                    left=left,
                )
            key = "event-card-played-jump-in" if jump_in else "event-card-played"
            return t(lang, key, player=name(player), card=label(card), left=left)
        case ev.ColorChosen(player=player, color=color):
            return t(
                lang,
                "event-color-chosen",
                player=name(player),
                swatch=i18n.swatch(lang, color, colorblind),
                color=i18n.color(lang, color),
            )
        case ev.CardsDrawn(player=player, count=count, reason=reason, cards=cards):
            if count == 0:
                return t(lang, "event-cards-drawn-none", player=name(player))
            line = t(
                lang, f"event-cards-drawn-{dashed(reason.value)}", player=name(player), count=count
            )
            if viewer is not None and viewer == player and cards:
                own = i18n.card_list(lang, cards, colorblind)
                return t(lang, "event-cards-drawn-own", line=line, cards=own)
            return line
        case ev.CreeperRevealed(player=player):
            return t(lang, "event-creeper-revealed", player=name(player))
        case ev.PileReshuffled(count=count):
            return t(lang, "event-pile-reshuffled", count=count)
        case ev.PlayerSkipped(player=player):
            return t(lang, "event-player-skipped", player=name(player))
        case ev.DirectionChanged(direction=direction):
            way = "clockwise" if direction > 0 else "counterclockwise"
            return t(lang, "event-direction-changed", direction=way)
        case ev.PenaltyPending(target=target, amount=amount, source=source):
            return t(
                lang, "event-penalty-pending", target=name(target), count=amount, card=label(source)
            )
        case ev.Passed(player=player):
            return t(lang, "event-passed", player=name(player))
        case ev.UnoCalled(player=player):
            return t(lang, "event-uno-called", player=name(player))
        case ev.UnoCaught(catcher=catcher, player=player):
            return t(lang, "event-uno-caught", catcher=name(catcher), player=name(player))
        case ev.ChallengeResolved(challenger=challenger, offender=offender, guilty=guilty):
            key = "event-challenge-guilty" if guilty else "event-challenge-innocent"
            return t(lang, key, challenger=name(challenger), offender=name(offender))
        case ev.HandRevealed(viewer=hand_viewer, owner=owner, cards=cards):
            if viewer is None or viewer != hand_viewer:
                return None
            return t(
                lang,
                "event-hand-revealed",
                owner=name(owner),
                cards=i18n.card_list(lang, cards, colorblind),
            )
        case ev.WildFourTakenBack(player=player, color=color):
            return t(
                lang,
                "event-wild-four-taken-back",
                player=name(player),
                swatch=i18n.swatch(lang, color, colorblind),
                color=i18n.color(lang, color),
            )
        case ev.HandsSwapped(player=player, other=other):
            return t(lang, "event-hands-swapped", player=name(player), other=name(other))
        case ev.HandsPassed(direction=direction):
            way = "clockwise" if direction > 0 else "counterclockwise"
            return t(lang, "event-hands-passed", direction=way)
        case ev.TimedOut(player=player, count=count):
            return t(lang, "event-timed-out", player=name(player), count=count)
        case ev.PlayerLeft(player=player, cards_returned=returned):
            return t(lang, "event-player-left", player=name(player), count=returned)
        case ev.RoundEnded(winner=winner, gained=gained, scores=totals, blocked=blocked):
            points = gained.get(winner, 0)
            key = "event-round-ended" if with_scores else "event-round-won"
            args: dict[str, str | int] = {"winner": name(winner)}
            if points > 0:
                key += "-points"
                args["count"] = points
            if with_scores:
                args["scores"] = scores(totals)
            text = t(lang, key, **args)
            # A blocked round says why it ended: the winner still holds cards.
            return t(lang, "event-round-blocked") + " " + text if blocked else text
        case ev.GameEnded(winners=winners, scores=totals):
            return t(
                lang,
                "event-game-ended",
                count=len(winners),
                winners=i18n.join(lang, [name(w) for w in winners]),
                scores=scores(totals),
            )
    return None


def event_lines(
    i18n: I18n,
    lang: str,
    events: Iterable[ev.Event],
    name: Callable[[str], str],
    viewer: str | None = None,
    *,
    scoring: Scoring,
    colorblind: bool = False,
    score_once: bool = False,
) -> list[str]:
    """The lines of several events in order (see `event_text`); with `score_once`, a round's
    result directly followed by the match's result leaves its score list out."""
    listed = list(events)
    lines = []
    for i, event in enumerate(listed):
        last_round = (
            score_once
            and isinstance(event, ev.RoundEnded)
            and i + 1 < len(listed)
            and isinstance(listed[i + 1], ev.GameEnded)
        )
        text = event_text(
            i18n,
            lang,
            event,
            name,
            viewer,
            scoring=scoring,
            colorblind=colorblind,
            with_scores=not last_round,
        )
        if text:
            lines.append(text)
    return lines
