"""The private hand as a picture, end to end against the fake Bot API: a photo of the hand with
its text as the caption and the same buttons, one call per update like a text hand, text where
a caption cannot hold it, and the person's own switch (/pictures)."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image

from bot.art.hand import HandPicture, layout
from bot.telegram.common import chat_key
from bot.telegram.pictures import CAPTION_LIMIT, PICTURE_FROM, utf16_length
from core.cards import Card, standard_deck
from core.game import Game
from core.rules import Rules
from tests.telegram.conftest import Harness, can_act, policy, press_turn
from tests.telegram.fake_bot_api import ApiCall, FakeUser, StoredMessage

PHOTO_CALLS = ("sendPhoto", "editMessageMedia")


def pictures_from(h: Harness, cards: int) -> None:
    """Show hands as pictures from `cards` cards on (the default is `PICTURE_FROM`)."""
    assert h.app is not None and h.app.ui is not None
    h.app.ui.picture_from = cards


def size_of(h: Harness, msg: StoredMessage) -> tuple[int, int]:
    with Image.open(io.BytesIO(h.api.picture(msg))) as image:
        return image.size


def private_calls(h: Harness, since: int = 0) -> list[ApiCall]:
    """The bot's calls to the players' private chats (the hands), without callback answers."""
    people = {u.id for u in h.users}
    return [c for c in h.api.calls()[since:] if c.ok and c.chat_id in people]


async def _play_to_the_end(h: Harness, max_moves: int = 800) -> int:
    """Everyone plays `policy` through their hands' buttons until the match is over."""
    assert h.storage is not None
    for moves in range(max_moves):
        if await h.storage.active_game(chat_key(h.group.id)) is None:
            return moves
        if await press_turn(h, h.users) is None:
            raise AssertionError("nobody can act")
    raise AssertionError("the match did not end")


async def _hand_cards(h: Harness, user: FakeUser) -> list[Card]:
    game = await h.game()
    return list(game.hands[str(user.id)])


@pytest.mark.parametrize("harness", [{"players": 2, "seed": 4}], indirect=True)
async def test_a_match_played_from_pictures_to_its_end(harness: Harness) -> None:
    h = harness
    pictures_from(h, 1)
    await h.set_setting(h.users[0], "target", "1000")  # the button goes round: 500, 1000, 100
    await h.set_setting(h.users[0], "target", "100")
    game_id = await h.new_game(players=2)
    for user in h.users:
        hand = await h.hand(user)
        assert hand.photo is not None and hand.text is None
        assert h.r.t("ru", "hand-title", count=7) in hand.plain_text
        cards = await _hand_cards(h, user)
        # The picture is the hand's: as wide and as tall as a picture of that many cards.
        acting = any(a.split()[0] == "play" for a in await h.acts(user))
        game = await h.game()
        top = game.top_card if acting else None
        color = game.current_color if acting else None
        expected = layout(HandPicture.of(cards, top=top, color=color)).size
        assert size_of(h, hand) == expected

    moves = await _play_to_the_end(h)
    assert moves > 10
    finished = h.r.t("ru", "hand-finished")
    assert h.storage is not None
    for user in h.users:
        ref = await h.storage.get_ref(game_id, f"tg:hand:{user.id}")
        assert ref is not None
        hand = h.api.message(user.id, int(ref))
        assert hand.photo is not None and finished in hand.plain_text
        assert hand.buttons == []  # a finished hand has nothing to press
    # Every hand update was one call: sent as a photo, then edited as one, or moved down when a
    # turn began (a new photo, the old one deleted): one hand message each is left.
    kinds = Counter(c.method for c in private_calls(h))
    assert kinds["sendPhoto"] > 4 and kinds["editMessageMedia"] > moves // 2
    assert kinds["deleteMessage"] == kinds["sendPhoto"] - len(h.users)
    assert kinds["editMessageText"] == 0
    for user in h.users:
        assert len([m for m in h.api.messages(user.id) if m.from_bot and m.photo]) == 1
    assert not [c for c in h.api.calls() if not c.ok and c.method in PHOTO_CALLS]


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 11}], indirect=True)
async def test_the_picture_follows_the_hand(harness: Harness) -> None:
    h = harness
    pictures_from(h, 1)
    await h.new_game(players=3)
    seen: dict[int, set[bytes]] = {u.id: set() for u in h.users}
    for _ in range(12):
        for user in h.users:
            acts = await can_act(h, user)
            if acts:
                before = h.api.picture(await h.hand(user))
                count = len(await _hand_cards(h, user))
                act = policy(acts)
                assert act is not None
                await h.act(user, act)
                await h.settle()
                hand = await h.hand(user)
                after = h.api.picture(hand)
                if len(await _hand_cards(h, user)) != count:  # a card played or drawn
                    assert after != before
                seen[user.id].add(after)
                break
    assert all(len(pictures) >= 2 for pictures in seen.values() if pictures)
    # Waiting hands show no top card: their picture holds the hand alone.
    game = await h.game()
    for user in h.users:
        if str(user.id) != game.current_player and not await can_act(h, user):
            cards = await _hand_cards(h, user)
            assert size_of(h, await h.hand(user)) == layout(HandPicture.of(cards)).size


async def _calls_per_move(h: Harness, moves: int) -> tuple[float, Counter[str]]:
    await h.new_game(players=3)
    since = h.api.call_count
    played = 0
    while played < moves:
        for user in h.users:
            acts = await can_act(h, user)
            if acts:
                act = policy(acts)
                assert act is not None
                answer = await h.act(user, act)
                assert answer.text is None
                played += 0 if act.startswith("pick ") else 1
                break
        else:
            raise AssertionError("nobody can act")
    await h.settle()
    calls = private_calls(h, since)
    return len(calls) / played, Counter(c.method for c in calls)


async def test_pictures_cost_no_more_private_calls_per_move_than_text(
    make_harness: Callable[..., Harness],
) -> None:
    """The same seeded game, played the same way, as text hands and as picture hands."""
    counts = {}
    for cards in (1000, 1):  # never a picture, then always one
        h = make_harness(players=3, seed=11)
        await h.start()
        try:
            pictures_from(h, cards)
            counts[cards] = await _calls_per_move(h, 30)
        finally:
            await h.stop()
    (text_rate, text_kinds), (picture_rate, picture_kinds) = counts[1000], counts[1]
    assert picture_kinds["editMessageText"] == 0
    assert not any(text_kinds[m] for m in PHOTO_CALLS)
    assert picture_kinds["sendPhoto"] + picture_kinds["editMessageMedia"] > 0
    # Each text send or edit became a photo send or edit: the same number of calls.
    assert picture_rate == text_rate, (text_kinds, picture_kinds)
    assert picture_kinds["deleteMessage"] == text_kinds["deleteMessage"]


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 11}], indirect=True)
async def test_a_picture_comes_from_eight_cards_and_stays_until_the_next_new_message(
    harness: Harness,
) -> None:
    h = harness
    assert PICTURE_FROM == 8
    await h.new_game(players=3)
    a, b = h.users[:2]
    players = [str(u.id) for u in h.users]
    seven = "r1 r2 r3 r4 r5 r6 r7"
    game = Game.from_position(
        players=players,
        hands={players[0]: seven, players[1]: seven + " g8", players[2]: seven},
        rules=Rules.preset("classic"),
        discard="b5",
        draw="y1 y2 y3 y4 y5 y6 y7 y8 y9",
        current=players[0],
    )
    await h.install(game)
    assert (await h.hand(a)).photo is None  # seven cards: text
    assert (await h.hand(b)).photo is not None  # eight: a picture
    since = h.api.call_count
    await h.act(a, "draw")  # the eighth card: the text hand becomes a photo, in place
    await h.settle()
    hand = await h.hand(a)
    assert hand.photo is not None and h.r.t("ru", "hand-title", count=8) in hand.plain_text
    mine = [x.method for x in private_calls(h, since) if x.chat_id == a.id]
    assert mine == ["editMessageMedia"]


@pytest.mark.parametrize("harness", [{"players": 2, "seed": 3}], indirect=True)
async def test_a_hand_too_long_for_a_caption_is_text(harness: Harness) -> None:
    h = harness
    pictures_from(h, 1)
    # The longest hand texts: a chat title of Telegram's 128 characters (named in every hand),
    # color-blind labels, a hundred cards.
    title = ("Очень длинное название группы, " * 5)[:128]
    h.group = h.api.chats[h.group.id] = replace(h.group, title=title)
    await h.set_setting(h.users[0], "colorblind", "on")
    await h.new_game(players=2)
    a, b = h.users
    players = [str(a.id), str(b.id)]
    deck = sorted(standard_deck(), key=lambda card: not card.is_wild)  # the wilds first
    big, rest = [c.text for c in deck[:102]], [c.text for c in deck[102:]]
    game = Game.from_position(
        players=players,
        hands={players[0]: " ".join(big), players[1]: " ".join(rest[:4])},
        rules=Rules.preset("classic"),
        discard=rest[4],
        draw=" ".join(rest[5:]),
        current=players[0],
    )
    await h.install(game)
    hand = await h.hand(a)
    assert hand.photo is None and utf16_length(hand.plain_text) > CAPTION_LIMIT
    other = await h.hand(b)
    assert other.photo is not None  # a short hand still is a picture
    refused = [c for c in h.api.calls() if not c.ok and c.method in PHOTO_CALLS]
    assert refused == []


@pytest.mark.parametrize("harness", [{"players": 2, "seed": 5}], indirect=True)
async def test_pictures_is_a_persons_own_switch(harness: Harness) -> None:
    h = harness
    pictures_from(h, 1)
    a, b = h.users
    await h.new_game(players=2)
    assert (await h.hand(a)).photo is not None
    await h.say(a, "/pictures", chat=a.id)
    assert h.api.last_message(a.id).plain_text == h.r.t("ru", "tg-pictures-off")
    await h.open_hand(a)
    assert (await h.hand(a)).photo is None and (await h.hand(b)).photo is not None
    await h.say(a, "/pictures", chat=a.id)
    assert h.api.last_message(a.id).plain_text == h.r.t("ru", "tg-pictures-on", count=1)
    await h.open_hand(a)
    assert (await h.hand(a)).photo is not None
    await h.say(a, "/pictures")  # in the group: pointed to the private chat
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "tg-pictures-private")
