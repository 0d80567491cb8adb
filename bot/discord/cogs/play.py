"""Playing: "my cards", a hand's buttons and card menu (a move, a step, a page), /uno and
/challenge. A hand is answered privately; what a move changed is then published for everyone."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

from cachetools import LRUCache
from discord import app_commands, ui

from bot.discord.cogs.base import FeatureCog, Interaction, Parts
from bot.discord.items import PlayHandler
from bot.discord.reply import Reply
from bot.discord.translator import command_description, command_name
from bot.presentation import steps
from bot.presentation.buttons import HandKey
from bot.service import Notice, Outcome, User
from bot.service.views import HandView

NO_GAME = Notice("error-no-game")
KEPT_MOVES = 10_000  # players' last moves remembered, to tell a double click (least recent go)


class Play(FeatureCog, PlayHandler):
    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        # (game, player) -> (version, act) of the last move they pressed
        self._moved: LRUCache[tuple[int, str], tuple[int, str]] = LRUCache(KEPT_MOVES)

    @app_commands.command(name=command_name("uno"), description=command_description("uno"))
    @app_commands.guild_only()
    async def uno(self, interaction: Interaction) -> None:
        """Call one's own UNO or catch whoever forgot: the first the engine receives wins."""
        await self._move_command(interaction, self.service.play.uno)

    @app_commands.command(
        name=command_name("challenge"), description=command_description("challenge")
    )
    @app_commands.guild_only()
    async def challenge(self, interaction: Interaction) -> None:
        await self._move_command(interaction, self.service.play.challenge)

    async def show_hand(self, interaction: Interaction, game: int) -> None:
        """ "My cards": the hand by DM if the player wants it there, else as an ephemeral kept
        up to date while its token lasts."""

        async def handle(reply: Reply) -> None:
            user = self.user(interaction)
            out = await reply.run(self.service.queries.hand(user, game_id=game))
            lang = out.lang
            hand = out.hands.get(user.id)
            if out.error is not None or hand is None:
                await reply.send(self.texts.notice(lang, out.error or steps.NOT_IN_GAME))
                return
            hands = self.publisher.hands
            by_dm = (
                hand.status == "running" and not hand.left and await self.switches.by_dm(hand, out)
            )
            if by_dm and await reply.run(hands.dm_hand(hand, out)):
                await reply.send(self.texts.t(lang, "dc-hand-sent-dm"))
                return
            content, view = self.texts.hand_message(hand, out.names)
            message_id = await reply.send(content, view=view)
            await hands.remember(hand, reply.live(message_id))

        await self.answer(interaction, handle)

    async def press_hand(self, interaction: Interaction, key: HandKey) -> None:
        """A hand's button or card menu (`bot.presentation.steps.press`): a move, a step of a
        two-step move, a page, back."""

        async def handle(reply: Reply) -> None:
            user = self.user(interaction)
            chat = self.publisher.memory.chat_of(key.game)
            pressed = await reply.run(
                steps.press(self.service, user, key, chat_key=chat), update=True
            )
            if pressed.hand is None and (pressed.error or pressed.out.error) == NO_GAME:
                # The button's game is over (a new one may run here): the button is stale.
                await reply.send(self.texts.t(pressed.out.lang, "dc-stale-component"))
                return
            slot = (key.game, user.id)
            if pressed.moved and pressed.out.error is None:
                self._moved[slot] = (key.version, key.act)
            elif pressed.moved and self._moved.get(slot) == (key.version, key.act):
                # The same button again (a double click): that move counted; the hand as it is.
                pressed = dataclasses.replace(pressed, moved=False, error=None)
            if pressed.moved:
                await self._after_move(reply, user, pressed.out, from_hand=True)
            else:
                await self._show_step(reply, pressed)

        await self.answer(interaction, handle)

    async def _show_step(self, reply: Reply, pressed: steps.Press) -> None:
        out, hand = pressed.out, pressed.hand
        if hand is None:
            await reply.send(self.texts.notice(out.lang, pressed.error or steps.NOT_IN_GAME))
            return
        if pressed.error is not None:
            refusal = [self.texts.notice(out.lang, pressed.error)]
            content, view = self.texts.hand_message(hand, out.names, refusal)
        elif pressed.step is not None:
            content, view = self.texts.step_message(hand, out.names, pressed.step)
        else:
            content, view = self.texts.hand_message(hand, out.names, page=pressed.page)
        await self._update_hand(reply, hand, content, view)

    async def _update_hand(
        self, reply: Reply, hand: HandView, content: str, view: ui.View | None
    ) -> None:
        """The pressed hand message shows `hand`, and is kept up to date from now on."""
        await reply.update(content, view)
        await self.publisher.hands.remember(hand, reply.live(None))

    async def _after_move(self, reply: Reply, user: User, out: Outcome, *, from_hand: bool) -> None:
        """Answer a move: the mover's hand privately, then the table, results and other hands."""
        hand = out.hands.get(user.id)
        if out.error is not None:
            text = self.texts.notice(out.lang, out.error)
            if from_hand and hand is not None:
                content, view = self.texts.hand_message(hand, out.names, [text])
                await self._update_hand(reply, hand, content, view)
            else:
                await reply.send(text)
            return
        if hand is None:
            hand = (await self.service.queries.hand(user, chat_key=out.chat_key)).hands.get(user.id)
        private = self.texts.private_notes(out, user.id, hand.colorblind if hand else False)
        skip: set[str] = set()
        if from_hand:
            if hand is not None:
                content, view = self.texts.hand_message(hand, out.names, private)
                await self._update_hand(reply, hand, content, view)
                by_dm = reply.interaction.guild is not None and await self.switches.by_dm(hand, out)
                if not by_dm:
                    skip.add(user.id)
            else:
                left = "\n\n".join(private) or self.texts.t(out.lang, "hand-left")
                await reply.update(left, None)
            await self.publisher.publish(out, skip=skip, reply=reply)
            return
        # A slash command (/uno, /challenge): the result is public, private details are not.
        lines = self.texts.public_lines(out)
        if lines:
            view = self.texts.result_view(out)
            sent = await reply.send("\n".join(lines), public=True, view=view)
            await self.publisher.posted_results(out, sent)
        if hand is not None and (private or not lines):
            content, view = self.texts.hand_message(hand, out.names, private)
            message_id = await reply.send(content, view=view)
            await self.publisher.hands.remember(hand, reply.live(message_id))
            if not await self.switches.by_dm(hand, out):
                skip.add(user.id)  # that message is the hand; by DM, the DM follows too
        await self.publisher.publish(out, announce=False, skip=skip)

    async def _move_command(
        self, interaction: Interaction, call: Callable[[str, User], Awaitable[Outcome]]
    ) -> None:
        async def handle(reply: Reply) -> None:
            user = self.user(interaction)
            out = await reply.run(call(self.chat(interaction), user), public=True)
            await self._after_move(reply, user, out, from_hand=False)

        await self.answer(interaction, handle)
