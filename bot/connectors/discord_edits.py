"""Questions edited after they were asked: the answer follows the text, in the same messages.

Discord lets a person edit a message at any time (to fix a typo, or to add the bot's mention),
and Discord itself updates a message when it adds link previews. For each question the bot has
taken up since it started (the latest ``REMEMBERED`` of them) the connector keeps an
:class:`Asked`: the text it answered and the messages that carry the answer. Then:

- an edit that changes the question while its answer is being written stops that answer at its
  next safe point (between two events of the answer stream, never in the middle of a request
  to Discord, so no message is left behind that the bot does not know of) and answers the new
  text in the messages already posted;
- an edit after the answer was delivered answers again by editing those messages in place
  (surplus parts are deleted, missing ones are sent, the earlier files are removed);
- an edit that adds the mention to a message the bot had not taken up makes it a question;
- an edit that leaves the question text as it was (link previews, the mention written another
  way), takes the mention out, or leaves nothing but the mention changes nothing.

Each question's answered text and reply message ids (and the note above them, see
``discord_question_note``) are also saved in the store
(:class:`SavedQuestions`, the latest ``SAVED`` questions), so an edit to a question answered
before the bot last started (or forgotten from memory since) is followed the same way: its
replies are fetched from Discord by id and rewritten in place; one deleted since is left out
(all deleted: a new reply is posted). When nothing was saved for it (answered by a release that
did not save it, or pruned) or its replies cannot be read, its claim in the store says that it
was answered, but not by which messages, so the edit is left alone (one log line) rather than
answered a second time.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

import discord

from bot.assistant.base import ReplyEvent
from bot.config import DiscordSettings
from bot.connectors.discord_send import MessageGoneError, with_retries
from bot.connectors.discord_triggers import Trigger
from bot.errors import ChannelError, CitecastError, StoreError
from bot.store import Store

log = logging.getLogger(__name__)

# questions followed in memory; older ones are read back from the store when edited
REMEMBERED = 1000
# questions whose text and replies the store keeps (the latest; older ones are left as they are)
SAVED = 10_000


class QuestionEditedError(CitecastError):
    """The question was edited while its answer was being written: the answer starts again."""


class Asked:
    """One question the bot took up, as it follows the question's edits (mutable state)."""

    def __init__(self) -> None:
        # the latest question text taken up (answered, being answered, or the pending edit's)
        self.text: str | None = None
        # the bot's messages that carry the answer (or the hint), reused when it is edited,
        # and the note above them (long question, files not read; see discord_question_note)
        self.replies: list[discord.Message] = []
        self.note: discord.Message | None = None
        # the latest edit not answered yet (the message as edited, and why it is a question)
        self.pending: tuple[discord.Message, Trigger] | None = None
        # whether a task is answering it now (that task takes up ``pending`` when it is done)
        self.busy = False
        # the stored turn of the answer being written (saved with the replies), and the one
        # a run that stopped mid-answer left, which the answer after a restart finishes
        self.turn_id: int | None = None
        self.unfinished_turn: int | None = None
        # whether an answer to it was delivered (the next one answers an edit), and the
        # nonces its answers' parts were sent with in this run (see discord_stream)
        self.answered = False
        self.nonces: set[int] = set()


class AskedQuestions:
    """The questions taken up since the bot started, at most ``limit`` (the oldest go first),
    and with ``store``, every question's answered text and replies saved there too
    (:class:`SavedQuestions`), so that :meth:`recall` brings back one answered before."""

    def __init__(self, limit: int = REMEMBERED, *, store: Store | None = None) -> None:
        self.limit = limit
        self._asked: OrderedDict[int, Asked] = OrderedDict()
        self.saved = None if store is None else SavedQuestions(store)

    def get(self, message_id: int) -> Asked | None:
        """The question with this message id, if it was taken up since the bot started."""
        return self._asked.get(message_id)

    def add(self, message_id: int) -> Asked:
        """Start following the question ``message_id``."""
        asked = self._asked[message_id] = Asked()
        for old in list(self._asked):
            if len(self._asked) <= self.limit:
                break
            if not self._asked[old].busy:  # one still being answered stays until it is done
                del self._asked[old]
        return asked

    def reserve(self, message_id: int) -> Asked:
        """Follow question ``message_id`` as being answered from now on (``busy``), before the
        task that answers it has fetched it: an edit meanwhile becomes its ``pending`` edit,
        taken up by that task, instead of being answered beside it."""
        asked = self.add(message_id)
        asked.busy = True
        return asked

    async def restore(
        self, asked: Asked, message: discord.Message, settings: DiscordSettings
    ) -> None:
        """Give ``asked`` the replies saved for ``message`` (those still on Discord), so that
        its answer is written into them; nothing when none were saved or they are unreadable."""
        saved = None if self.saved is None else self.saved.load(message.id)
        if saved is None:
            return
        asked.unfinished_turn = saved.turn
        replies = await fetch_replies(message.channel, saved.replies, settings)
        if replies is not None and not asked.replies:
            asked.replies = replies
            asked.note = await _fetch_note(message.channel, saved, settings)

    def save(self, message_id: int, asked: Asked) -> None:
        """Save what question ``message_id`` was answered with (its text, its replies)."""
        if self.saved is not None:
            self.saved.save(message_id, asked)

    async def recall(self, message: discord.Message, settings: DiscordSettings) -> Asked | None:
        """The question ``message`` as saved when it was last answered, followed from now on
        with its replies fetched from Discord; None when nothing (readable) was saved."""
        saved = None if self.saved is None else self.saved.load(message.id)
        if saved is None:
            return None
        replies = await fetch_replies(message.channel, saved.replies, settings)
        if replies is None:
            return None
        asked = self.get(message.id)  # another edit may have recalled it meanwhile
        if asked is None:
            asked = self.add(message.id)
            asked.text, asked.replies = saved.text, replies
            asked.note = await _fetch_note(message.channel, saved, settings)
            asked.answered = True
        return asked


async def until_edited(
    events: AsyncIterator[ReplyEvent], asked: Asked
) -> AsyncIterator[ReplyEvent]:
    """``events`` until the question gets an edit, then QuestionEditedError.

    Checked as each event arrives, before it is handed on: the consumer has then finished
    whatever it sent to Discord for the previous event.
    """
    try:
        async for event in events:
            if asked.pending is not None:
                raise QuestionEditedError("the question was edited while it was being answered")
            yield event
    finally:
        close = getattr(events, "aclose", None)
        if close is not None:  # stop the model's stream too, not only our reading of it
            await close()


@dataclass(frozen=True)
class SavedQuestion:
    """What the store says of a question: the text last answered, the replies' message ids,
    the stored turn of that answer and the note above it (each None when there is none, or
    saved by a release that did not keep it)."""

    text: str
    replies: tuple[int, ...]
    turn: int | None = None
    note: int | None = None


class SavedQuestions:
    """Each question's answered text and replies, in the store's state (scope ``SCOPE``, key
    the question's message id), the latest ``keep`` of them."""

    SCOPE = "discord-asked"

    def __init__(self, store: Store, keep: int = SAVED) -> None:
        self._store = store
        self.keep = keep

    def save(self, message_id: int, asked: Asked) -> None:
        """Save ``asked`` as the state of question ``message_id``; best effort (the answer is
        on Discord already, so a store failure only costs following a later edit)."""
        value = {
            "text": asked.text or "",
            "replies": [sent.id for sent in asked.replies],
            "turn": asked.turn_id,
            "note": None if asked.note is None else asked.note.id,
        }
        try:
            self._store.set_state(self.SCOPE, str(message_id), json.dumps(value), keep=self.keep)
        except StoreError as exc:
            log.warning("discord: could not save the replies to %s: %s", message_id, exc)

    def load(self, message_id: int) -> SavedQuestion | None:
        """What was saved for question ``message_id``, or None (nothing, or unreadable)."""
        try:
            saved = self._store.state(self.SCOPE, str(message_id))
        except StoreError as exc:
            log.warning("discord: could not read the replies to %s: %s", message_id, exc)
            return None
        try:
            value = json.loads(saved) if saved is not None else None
        except ValueError:
            return None
        text = value.get("text") if isinstance(value, dict) else None
        replies = value.get("replies") if isinstance(value, dict) else None
        if not isinstance(text, str) or not isinstance(replies, list):
            return None
        turn = value.get("turn") if isinstance(value, dict) else None
        note = value.get("note") if isinstance(value, dict) else None
        kept = tuple(r for r in replies if isinstance(r, int))
        return SavedQuestion(
            text,
            kept,
            turn if isinstance(turn, int) else None,
            note if isinstance(note, int) else None,
        )


async def _fetch_note(
    channel: discord.abc.Messageable, saved: SavedQuestion, settings: DiscordSettings
) -> discord.Message | None:
    """The note saved above the answer, when there is one and it is still on Discord."""
    if saved.note is None:
        return None
    notes = await fetch_replies(channel, [saved.note], settings)
    return notes[0] if notes else None


async def fetch_replies(
    channel: discord.abc.Messageable, reply_ids: Sequence[int], settings: DiscordSettings
) -> list[discord.Message] | None:
    """The bot's saved replies as messages, in order, leaving out those deleted since; None
    when Discord would not give one (rewriting the others would leave it stale)."""
    replies: list[discord.Message] = []
    for reply_id in reply_ids:

        async def fetch(reply_id: int = reply_id) -> discord.Message:
            return await channel.fetch_message(reply_id)

        try:
            replies.append(await with_retries(fetch, settings, "fetching an earlier reply"))
        except MessageGoneError:
            continue
        except ChannelError as exc:
            log.warning("discord: cannot read the earlier reply %s: %s", reply_id, exc)
            return None
    return replies
