"""Questions an earlier run claimed and never finished, answered when the bot next connects.

A crash or a shutdown that cut an answer short leaves its question in the store (see
``discord_unanswered``). ``LeftOverQuestions`` reads them at start, before any event arrives,
and answers each as it reads now, in the replies the answer had so far, one at a time; a
question deleted meanwhile, or no longer one for the bot, has its half answer withdrawn, and
one given up (too old, or failing at every start) gets a short note instead (DESIGN §7).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot.connectors.discord_edits import Asked, AskedQuestions
from bot.connectors.discord_half_answer import unsaved_parts
from bot.connectors.discord_triggers import Trigger
from bot.connectors.discord_unanswered import (
    TOO_OLD,
    LeftOver,
    UnansweredQuestions,
    fetch_question,
    tell_given_up,
    withdraw_half_answer,
)

if TYPE_CHECKING:
    from bot.config import DiscordSettings

log = logging.getLogger(__name__)

# the connector's steps these answers go through, as it takes them for any question
Answer = Callable[[discord.Message, Trigger, Asked], Coroutine[Any, Any, None]]
Handle = Callable[[int, Coroutine[Any, Any, None]], Awaitable[None]]


class LeftOverQuestions:
    """The questions left unanswered by an earlier run: read at start, answered at connect.

    ``answer_new`` answers a question kept in the store until that is over, ``answer_latest``
    one and each edit of it, and ``handle`` runs one message's handling as any event's.
    """

    def __init__(
        self,
        settings: DiscordSettings,
        unanswered: UnansweredQuestions,
        asked: AskedQuestions,
        client: Callable[[], discord.Client | None],
        trigger: Callable[[discord.Message], Awaitable[Trigger | None]],
        steps: tuple[Answer, Answer, Handle],
    ) -> None:
        self.settings = settings
        self._unanswered = unanswered
        self._asked = asked
        self._client = client
        self._trigger = trigger
        self._answer_new, self._answer_latest, self._handle = steps
        # those read at start, each followed as being answered (``Asked.busy``) until its turn
        # comes: an edit that arrives first is taken up by that turn, not answered beside it
        self._waiting: list[tuple[LeftOver, Asked]] = []

    def read(self) -> None:
        """Read the questions left unanswered (unless some read before still wait)."""
        if not self._waiting:
            left = self._unanswered.left_over()
            self._waiting = [(item, self._asked.reserve(item.message_id)) for item in left]

    async def answer_all(self) -> None:
        """Answer the questions an earlier run claimed and never finished, one at a time (or
        tell their askers that they were given up)."""
        left_over, self._waiting = self._waiting, []
        for left, asked in left_over:
            await self._handle(left.message_id, self._answer_again(left, asked))

    async def _answer_again(self, left: LeftOver, asked: Asked) -> None:
        """Answer ``left`` as it reads now (``asked`` reserved for it at start), in the replies
        a shutdown cut short; an edit that arrives meanwhile is answered instead, in turn."""
        try:
            client = self._client()
            message = None if client is None else await fetch_question(client, left)
            trigger = None if message is None else await self._trigger(message)
            if message is not None and asked.pending is not None:
                message, trigger = asked.pending  # edited since it was fetched: the latest
            if message is None or trigger is None:  # deleted, or no question for the bot now
                self._unanswered.done(left.message_id)
                saved = (
                    None if self._asked.saved is None else self._asked.saved.load(left.message_id)
                )
                await withdraw_half_answer(self._client(), left, message, saved, self.settings)
                return
            # what a shutdown cut short was saved with its replies: the answer goes into them
            await self._asked.restore(asked, message, self.settings)
            me = None if client is None else client.user
            if me is not None:  # and the parts a crash posted before they could be saved
                asked.replies += await unsaved_parts(message, asked.replies, me.id)
            if left.given_up is not None:
                await self._tell_given_up(left, message, asked)
                return
            log.info("discord: answering %s, left unanswered by a restart", message.id)
            await self._answer_new(message, trigger, asked)
        finally:
            asked.busy = False

    async def _tell_given_up(self, left: LeftOver, message: discord.Message, asked: Asked) -> None:
        """Tell the asker of a question given up (too old, or failing at every start) so; an
        edit that arrived meanwhile is a fresh question, answered in that note's reply."""
        missed = self.settings.missed_message
        text = missed if left.given_up == TOO_OLD else self.settings.failure_message
        note = await tell_given_up(message, text, asked.replies, self.settings)
        asked.replies = [] if note is None else [note]  # an edit's answer goes there
        if asked.pending is not None:
            await self._answer_latest(*asked.pending, asked)
