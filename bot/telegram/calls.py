"""The Bot API calls that carry out a chat's operations: send, edit, delete, take a keyboard away.

A slot's content may be a `Photo` (bot.telegram.pictures), sent with `sendPhoto` and updated with
one `editMessageMedia`. A photo message never becomes text again: text that must take its place
(a caption too long) goes out as a new, silent message and the photo is deleted, as when a slot
moves to the bottom of its chat (Telegram notifies a new message, never an edit). A
`Mentioning` text's entities go with every send and edit, but Telegram notifies the mentioned
users only when a message is sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.methods import EditMessageMedia, EditMessageText, SendMessage, SendPhoto
from aiogram.types import InputMediaPhoto, Message, MessageEntity, ReplyParameters

from bot.telegram.content import Keyboard, Mentioning
from bot.telegram.operation import Operation, Slot
from bot.telegram.pictures import Photo, Pictures

M = TypeVar("M", SendMessage, EditMessageText, SendPhoto, EditMessageMedia)


class Calls:
    """The calls to one chat. `spend` counts a call about to be made against the chat's rate
    limits; `push` queues an operation the call leaves to do (the old message to delete)."""

    def __init__(
        self,
        bot: Bot,
        chat_id: int,
        pictures: Pictures,
        photos_refused: set[int],
        *,
        spend: Callable[[Operation], Awaitable[None]],
        push: Callable[[Operation], None],
    ) -> None:
        self.bot = bot
        self.chat_id = chat_id
        self.pictures = pictures
        self.photos_refused = photos_refused
        self.spend = spend
        self.push = push

    async def make(self, op: Operation) -> Any:
        """The operation's call; Telegram's answer, or True when the slot already shows it."""
        bot = self.bot
        if op.delete_of is not None:
            await self.spend(op)
            return await bot.delete_message(chat_id=self.chat_id, message_id=op.delete_of)
        if op.keyboard_of is not None:
            await self.spend(op)
            return await bot.edit_message_reply_markup(
                chat_id=self.chat_id, message_id=op.keyboard_of, reply_markup=None
            )
        slot = op.slot
        if slot is None:
            reply = None if op.reply_to is None else ReplyParameters(message_id=op.reply_to)
            plain, entities = _plain(op.text)
            await self.spend(op)
            return await bot(
                _with_keyboard(
                    SendMessage(
                        chat_id=self.chat_id,
                        text=plain,
                        entities=entities,
                        reply_parameters=reply,
                    ),
                    op.markup,
                )
            )
        content = op.content()
        op.target = slot.message_id
        if slot.message_id is not None and content == slot.shown and not op.fresh:
            return True
        if slot.message_id is None and not op.fresh:
            await slot.take_over_stored()  # (another process may have sent it)
        body, markup = content
        new = slot.message_id is None or op.fresh
        as_photo = (
            isinstance(body, Photo)
            and self.chat_id not in self.photos_refused
            and (not body.prefer_text or (not new and bool(slot.photo)))
        )
        op.as_photo = as_photo
        # A photo never becomes text: the text goes out as a new message, silently.
        resend = op.resend or (not new and bool(slot.photo) and not as_photo)
        await self.spend(op)
        op.target = None if new or resend else slot.message_id
        if new or resend:
            old = slot.message_id
            message = await self._send_slot(body, markup, as_photo, silent=not new)
            op.fresh = op.resend = False
            slot.message_id = message.message_id
            slot.shown, slot.photo = content, as_photo
            if old is not None:
                self.push(Operation(self.chat_id, delete_of=old))
            if slot.on_new_id is not None:
                gone = await slot.on_new_id(message.message_id)
                if gone is not None and gone != old:
                    # Another process sent this slot's message new since this one read the
                    # stored id: one of the two goes, rather than both stay shown.
                    slot.dropped.add(gone)
                    self.push(Operation(self.chat_id, delete_of=gone))
                if gone == message.message_id:
                    await self._keep_stored(op, slot)
            return message
        if isinstance(body, Photo) and as_photo:
            pictures = self.pictures
            media = InputMediaPhoto(media=await pictures.media(body), caption=body.caption)
            edit_media = EditMessageMedia(chat_id=self.chat_id, message_id=op.target, media=media)
            result = await bot(_with_keyboard(edit_media, markup))
            pictures.remember(body, result)
        else:
            text, entities = _plain(body.caption if isinstance(body, Photo) else body)
            edit = EditMessageText(
                chat_id=self.chat_id, message_id=op.target, text=text, entities=entities
            )
            await bot(_with_keyboard(edit, markup))
        if slot.message_id == op.target:  # (else the queue shows it on the one taken over)
            slot.shown, slot.photo = content, as_photo
        return True

    @staticmethod
    async def _keep_stored(op: Operation, slot: Slot) -> None:
        """The message just sent goes: another process stored a newer one meanwhile, which
        the slot takes over, and the operation shows its content there (the queue sees the
        slot moved from the message sent, `ChatQueue._moved`)."""
        op.target = slot.message_id
        found = await slot.take_over_stored()
        if found is None or found in slot.dropped:  # (given up meanwhile too: sent new again)
            slot.message_id, slot.shown = None, None

    async def _send_slot(
        self,
        body: str | Mentioning | Photo,
        markup: Keyboard | None,
        as_photo: bool,
        *,
        silent: bool,
    ) -> Message:
        """A slot's content as a new message: a photo with its caption, or a text."""
        quiet = True if silent else None
        if isinstance(body, Photo) and as_photo:
            photo = await self.pictures.media(body)
            send_photo = SendPhoto(
                chat_id=self.chat_id,
                photo=photo,
                caption=body.caption,
                disable_notification=quiet,
            )
            message = await self.bot(_with_keyboard(send_photo, markup))
            self.pictures.remember(body, message)
            return message
        text, entities = _plain(body.caption if isinstance(body, Photo) else body)
        send = SendMessage(
            chat_id=self.chat_id, text=text, entities=entities, disable_notification=quiet
        )
        return await self.bot(_with_keyboard(send, markup))


def _plain(text: str | Mentioning) -> tuple[str, list[MessageEntity] | None]:
    """The text and the entities of a message's text."""
    if isinstance(text, Mentioning):
        return text.text, list(text.entities)
    return text, None


def _with_keyboard(method: M, keyboard: Keyboard | None) -> M:
    """The method with its keyboard set after validation: the JSON goes out as it is."""
    if keyboard is not None:
        method.reply_markup = keyboard  # type: ignore[assignment]
    return method
