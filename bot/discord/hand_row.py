"""A hand at a glance: every card it holds as its emoji, in one row of the hand's text.

The buttons show only what can be played now; the row shows the whole hand in its order (grouped
by color), the cards not playable now dimmed. It rides in the hand message's own text, so it
costs no call of its own. It comes under the text line of the cards, which stays: that line
carries the color-blind marks and reads well aloud (an emoji is read by its name). A message
holds 2,000 characters and an emoji takes about 40: the first cards are pictures, as many as
fit, the rest their labels; without a single picture there is no row.
"""

from __future__ import annotations

import itertools

from bot.discord.emoji import CardEmoji
from bot.presentation.render import Renderer
from bot.service.views import HandView
from core.actions import ActionType
from core.cards import Card

GROUP_GAP = "  "  # between two colors, as the text line spaces its cards
# What the row leaves free of a message's 2,000 characters: a wild's second step writes its
# question under the hand (`Texts.step_message`), and it must fit too.
ROOM_LEFT = 200


def playable(hand: HandView) -> set[Card]:
    """The cards the hand may play now (as buttons or in the card menu)."""
    return {
        c.action.card
        for c in hand.choices
        if c.action.type is ActionType.PLAY and c.action.card is not None
    }


def hand_row(hand: HandView, emoji: CardEmoji, r: Renderer, room: int) -> str | None:
    """The hand as pictures in at most `room` characters; None when not one picture fits (or
    the hand shows no cards), so that the hand's text stays as it is."""
    if hand.left or not hand.cards:
        return None
    lang, can_play = hand.lang, playable(hand)
    pictures = [emoji.emoji(card, lang, dimmed=card not in can_play) for card in hand.cards]
    drawn = [i for i, picture in enumerate(pictures) if picture is not None]
    if not drawn:
        return None
    labels = [r.card(lang, card, hand.colorblind) for card in hand.cards]
    # The more pictures, the longer the row: the first cards' pictures, as many as fit.
    for shown in range(len(drawn), 0, -1):
        chosen = set(drawn[:shown])
        tokens = [str(pictures[i]) if i in chosen else labels[i] for i in range(len(labels))]
        row = _row(hand.cards, tokens, chosen)
        if len(row) <= room:
            return row
    return None


def _row(cards: list[Card], tokens: list[str], pictures: set[int]) -> str:
    """The tokens grouped by their card's color: pictures side by side, a label spaced."""
    groups = []
    for _, members in itertools.groupby(range(len(cards)), key=lambda i: cards[i].color):
        text = ""
        previous: int | None = None
        for i in members:
            joint = "" if previous is None or {previous, i} <= pictures else " "
            text += joint + tokens[i]
            previous = i
        groups.append(text)
    return GROUP_GAP.join(groups)
