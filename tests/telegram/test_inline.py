"""Playing from the group through inline mode, end to end through the fake Bot API: whole
matches in each play mode, forged and stale choices, the bot's sticker sets."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.presentation.buttons import HandKey, parse
from bot.telegram.common import chat_key
from bot.telegram.stickers import pictures
from core.game import Game
from core.rules import Rules
from tests.telegram.conftest import Harness, press_turn, privacy_violations
from tests.telegram.fake_bot_api import FakeBotAPI, FakeUser, StoredMessage
from tests.telegram.players import policy

RU_ONLY_LETTERS = set("ыэъёЫЭЪЁ")
TURN = ("play", "pick", "draw", "pass", "accept", "challenge", "choose")
REFUSED = "❌"


@pytest.fixture
async def inline(
    api: FakeBotAPI, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Harness]:
    """A harness whose bot has inline mode on; `stickers=True` gives it an owner for its
    sticker sets (created at start)."""
    options: dict[str, Any] = dict(getattr(request, "param", {}))
    api.inline_mode = True
    if options.pop("stickers", False):
        owner = api.new_user("Owner")
        options["app_options"] = {"sticker_owner": owner.id}
    h = Harness(api, tmp_path / "uno.sqlite3", **options)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert privacy_violations(api) == []


async def offered(
    h: Harness, user: FakeUser, query: str | None = None
) -> tuple[str, dict[str, str]]:
    """`user` opens inline mode on the game: the query id, and act -> result id."""
    query_id = h.api.inline_query(user, query if query is not None else f"g{await h.game_id()}")
    await h.settle()
    answer = h.api.inline_answer(query_id)
    assert answer is not None and answer.is_personal and answer.cache_time == 0
    acts = {}
    for rid in answer.ids:
        key = parse(rid)
        if isinstance(key, HandKey):
            acts[key.act] = rid
    return query_id, acts


def refused(msg: StoredMessage) -> bool:
    texts = [msg.text or ""] + [b.get("text", "") for b in msg.buttons]
    return any(t.startswith(REFUSED) for t in texts)


async def choose(
    h: Harness, user: FakeUser, act: str, offer: tuple[str, dict[str, str]] | None = None
) -> StoredMessage:
    """Choose the result for `act` (among `offer`, else a fresh query's); a wild's color (or a
    7's player) on its message then."""
    query_id, acts = offer or await offered(h, user)
    assert act in acts, (user.first_name, act, sorted(acts))
    msg = h.api.choose(query_id, acts[act], h.group)
    await h.settle()
    if act.startswith("pick "):
        steps = {parse(b["callback_data"]): b["callback_data"] for b in msg.buttons}
        second = [k for k in steps if isinstance(k, HandKey) and k.is_move]
        assert second, msg.buttons
        query = h.api.press_inline(user, msg, steps[second[0]])
        await h.settle()
        answer = h.api.callback_answer(query)
        assert answer is not None and answer.text is None, answer
    return msg


async def set_mode(h: Harness, mode: str) -> None:
    """The play mode from the settings keyboard (its button steps through the modes)."""
    await h.say(h.users[0], "/settings")
    msg = h.api.last_message(h.group.id)
    assert any(b["callback_data"].startswith("s:play_mode:") for b in msg.buttons)
    data = f"s:play_mode:{mode}"
    answer = await h.press(h.users[0], h.group, msg.message_id, data, strict=False)
    assert not answer.show_alert, answer
    await h.settle()
    shown = h.api.message(h.group.id, msg.message_id).plain_text
    assert (
        h.r.t("ru", "inline-settings-play-mode", mode=h.r.t("ru", "inline-play-mode-" + mode))
        in shown
    )
    assert (await h.svc.settings.settings(chat_key(h.group.id))).play_mode == mode


async def finished(h: Harness, game_id: int) -> bool:
    assert h.storage is not None
    rec = await h.storage.get_game(game_id)
    assert rec is not None
    return rec.status != "running"


async def short_match(h: Harness, players: int, seed: int) -> int:
    """A new match to 100 points, dealt afresh (the chat's mode was chosen before)."""
    game_id = await h.new_game(players=players)
    ids = [str(u.id) for u in h.users[:players]]
    rules = dataclasses.replace(Rules.preset("classic"), target=100)
    await h.install(Game.new(ids, rules, seed))
    return game_id


async def play_inline_move(h: Harness, users: list[FakeUser]) -> bool:
    """Whoever can act chooses a result by `policy`; False when nobody could."""
    for user in users:
        offer = await offered(h, user)
        acts = offer[1]
        if any(a.split()[0] in TURN for a in acts):
            act = policy(acts)
            assert act is not None
            msg = await choose(h, user, act, offer)
            assert not refused(msg), (user.first_name, act, msg.text, msg.buttons)
            return True
    return False


async def play_private_move(h: Harness, users: list[FakeUser]) -> bool:
    return await press_turn(h, users) is not None


def group_buttons(h: Harness, msg: StoredMessage) -> list[str]:
    return [b["text"] for b in msg.buttons]


# ---------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("inline", [{"players": 3, "stickers": True}], indirect=True)
async def test_a_match_played_from_the_group_only(inline: Harness) -> None:
    h = inline
    await set_mode(h, "group")
    game_id = await short_match(h, 3, seed=5)
    table = await h.table()
    play_here = h.r.t("ru", "inline-btn-play-here")
    assert group_buttons(h, table) == [play_here]
    assert table.buttons[0]["switch_inline_query_current_chat"] == f"g{game_id}"
    private_before = {u.id: len(h.api.messages(u.id)) for u in h.users}
    moves = 0
    while not await finished(h, game_id):
        assert await play_inline_move(h, h.users), "nobody can act"
        moves += 1
        assert moves < 400
    await h.settle()
    # Played only from the group: no hand went to a private chat.
    for user in h.users:
        hands = [m for m in h.api.messages(user.id)[private_before[user.id] :] if m.from_bot]
        assert all(not m.buttons for m in hands), user.first_name
    stickers = [m for m in h.api.messages(h.group.id) if m.sticker]
    assert len(stickers) > 5  # cards played as stickers
    winner = h.r.t("ru", "table-finished", names="", count=1).split(":")[0]
    assert any(winner[:10] in t for t in h.group_texts())


@pytest.mark.parametrize("inline", [{"players": 3}], indirect=True)
async def test_a_match_played_in_the_private_chat_only(inline: Harness) -> None:
    h = inline
    await set_mode(h, "private")
    game_id = await short_match(h, 3, seed=7)
    table = await h.table()
    assert group_buttons(h, table) == [h.r.t("ru", "btn-my-cards")]
    moves = 0
    while not await finished(h, game_id):
        assert await play_private_move(h, h.users), "nobody can act"
        moves += 1
        assert moves < 400
    assert h.api.calls("answerInlineQuery") == []


@pytest.mark.parametrize("inline", [{"players": 3}], indirect=True)
async def test_a_match_played_both_ways_with_text_results(inline: Harness) -> None:
    """The default mode: Alice plays from the group (text results: no sticker set), the others
    in their private chats."""
    h = inline
    a, *others = h.users
    game_id = await short_match(h, 3, seed=9)
    table = await h.table()
    labels = [h.r.t("ru", "btn-my-cards"), h.r.t("ru", "inline-btn-play-here")]
    assert group_buttons(h, table) == labels
    moves = inline_moves = 0
    while not await finished(h, game_id):
        if await play_inline_move(h, [a]):
            inline_moves += 1
        else:
            assert await play_private_move(h, others), "nobody can act"
        moves += 1
        assert moves < 400
    assert inline_moves > 3
    assert not [m for m in h.api.messages(h.group.id) if m.sticker]


# ---------------------------------------------------------------------- refusals


@pytest.mark.parametrize("inline", [{"players": 3}], indirect=True)
async def test_forged_stale_and_out_of_turn_choices_change_nothing(inline: Harness) -> None:
    h = inline
    a, b, _ = h.users
    game_id = await h.new_game(players=3)
    players = [str(u.id) for u in h.users]
    await h.install(
        Game.from_position(
            players=players,
            hands=dict(zip(players, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"], strict=True)),
            discard="r1",
            draw="y3 y4 y5 y6 y7 y8 y9",
            rules=Rules.preset("classic"),
            current=players[0],
        )
    )
    before = (await h.game()).to_dict()

    async def unchanged() -> None:
        assert (await h.game()).to_dict() == before

    # Out of turn: Boris has no move; a forged play of his card is refused on its message.
    query, acts = await offered(h, b)
    assert not any(k.split()[0] in TURN for k in acts)
    version = parse(next(iter(acts.values())))
    assert isinstance(version, HandKey)
    forged = HandKey(game_id, version.version, "play b5").pack()
    msg = h.api.choose(query, forged, h.group, strict=False)
    await h.settle()
    await unchanged()
    assert refused(msg)
    # A dimmed card (not playable now) is refused without a move.
    query, acts = await offered(h, a)
    assert "hold g2" in acts and "play r5" in acts
    msg = h.api.choose(query, acts["hold g2"], h.group)
    await h.settle()
    await unchanged()
    assert refused(msg)
    # Garbage.
    msg = h.api.choose(query, "h:zz", h.group, strict=False)
    await h.settle()
    await unchanged()
    assert refused(msg)
    # Stale: Alice's result from before her hand changed.
    old_query, old = await offered(h, a)
    await choose(h, a, "play r7")
    after = (await h.game()).to_dict()
    assert after != before
    msg = h.api.choose(old_query, old["play r5"], h.group)
    await h.settle()
    assert (await h.game()).to_dict() == after
    assert refused(msg)
    # Someone not in the game gets one result saying so.
    stranger = h.api.new_user("Зритель")
    query_id = h.api.inline_query(stranger, f"g{game_id}")
    await h.settle()
    answer = h.api.inline_answer(query_id)
    assert answer is not None and answer.ids == ["none"]
    assert answer.results[0]["title"] == h.r.t("ru", "inline-not-in-game-title")


@pytest.mark.parametrize("inline", [{"players": 3, "stickers": True}], indirect=True)
async def test_a_wild_asks_its_color_on_the_chosen_sticker(inline: Harness) -> None:
    h = inline
    a, b, _ = h.users
    await h.new_game(players=3)
    players = [str(u.id) for u in h.users]
    await h.install(
        Game.from_position(
            players=players,
            hands=dict(zip(players, ["wild4 r5 b2", "b5 y1 y2", "g9 g8 g7"], strict=True)),
            discard="y1",
            draw="y3 y4 y5 y6 y7 y8 y9",
            rules=Rules.preset("classic"),
            current=players[0],
        )
    )
    query, acts = await offered(h, a)
    answer = h.api.inline_answer(query)
    assert answer is not None
    kinds = {parse(r["id"]).act: r["type"] for r in answer.results}  # type: ignore[union-attr]
    assert kinds["pick play wild4"] == "sticker" and kinds["hold r5"] == "sticker"
    assert kinds["draw"] == "article"
    # Playable first, then moves, then dimmed.
    order = [parse(r["id"]).act.split()[0] for r in answer.results]  # type: ignore[union-attr]
    assert order.index("pick") < order.index("draw") < order.index("hold")
    msg = h.api.choose(query, acts["pick play wild4"], h.group)
    await h.settle()
    colors = [b for b in msg.buttons if "callback_data" in b]
    assert len(colors) == 5  # four colors and back
    # Another player cannot finish Alice's move.
    data = next(b["callback_data"] for b in colors if b["callback_data"].endswith(" g"))
    query_b = h.api.press_inline(b, msg, data)
    await h.settle()
    answer_b = h.api.callback_answer(query_b)
    assert answer_b is not None and answer_b.text == h.r.t("ru", "inline-not-yours")
    assert len((await h.game()).hands[str(a.id)]) == 3
    query_a = h.api.press_inline(a, msg, data)
    await h.settle()
    game = await h.game()
    assert len(game.hands[str(a.id)]) == 2 and str(game.current_color) == "g"
    answer_a = h.api.callback_answer(query_a)
    assert answer_a is not None and answer_a.text is None
    assert [b["text"] for b in msg.buttons] == [h.r.t("ru", "inline-btn-play-here")]


# ---------------------------------------------------------------------- the sticker sets


@pytest.mark.parametrize("inline", [{"players": 2, "stickers": True}], indirect=True)
async def test_the_bot_creates_its_sets_and_a_restart_changes_nothing(inline: Harness) -> None:
    h = inline
    api = h.api
    for lang in ("ru", "uk"):
        found = api.sticker_sets[f"uno_{lang}_by_{api.bot.username}"]
        assert len(found.stickers) == len(pictures(lang)) == 111
    creates = api.calls("createNewStickerSet")
    assert len(creates) == 2 and all(c.ok for c in creates)
    assert len(api.calls("addStickerToSet")) == 2 * (111 - 50)
    calls = api.call_count
    await h.restart()
    made = [
        c.method
        for c in api.calls()[calls:]
        if "Sticker" in c.method and not c.is_("getStickerSet")
    ]
    assert made == []
    # A picture that changed is replaced in place, nothing else.
    name = f"uno_ru_by_{api.bot.username}"
    assert h.service is not None
    manifest = await h.service.settings.personal("tg-stickers:" + name)
    manifest["stickers"][3][1] = "000000000000"
    await h.service.settings.set_personal("tg-stickers:" + name, stickers=manifest["stickers"])
    calls = api.call_count
    await h.restart()
    changed = [c.method for c in api.calls()[calls:] if c.method.endswith("InSet")]
    assert changed == ["replaceStickerInSet"]
    assert len(api.sticker_sets[name].stickers) == 111


async def test_the_set_up_command_creates_the_sets_once(
    api: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.__main__ import run_stickers

    owner = api.new_user("Owner")
    monkeypatch.setenv("TELEGRAM_TOKEN", api.token)
    monkeypatch.setenv("TELEGRAM_API_BASE", api.base_url)
    monkeypatch.setenv("STICKER_OWNER_ID", str(owner.id))
    monkeypatch.setenv("DATABASE", str(tmp_path / "uno.sqlite3"))
    lines: list[str] = []
    assert await run_stickers(lines.append) == 0
    assert len(api.sticker_sets) == 2
    calls = api.call_count
    assert await run_stickers(lines.append) == 0
    second = [c.method for c in api.calls()[calls:]]
    assert set(second) <= {"getMe", "getStickerSet"}, second
    assert len(lines) == 8 and "created: True" in lines[1] and "created: False" in lines[5]
    assert "replaced: 0" in lines[5] and "added: 0" in lines[7]


# ---------------------------------------------------------------------- second steps, notes


def three(h: Harness, hands: list[str], rules: Rules, discard: str = "r1") -> Game:
    players = [str(u.id) for u in h.users]
    return Game.from_position(
        players=players,
        hands=dict(zip(players, hands, strict=True)),
        discard=discard,
        draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
        rules=rules,
        current=players[0],
    )


@pytest.mark.parametrize("inline", [{"players": 3}], indirect=True)
async def test_a_sevens_player_and_a_penalty_answered_from_the_group(inline: Harness) -> None:
    h = inline
    a, b, d = h.users
    await h.new_game(players=3)
    rules = dataclasses.replace(Rules.preset("classic"), seven_zero=True)
    await h.install(three(h, ["r7 g1", "wild4 b5 y1", "g9 g8"], rules))
    # The 7 asks with whom to swap, on the message it left in the chat.
    query, acts = await offered(h, a)
    msg = h.api.choose(query, acts["pick play r7"], h.group)
    await h.settle()
    targets = {
        key.act: data
        for data in (b["callback_data"] for b in msg.buttons if "callback_data" in b)
        if isinstance(key := parse(data), HandKey) and key.is_move
    }
    assert set(targets) == {f"play r7 @{b.id}", f"play r7 @{d.id}"}
    press = h.api.press_inline(a, msg, targets[f"play r7 @{d.id}"])
    await h.settle()
    answer = h.api.callback_answer(press)
    assert answer is not None and answer.text is None
    game = await h.game()
    assert sorted(c.text for c in game.hands[str(a.id)]) == ["g8", "g9"]
    assert [c.text for c in game.hands[str(d.id)]] == ["g1"]
    # Boris plays a +4 on Dina, who may take it or challenge it, from the group.
    _, acts = await offered(h, d)
    assert not any(act.split()[0] in TURN for act in acts)
    await choose(h, b, "pick play wild4")
    _, acts = await offered(h, d)
    assert {"accept", "challenge"} <= set(acts)
    msg = await choose(h, d, "challenge")
    assert not refused(msg)
    assert (await h.game()).pending is None


@pytest.mark.parametrize("inline", [{"players": 3}], indirect=True)
async def test_a_refusal_without_the_chosen_message_goes_to_the_private_chat(
    inline: Harness,
) -> None:
    h = inline
    a, b, _ = h.users
    game_id = await h.new_game(players=3)
    await h.install(three(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"], Rules.preset("classic")))
    before = (await h.game()).to_dict()
    query, acts = await offered(h, a)
    h.api.choose(query, acts["hold g2"], h.group, keyboard=False)
    await h.settle()
    assert (await h.game()).to_dict() == before
    note = h.r.t("ru", "inline-note", reason=h.r.t("ru", "inline-not-playable"))
    assert h.api.last_message(a.id).plain_text == note
    # A dimmed card's key pressed as a private button is stale, like any forged button.
    version = parse(acts["hold g2"])
    assert isinstance(version, HandKey)
    hand = await h.hand(a)
    forged = HandKey(game_id, version.version, "hold g2").pack()
    answer = await h.press(a, a.id, hand.message_id, forged, strict=False)
    assert answer.text == h.r.t("ru", "error-stale")
    assert (await h.game()).to_dict() == before
    # In the group-only mode /start with the deep link points back to the group.
    await set_mode(h, "group")
    await h.say(b, f"/start g{game_id}", chat=b.id)
    assert h.api.last_message(b.id).plain_text == h.r.t("ru", "inline-group-mode")


@pytest.mark.parametrize("inline", [{"players": 3, "lang": "uk"}], indirect=True)
async def test_inline_results_speak_the_chats_language(inline: Harness) -> None:
    h = inline
    h.check_language = True
    a = h.users[0]
    await h.new_game(players=3)
    await h.install(three(h, ["r5 wild g2", "b5 y1 y2", "g9 g8 g7"], Rules.preset("classic")))
    query, _ = await offered(h, a)
    answer = h.api.inline_answer(query)
    assert answer is not None
    texts = [r.get("title", "") + " " + r.get("description", "") for r in answer.results]
    assert all(RU_ONLY_LETTERS.isdisjoint(t) for t in texts), texts
    assert h.r.t("uk", "inline-card-dimmed") in " ".join(texts)
    await choose(h, a, "pick play wild")
    table = await h.table()
    assert h.r.t("uk", "inline-btn-play-here") in [b["text"] for b in table.buttons]
