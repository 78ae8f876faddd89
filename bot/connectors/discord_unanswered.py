"""Questions taken up but not answered yet, kept in the store until they are (DESIGN §7).

Discord does not deliver a message again to a new gateway session: a question the bot claimed
(``discord-message``) and then lost to a crash, a kill or a shutdown that ran out of grace would
never be answered, and its claim would keep every later edit from asking it again. So, as the
Discourse connector keeps its questions, each question is also kept in the store's outbox
(channel ``discord-question``) from its claim until its handling is over (answered, apologised
for, or given up for a reason that would repeat: a missing permission, a deleted channel).

When the connector next connects, :class:`UnansweredQuestions` hands back those left over,
and the connector fetches each from Discord and answers it as it reads now (one deleted
meanwhile, or no longer a question for the bot, is dropped); an answer a shutdown cut short
goes into the replies it had posted (saved by ``discord_edits``). Each start counts one
interrupted attempt: a question still unanswered after ``ATTEMPTS`` answers (one that takes the
process down with it, say) is given up with one error line. A question asked more than
``ANSWER_WITHIN`` seconds ago is not answered that late: it is given up with one warning naming
it, so the operator can follow it up by hand. Either way the asker is not left waiting in
silence: such a question comes back marked ``given_up`` and the connector tells its asker in one
short reply (``discord.missed_message`` / ``discord.failure_message``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.config import DiscordSettings
from bot.connectors.discord_edits import SavedQuestion, fetch_replies
from bot.connectors.discord_notices import notice_in_place_of, withdraw
from bot.errors import StoreError
from bot.store import Store

log = logging.getLogger(__name__)

QUESTIONS = "discord-question"
# answers a question gets in all, the first included: the start that finds it unanswered
# after that many gives it up
ATTEMPTS = 3
# a question older than this (by its snowflake) is not answered after a restart: one day
ANSWER_WITHIN = 24 * 3600.0
# why a left-over question was given up: the asker is told so instead of answered
TOO_OLD = "too old"
FAILED = "failed"


@dataclass(frozen=True)
class LeftOver:
    """A question left unanswered by an earlier run, to be answered again, or (``given_up``:
    ``TOO_OLD`` or ``FAILED``) given up, its asker to be told so."""

    message_id: int
    channel_id: int
    given_up: str | None = None


class UnansweredQuestions:
    """The questions being answered, kept in ``store`` until their handling is over."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    def keep(self, message: discord.Message) -> None:
        """Keep question ``message`` until :meth:`done`; best effort (a store failure only
        costs answering it again after a crash, so the answer is not held up by it)."""
        payload = {"message_id": message.id, "channel_id": message.channel.id}
        try:
            self._store.enqueue(QUESTIONS, payload, item_id=_item_id(message.id))
        except StoreError as exc:
            log.warning("discord: could not keep question %s until answered: %s", message.id, exc)

    def done(self, message_id: int) -> None:
        """The handling of question ``message_id`` is over: never take it up again."""
        try:
            self._store.mark_sent(_item_id(message_id))
        except StoreError as exc:
            log.warning("discord: could not record question %s as handled: %s", message_id, exc)

    def left_over(self) -> list[LeftOver]:
        """The questions an earlier run left unanswered that are still worth answering.

        Each counts one interrupted attempt; those over ``ATTEMPTS`` or asked too long ago are
        given up here (logged) and come back with ``given_up`` set (their askers are told once,
        never answered); an unreadable one is dropped.
        """
        try:
            items = self._store.pending(QUESTIONS)
        except StoreError as exc:
            log.error("discord: cannot read the questions left unanswered: %s", exc)
            return []
        found: list[LeftOver] = []
        for item in items:
            message_id = item.payload.get("message_id")
            channel_id = item.payload.get("channel_id")
            if not isinstance(message_id, int) or not isinstance(channel_id, int):
                self._give_up(item.id, "unreadable", 1)
                continue
            asked = discord.utils.snowflake_time(message_id).timestamp()
            if self._clock() - asked > ANSWER_WITHIN:
                log.warning(
                    "discord: question %s in channel %s was left unanswered by a restart and "
                    "is too old to answer now (asked %s); not answered",
                    message_id,
                    channel_id,
                    discord.utils.snowflake_time(message_id).isoformat(timespec="seconds"),
                )
                if self._give_up(item.id, "too old to answer after a restart", 1):
                    found.append(LeftOver(message_id, channel_id, TOO_OLD))
                continue
            last = item.attempts + 1 >= ATTEMPTS
            if last:
                log.error(
                    "discord: giving up question %s in channel %s: left unanswered by %d runs",
                    message_id,
                    channel_id,
                    item.attempts + 1,
                )
            if self._give_up(item.id, "left unanswered by a restart", ATTEMPTS):
                if last:
                    found.append(LeftOver(message_id, channel_id, FAILED))
                continue
            found.append(LeftOver(message_id, channel_id))
        return found

    def _give_up(self, item_id: str, reason: str, limit: int) -> bool:
        """Count an attempt at ``item_id`` (given up at ``limit``); whether it is over."""
        try:
            self._store.mark_failed_attempt(item_id, reason, 0.0, max_attempts=limit)
            item = self._store.outbox_item(item_id)
        except StoreError as exc:
            log.error("discord: cannot record question %s: %s", item_id, exc)
            return True  # not answered again without the count that bounds it
        return item is None or item.status != "pending"


async def withdraw_half_answer(
    client: discord.Client | None,
    left: LeftOver,
    message: discord.Message | None,
    saved: SavedQuestion | None,
    settings: DiscordSettings,
) -> None:
    """Delete the replies (``saved``) a crash left half-written to ``left``, a question not
    answered now (deleted, or no longer for the bot): as for one deleted while being answered."""
    channel: object = message.channel if message is not None else None
    if channel is None and client is not None:
        channel = client.get_channel(left.channel_id)
    if saved is None or not saved.replies or not isinstance(channel, discord.abc.Messageable):
        return
    replies = await fetch_replies(channel, saved.replies, settings)
    if replies:
        await withdraw(left.message_id, replies, settings)


def _item_id(message_id: int) -> str:
    return f"{QUESTIONS}-{message_id}"


async def fetch_question(client: discord.Client, left: LeftOver) -> discord.Message | None:
    """The question ``left`` as it is now, or None when it (or its channel) is gone or the bot
    may no longer read it (logged); any other failure is raised (answered at a later start)."""
    try:
        channel = client.get_channel(left.channel_id) or await client.fetch_channel(left.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return None
        return await channel.fetch_message(left.message_id)
    except (discord.NotFound, discord.Forbidden) as exc:
        log.info(
            "discord: question %s, left unanswered by a restart, cannot be read now: %s",
            left.message_id,
            exc,
        )
        return None


async def tell_given_up(
    message: discord.Message,
    text: str,
    replies: Sequence[discord.Message],
    settings: DiscordSettings,
) -> discord.Message | None:
    """Tell the asker of ``message``, a question given up, so in one short reply (``text``;
    empty: nothing) and return it. A reply that a crash left half-written becomes that note,
    its other parts deleted, so no half answer stays behind; with none, the note is a new
    reply (see :func:`discord_notices.notice_in_place_of`). A failure is one log line (None)."""
    if not text.strip():
        return None
    note = await notice_in_place_of(message, text, replies, settings)
    if note is not None:
        log.info("discord: told the asker of %s that it was not answered", message.id)
    return note


__all__ = [
    "ANSWER_WITHIN",
    "ATTEMPTS",
    "FAILED",
    "QUESTIONS",
    "TOO_OLD",
    "LeftOver",
    "UnansweredQuestions",
    "fetch_question",
    "tell_given_up",
    "withdraw_half_answer",
]
