"""Privacy and language over everything the bot sent to Discord, in a Russian and a Ukrainian game.

One scenario per language touches every kind of message: the lobby, hands by DM and ephemeral, a
closed DM, a wild card, a challenge, a caught UNO, a false catch, a computer player, a stale
button, a stranger's press, /settings, /rules, /help, /stats and /kill. Then every version of
every message is checked:

- privacy: no public message ever shows a card from a hand (no hand, no drawn card, no challenged
  hand, no hand buttons); the challenged hand reaches the challenger only;
- language: every text is in the game's language: no Latin words (so no message ids and no
  English), no placeholders, no letters of the other language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.game import Game
from core.rules import Rules
from tests.discord.fake_discord import message_texts, walk_components
from tests.discord.test_discord_bot import (
    RENDERER,
    Table,
    every_payload,
    hand_button,
    table_factory,
    versions_now,
)

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ONLY_IN = {"ru": re.compile(r"[ыэъёЫЭЪЁ]"), "uk": re.compile(r"[іїєґІЇЄҐ]")}
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
MENTION = re.compile(r"<[@#]\d+>")
ROBOT = "ai:1"
# Cards only Anya ever holds and never plays: her hand, and the four she draws as a penalty.
SECRET = {"b9": "🟦 9", "g6": "🟩 6", "y3": "🟨 3", "y4": "🟨 4", "y5": "🟨 5", "y6": "🟨 6"}


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


async def scenario(t: Table) -> dict[int, int]:
    """Play the scenario; what was on screen when the hand-made position was installed."""
    lang = t.lang
    anya, borya, vika, gleb = t.users

    def tr(key: str, **args: Any) -> str:
        return RENDERER.t(lang, key, **args)

    await t.slash(gleb, "help")
    for user in (anya, borya, vika):  # hands by DM: each player's own choice
        panel = (await t.slash(user, "settings")).original
        assert panel is not None
        await t.select(user, panel, "s:toggle", "dm_hands")
    t.fake.set_dm_closed(vika)
    table = await t.lobby(anya, borya, vika)
    await t.click(anya, table, label=tr("btn-addbot"))
    await t.click(anya, table, label=tr("btn-start"))
    game = Game.from_position(
        players=[t.uid(anya), t.uid(borya), t.uid(vika), ROBOT],
        hands={
            t.uid(anya): "wild4 r7 b9 g6",
            t.uid(borya): "g2 b5 y1 r4",
            t.uid(vika): "g8 g4",
            ROBOT: "b1 b2 b3 r2",
        },
        discard="r1",
        draw="y3 y4 y5 y6 b4 b6 b7 b8 r8 r9 g1 g3 g5 g7",
        rules=Rules.preset("classic"),
    )
    await t.install(game)
    installed = versions_now(t.fake)
    # Anya's hand comes by DM; she bluffs a Wild Draw Four from it.
    await t.click(anya, table, label=tr("btn-my-cards"))
    (anya_dm,) = t.fake.dm_messages(anya)
    await t.press(anya, anya_dm, "pick play wild4")
    await t.press(anya, anya_dm, "play wild4 g")
    # Borya challenges: guilty, Anya draws four; only Borya sees her hand.
    challenge = await t.slash(borya, "challenge")
    revealed = [m for m in challenge.messages if m.is_ephemeral]
    assert len(revealed) == 1 and "🟦 9" in revealed[0].text
    (borya_dm,) = t.fake.dm_messages(borya)
    await t.press(borya, borya_dm, "play g2")
    # Vika (DMs closed) plays from an ephemeral hand and forgets UNO; Anya catches her.
    vika_hand = await t.my_cards(vika)
    await t.press(vika, vika_hand, "play g8")
    await t.slash(anya, "uno")
    assert len((await t.game()).hands[t.uid(vika)]) == 3
    await t.run_due()  # the robot moves
    false_catch = await t.slash(borya, "uno")
    assert false_catch.ephemeral
    # A stale press, a stranger's press, the stranger's menus.
    snapshot = vika_hand.versions[0]
    button = hand_button(snapshot, "draw") or hand_button(snapshot, "play g8")
    assert button is not None
    await t.click(vika, vika_hand, button["custom_id"], snapshot=snapshot)
    await t.click(gleb, table, label=tr("btn-my-cards"))
    await t.slash(gleb, "rules")
    await t.slash(gleb, "stats")
    strangers = (await t.slash(gleb, "settings")).original
    assert strangers is not None
    await t.select(gleb, strangers, "s:timer", "30")
    await t.slash(anya, "kill")
    return installed


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_privacy_and_language_of_everything_sent(
    make_table: Callable[..., Any], lang: str
) -> None:
    async with make_table(locale=lang) as t:
        installed = await scenario(t)
        anya, borya, vika, gleb = t.users
        payloads = list(every_payload(t.fake, public_only=False))
        assert len(payloads) > 40

        # ---------------------------------------------------------------- language
        other = "uk" if lang == "ru" else "ru"
        for message, data in payloads:
            for text in message_texts(data):
                plain = MENTION.sub("", text)
                assert not LATIN_WORD.search(plain), (text, message)
                assert "{" not in plain and "}" not in plain, text
                assert not ONLY_IN[other].search(plain), (lang, text)
            content = str(data.get("content") or "")
            if content and not message.is_loading:
                assert CYRILLIC.search(content), content

        # ---------------------------------------------------------------- privacy
        hand_title = RENDERER.t(lang, "hand-title", count=4).split("(")[0].strip()
        own_draw = RENDERER.t(lang, "event-cards-drawn-own", line="\x00", cards="\x01")
        own_draw = own_draw.split("\x00")[1].split("\x01")[0].strip()
        shown_hand = RENDERER.t(lang, "event-hand-revealed", owner="\x00", cards="\x01")
        shown_hand = shown_hand.split("\x00")[0].strip() or shown_hand.split("\x00")[1][:6]
        for _message, data in every_payload(t.fake, public_only=True, since=installed):
            texts = "\n".join(message_texts(data))
            for label in SECRET.values():
                assert label not in texts, (label, texts)
            assert hand_title not in texts and own_draw not in texts and shown_hand not in texts
            for comp in walk_components(data.get("components") or []):
                assert not str(comp.get("custom_id", "")).startswith(("h:", "hm:"))
        # Anya's hand and draws reached nobody else, but for the challenger's one look.
        for user in (vika, gleb):
            seen = "\n".join(t.fake.visible_texts_for(user))
            assert not any(label in seen for label in SECRET.values()), user.name
            assert shown_hand not in seen
        # The challenged hand went to Borya alone; Anya read her own draws.
        holders = {
            message.id: message
            for message, data in every_payload(t.fake, public_only=False)
            if any(shown_hand in text for text in message_texts(data))
        }
        assert holders and all(
            m.ephemeral_to == borya.id or m.dm_user_id == borya.id for m in holders.values()
        )
        anya_read = [
            text
            for message, data in every_payload(t.fake, public_only=False)
            if message.dm_user_id == anya.id
            for text in message_texts(data)
        ]
        assert any(own_draw in text and SECRET["y3"] in text for text in anya_read)
        t.assert_clean()
