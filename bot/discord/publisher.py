"""Which message shows each part of an outcome, when several processes may show one game.

Any process may publish any game (a move made in a DM, a deadline or an outbox entry it claimed),
so nothing another process may have changed is trusted from memory. The order of a publication
is `bot.delivery.publishing`'s; the Discord calls are the `MessageOps` (`bot.discord.messages`);
this module decides which message each part goes to, and remembers what it safely can.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Mapping
from functools import partial
from typing import Any

from bot.delivery import publishing
from bot.delivery.outbox_loop import Delivery
from bot.delivery.publisher import RESULTS, GameRefs, NotRead, read_again
from bot.discord.chats import PREFIX, channel_of
from bot.discord.message_ops import DmClosed, Live, MessageOps
from bot.discord.reply import LiveHand, Reply
from bot.discord.switches import Switches
from bot.presentation import notes
from bot.service import Outcome, Service, User
from bot.service.views import HandView, TableView, is_bot

log = logging.getLogger(__name__)

TABLE_REF = "dc:table"  # the table message's id
DM_REF = "dc:dm:"  # + user id: "<DM channel id>:<message id>" of the player's hand by DM
TURN_REF = "dc:turn:"  # + user id: the channel message telling them it is their turn ("" gone)
LIVE_REF = "dc:live:"  # + user id: their ephemeral hand, for other processes (`LiveHand.ref`)


async def safely(work: Awaitable[Any], what: str) -> None:
    """One part of publishing: what fails is logged, and the other parts still go out."""
    try:
        await work
    except Exception:
        log.exception("could not %s", what)


class GameMemory(GameRefs):
    """What this process remembers of the games it shows, all of it forgotten with the game:
    their refs (`GameRefs`), the hands it keeps up to date, where each hand goes (`Switches`)
    and each game's chat."""

    def __init__(self, service: Service, switches: Switches) -> None:
        super().__init__(service, lambda: not service.outbox.sole_process)
        self.switches = switches
        self.live: dict[tuple[int, str], Live] = {}  # (game, player) -> ephemeral hand
        self.dm_shown: dict[tuple[int, str], int] = {}  # (game, player) -> hand version by DM
        self.chats: dict[int, str] = {}  # game -> its chat

    def chat_of(self, game_id: int) -> str | None:
        """The chat of a game shown here (saves the service a lookup by id)."""
        return self.chats.get(game_id)

    def forget(self, game_id: int) -> None:
        for slot in [s for s in self.live if s[0] == game_id]:
            del self.live[slot]
        for slot in [s for s in self.dm_shown if s[0] == game_id]:
            del self.dm_shown[slot]
        self.switches.forget(game_id)
        self.chats.pop(game_id, None)
        super().forget(game_id)


class Publisher:
    """The Discord side of publishing (`bot.delivery.publishing.Publisher` keeps the order):
    the table under each chat's lock and through an interaction's answer, the results, the
    hands by DM or in their ephemeral, the turn prompts. Each operation awaits its calls, and
    what fails is logged while the other parts still go out."""

    def __init__(self, service: Service, ops: MessageOps, switches: Switches) -> None:
        self.service = service
        self.ops = ops
        self.memory = GameMemory(service, switches)
        self.hands = Hands(service, ops, self.memory, switches)
        self.flow = publishing.Publisher(self, service)
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)  # chat's table
        self._shown: dict[str, tuple[int, int]] = {}  # chat -> (game, table version) on screen

    @property
    def delivery(self) -> Delivery | None:
        """Settles the outbox entries of what is shown."""
        return self.flow.delivery

    @delivery.setter
    def delivery(self, value: Delivery | None) -> None:
        self.flow.delivery = value

    # ------------------------------------------------------------------ an outcome

    async def publish(
        self,
        out: Outcome,
        *,
        table: bool = True,
        announce: bool = True,
        skip: Collection[str] = (),
        reply: Reply | None = None,
    ) -> None:
        """Show an outcome: the table, the public results, every changed hand (not `skip`).
        `reply`: the interaction that caused it, told privately if the results cannot be posted."""
        await self.flow.publish(out, table=table, results=announce, skip=skip, reply=reply)

    async def publish_timed(self, out: Outcome) -> None:
        """A timer's outcome (a computer player moved, a turn timed out), or one of the
        outbox's that a stopped process had not shown."""
        if channel_of(out.chat_key) is None:
            return
        await safely(self.publish(out), "publish a timer outcome")

    def settle(self, results: Collection[Any], failure: Exception | None = None) -> None:
        """An interaction is handled: the outbox entries of its outcomes are done with (every
        send was awaited), or, if it failed, come back later."""
        if self.delivery is None:
            return
        for out in results:
            if isinstance(out, Outcome):
                self.delivery.track(out, [], failure)

    async def show_open_games(self) -> None:
        """On start: every running game of a Discord channel is shown again from the stored
        state, so nothing waits for a timer: its table re-edited, and whoever's turn it is
        told (their DM hand edited, or the turn prompt: no ephemeral survives a restart).

        Not with other processes (`shared`): they show their games, and what a stopped one
        left unshown is in the outbox (`bot.delivery.outbox_loop`); a process starting would
        otherwise prompt every player whose hand another process keeps up to date."""
        if not self.memory.shared:
            await self.flow.show_open_games(PREFIX)

    # the message operations of `bot.delivery.publishing.Platform`

    @property
    def awaited(self) -> bool:
        return True  # every call is awaited: an interaction is answered after them

    @property
    def shared(self) -> bool:
        return self.memory.shared

    def ours(self, out: Outcome) -> bool:
        return True  # a timer's or the outbox's outcome is checked first (`publish_timed`)

    async def catch_up(self, out: Outcome) -> None:
        for view in (out.table, *out.hands.values()):
            if view is not None:
                self.memory.catch_up(view.game_id, view.version)

    async def present_table(
        self, out: Outcome, view: TableView, *, opens: bool, strict: bool
    ) -> publishing.Shown:
        await safely(self.show_table(view, out.names), "edit the table")
        return publishing.done()

    async def present_results(self, out: Outcome, *, strict: bool, reply: Any) -> None:
        """Posted and recorded here (a command's public answer is recorded the same way)."""
        await safely(self._announce(out, reply), "announce")

    async def private_hands(self, out: Outcome) -> bool:
        return True  # by DM or in an ephemeral, as each member chose (`Switches`)

    async def present_hand(
        self, out: Outcome, view: HandView, *, strict: bool, opens: bool
    ) -> publishing.Shown | None:
        """Shown only when it now shows the truth (else the turn prompt tells the player)."""
        try:
            shown = await self.hands.show(view, out)
        except Exception:
            log.exception("could not update the hand of %s", view.player)
            return None
        return publishing.done() if shown else None

    def reveals(self, out: Outcome) -> Mapping[str, str]:
        return {}  # the challenger sees the challenged hand in their own answer

    def present_reveal(self, viewer: str, text: str, *, strict: bool) -> publishing.Shown:
        raise NotImplementedError  # no reveals (see `reveals`)

    async def after_hands(
        self, out: Outcome, shown: Collection[str], skip: Collection[str]
    ) -> None:
        await safely(self.hands.tell_turns(out, shown, skip), "tell whose turn it is")
        if out.table is not None and out.table.status not in ("lobby", "running"):
            await safely(self.hands.drop_prompts(out.table.game_id), "delete turn prompts")

    async def hands_again(self, out: Outcome) -> Outcome:
        """Whoever's turn it is (and whoever must answer a pending draw)."""
        table = out.table
        assert table is not None
        hands: dict[str, HandView] = {}
        switches: dict[str, Mapping[str, Any]] = {}
        for player in dict.fromkeys(p for p in (table.current, table.pending_target) if p):
            if is_bot(player):
                continue
            user = User(player, out.names.get(player, player))
            mine = await read_again(
                partial(self.service.queries.hand, user, chat_key=table.chat_key)
            )
            hand = mine.hands.get(player)
            if hand is not None:
                hands[player] = hand
                switches.update(mine.switches)
        return publishing.with_hands(out, hands, switches)

    def forget(self, game_id: int) -> None:
        self.memory.forget(game_id)

    # ------------------------------------------------------------------ the table and results

    async def show_table(
        self,
        table: TableView,
        names: Mapping[str, str],
        *,
        reply: Reply | None = None,
        invite: bool = False,
    ) -> None:
        """Edit the game's table message; through `reply` when its own button was used.

        `invite`: a rematch's lobby, if posted as a new message, pings the people it invites
        (an edit pings nobody)."""
        key = table.chat_key
        if channel_of(key) is None:
            return
        self.memory.catch_up(table.game_id, table.version)
        if reply is not None and self._locks[key].locked():
            await self.ops.defer(reply)  # another edit is under way: answer in time first
        self.memory.chats[table.game_id] = key
        async with self._locks[key]:
            lost = await self._put_table(table, names, reply, invite)
        if lost is not None:
            await self.table_lost(table.game_id, key, lost)

    async def _put_table(
        self, table: TableView, names: Mapping[str, str], reply: Reply | None, invite: bool
    ) -> int | None:
        """The table edited, or posted; under the channel's lock. Returns the id of a message
        it posted that is not the game's table: another process stored one first."""
        key = table.chat_key
        shown = self._shown.get(key)
        if shown is not None and shown[0] == table.game_id and shown[1] > table.version:
            return None  # a newer state is already on screen
        ref = await self.memory.get(table.game_id, TABLE_REF)
        if reply is not None:
            clicked, lobby = self.ops.clicked(reply, table.game_id)
            if clicked is not None and ref is None and lobby:
                # A lobby button of a lobby whose id the process posting it has not stored yet
                # (another process, still waiting for Discord's answer): that lobby it is.
                await self._claim_table(table.game_id, clicked)
                ref = await self.memory.get(table.game_id, TABLE_REF)
            if clicked is not None and ref == str(clicked):
                await self.ops.answer_with_table(reply, table, names)
                self._shown[key] = (table.game_id, table.version)
                return None
            await self.ops.defer(reply)  # answered before the slower channel calls
        while ref is not None:
            if await self.ops.edit_table(table, names, ref):
                self._shown[key] = (table.game_id, table.version)
                return None
            # Deleted, or not editable with the bot's token: a new table message, unless
            # another process posted one meanwhile (then that one is edited).
            fresh = await self.memory.fresh(table.game_id, TABLE_REF)
            if fresh in (None, ref):
                break
            ref = fresh
        message_id = await self.ops.post_table(table, names, invite=invite)
        return None if await self._adopt_table(table, message_id, replacing=ref) else message_id

    async def _claim_table(
        self, game_id: int, message_id: int, *, replacing: str | None = None
    ) -> bool:
        """Store a message just posted as the game's table, unless another process stored
        one first (`replacing`: the table it replaces, gone); whether it is the table."""
        return await self.memory.claim(game_id, TABLE_REF, str(message_id), replacing=replacing)

    async def _adopt_table(
        self, table: TableView, message_id: int, *, replacing: str | None = None
    ) -> bool:
        """`_claim_table` for a message just posted showing `table`: once it is the game's
        table, this process knows that version is on screen."""
        won = await self._claim_table(table.game_id, message_id, replacing=replacing)
        if won:
            self._shown[table.chat_key] = (table.game_id, table.version)
        return won

    async def table_answered(
        self, table: TableView, answer: Callable[[], Awaitable[int | None]]
    ) -> None:
        """A table posted as an interaction's answer (`answer` posts it, under the chat's lock,
        and gives its id) becomes the game's table, unless another process showed the game
        meanwhile (`table_lost`)."""
        async with self._locks[table.chat_key]:
            message_id = await answer()
            won = not message_id or await self._adopt_table(table, message_id)
        if message_id and not won:
            await self.table_lost(table.game_id, table.chat_key, message_id)

    async def table_lost(self, game_id: int, chat_key: str, message_id: int) -> None:
        """Another process posted the game's table while this one posted it too (the lobby
        of a game another process dealt meanwhile, say) and stored it first: this one's goes,
        lobby buttons and all, and the stored table shows the newest committed state (the
        other process may have shown an older one than this)."""
        log.info("game %s has a table already: message %s deleted", game_id, message_id)
        await self.ops.drop_table(chat_key, message_id)
        try:
            latest = await read_again(partial(self.service.queries.game_table, game_id))
        except NotRead as exc:  # (the look for a newer state that follows every show remains)
            log.warning("game %s: the stored table not read again (%s)", game_id, exc)
            return
        if latest.table is not None:
            await self.show_table(latest.table, latest.names)

    async def _announce(self, out: Outcome, reply: Reply | None) -> None:
        message_id = await self.ops.post_results(out, reply)
        if message_id is not None:
            await self.posted_results(out, message_id)

    async def posted_results(self, out: Outcome, message_id: int | None) -> None:
        """The outcome's results are in the channel (posted, or as a command's public answer):
        recorded with its outbox entry, so that delivering it again does not post them twice."""
        if out.outbox is not None and out.announcements:
            await self.service.outbox.mark_sent(out, RESULTS, str(message_id or ""))


class Hands:
    """The hands and turn prompts of the games this process shows (`Publisher.hands`)."""

    def __init__(
        self, service: Service, ops: MessageOps, memory: GameMemory, switches: Switches
    ) -> None:
        self.service = service
        self.ops = ops
        self.memory = memory
        self.switches = switches

    async def show(self, hand: HandView, out: Outcome) -> bool:
        """Bring a changed hand up to date: by DM, or in the player's live ephemeral; whether
        it now shows the truth."""
        if await self.switches.by_dm(hand, out):
            anew = self.turn_begins(out, hand) and await self.switches.wants_ping(hand.player, out)
            if await self.dm_hand(hand, out, anew=anew):
                return True
        return await self._edit_live(hand, out)

    @staticmethod
    def turn_begins(out: Outcome, hand: HandView) -> bool:
        """Whether `hand` starts its player's turn: decided by the service (`turn_began`), not
        by what this process showed last (another process may have shown the turn before)."""
        return hand.acting and out.turn_began == hand.player

    async def tell_turns(
        self, out: Outcome, delivered: Collection[str], acted: Collection[str] = ()
    ) -> None:
        """Whoever's turn begins gets told in the channel, a mention with "my cards", when they
        asked for it (a ping) or when their hand could not be brought up to date (after a
        restart, or an ephemeral past its token's life: no ping unless asked). The message is
        deleted when their turn ends. By DM, the ping was the new DM itself (`push`).
        Whoever `acted` is looking at their hand: never told."""
        for player, hand in out.hands.items():
            if is_bot(player):
                continue
            if not hand.acting:
                await self._drop_prompt(hand.game_id, player)
                continue
            if player in acted or await self.memory.get(hand.game_id, TURN_REF + player):
                continue  # looking at their hand, or already told
            by_dm = await self.switches.by_dm(hand, out)
            ping = await self.switches.wants_ping(player, out)
            if player in delivered and (by_dm or not ping):
                continue
            ref = await self.ops.post_prompt(hand, ping=ping)
            if ref is not None:
                await self.memory.put(hand.game_id, TURN_REF + player, ref)

    async def _drop_prompt(self, game_id: int, player: str) -> None:
        ref = await self.memory.get(game_id, TURN_REF + player)
        if not ref:
            return
        await self.memory.put(game_id, TURN_REF + player, "")
        await self.ops.delete_prompt(ref)

    async def drop_prompts(self, game_id: int) -> None:
        """A game is over: no turn prompt of it stays."""
        for key, value in (await self.service.refs.all(game_id)).items():
            if key.startswith(TURN_REF) and value:
                await self._drop_prompt(game_id, key[len(TURN_REF) :])

    async def _edit_live(self, hand: HandView, out: Outcome) -> bool:
        """Edit the player's ephemeral hand, only while its token is safely alive; whether it
        shows this hand (or a newer one) now."""
        slot = (hand.game_id, hand.player)
        live = self.memory.live.get(slot)
        if live is None and self.memory.shared:  # perhaps another process answered it
            ref = await self.service.refs.get(hand.game_id, LIVE_REF + hand.player)
            live = None if not ref else self.ops.shared_hand(ref)
        if live is None:
            return False
        if not live.fresh():
            self.memory.live.pop(slot, None)
            return False
        if hand.version < live.version:
            return True  # it already shows a newer hand
        live.version = hand.version
        if await self.ops.edit_live(live, hand, out):
            return True
        if self.memory.live.get(slot) is live:
            del self.memory.live[slot]
        return False

    async def remember(self, hand: HandView, live: LiveHand) -> None:
        """Keep `live` (just sent, showing `hand`) up to date while its token lasts; with other
        processes, they may too: its ref is stored (each interaction has a token of its own)."""
        live.version = hand.version
        if hand.game_id not in self.memory.seen:  # remembered, so forgotten in time (`_Games`)
            self.memory.seen[hand.game_id] = -1
        self.memory.live[(hand.game_id, hand.player)] = live
        self.memory.chats[hand.game_id] = hand.chat_key
        if self.memory.shared:
            await self.service.refs.put(hand.game_id, LIVE_REF + hand.player, live.ref())

    async def dm_hand(self, hand: HandView, out: Outcome, *, anew: bool = False) -> bool:
        """The player's hand as a direct message, edited in place; False if DMs are closed.

        `anew`: their turn begins and they want to be notified: the old message is deleted and
        the hand sent as a new one (an edit notifies nobody)."""
        slot = (hand.game_id, hand.player)
        if hand.version < self.memory.dm_shown.get(slot, -1):
            return True  # the DM already shows a newer hand
        self.memory.catch_up(hand.game_id, hand.version)
        ref_key = DM_REF + hand.player
        ref = await self.memory.get(hand.game_id, ref_key)
        try:
            if ref is not None:
                if anew:
                    gone = not await self.ops.delete_dm(ref)
                elif await self.ops.edit_dm(ref, hand, out):
                    self.memory.dm_shown[slot] = hand.version
                    return True
                else:
                    gone = True
                if gone and await self.memory.fresh(hand.game_id, ref_key) not in (None, ref):
                    # Another process sent the hand anew meanwhile: that message it is.
                    return await self.dm_hand(hand, out, anew=anew)
            if hand.status != "running" or hand.left:
                return False
            sent = await self.ops.send_dm(hand, out)
        except DmClosed:
            if await notes.first_dm_closed(self.service.refs, hand.game_id, hand.player):
                await self.ops.tell_dm_closed(hand)  # once per game and player
            return False
        await self.memory.put(hand.game_id, ref_key, sent)
        self.memory.dm_shown[slot] = hand.version
        return True
