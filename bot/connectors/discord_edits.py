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

A question answered before the bot last started is not in memory: its claim in the store says
that it was answered, but not by which messages, so its edits are left alone (one log line)
rather than answered a second time.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator

import discord

from bot.assistant.base import ReplyEvent
from bot.connectors.discord_triggers import Trigger
from bot.errors import CitecastError

# questions whose edits are followed; older ones are forgotten (their answers stay as they are)
REMEMBERED = 1000


class QuestionEditedError(CitecastError):
    """The question was edited while its answer was being written: the answer starts again."""


class Asked:
    """One question the bot took up, as it follows the question's edits (mutable state)."""

    def __init__(self) -> None:
        # the latest question text taken up (answered, being answered, or the pending edit's)
        self.text: str | None = None
        # the bot's messages that carry the answer (or the hint), reused when it is edited
        self.replies: list[discord.Message] = []
        # the latest edit not answered yet (the message as edited, and why it is a question)
        self.pending: tuple[discord.Message, Trigger] | None = None
        # whether a task is answering it now (that task takes up ``pending`` when it is done)
        self.busy = False


class AskedQuestions:
    """The questions taken up since the bot started, at most ``limit`` (the oldest go first)."""

    def __init__(self, limit: int = REMEMBERED) -> None:
        self.limit = limit
        self._asked: OrderedDict[int, Asked] = OrderedDict()

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
