"""The bot's replies to each question, recorded in the store as Slack takes them.

A thread mixes replies to several questions (a second question asked before the first one's
answer arrived) with other people's remarks, so a reply's place in the thread does not say which
question it answers. Every message citecast posts into a question's thread (notes, the answer's
messages, a stream once Slack started it, the apology) is recorded under the question's channel
and ts (state scope ``REPLIES``) the moment Slack returns its ts, or, for a message Slack took
but whose answer was lost, once it is found by its delivery key. After a restart the half-written
reply to a question is exactly what was recorded for it (``slack_unanswered``), and a follow-up's
history pairs each answer with the question it was posted for (``slack_history``).

Recording is best effort: a store failure is logged and costs only that after a crash a half
answer may stay, or an old answer be paired by its place in the thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.connectors.slack_thread import SlackThread
from bot.errors import StoreError
from bot.store import Store

log = logging.getLogger(__name__)

# the ts of the replies posted for each question (state scope), the latest KEPT_QUESTIONS of them
REPLIES = "slack-reply"
KEPT_QUESTIONS = 10_000

# what a poster calls with each reply Slack took: the thread (naming its question) and the ts
ReplyRecorder = Callable[[SlackThread, str], None]


def _key(channel: str, question_ts: str) -> str:
    return f"{channel}:{question_ts}"


class ReplyLog:
    """The ts of the bot's replies to each question, kept in ``store``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def record(self, thread: SlackThread, ts: str) -> None:
        """Record ``ts`` as a reply to the question ``thread`` was made for (nothing for a
        thread that names no question, or an empty ts)."""
        if thread.question_ts is None or not ts:
            return
        key = _key(thread.channel, thread.question_ts)
        try:
            # no await between the read and the write: no other reply is recorded in between
            known = (self._store.state(REPLIES, key) or "").split()
            if ts not in known:
                self._store.set_state(REPLIES, key, " ".join([*known, ts]), keep=KEPT_QUESTIONS)
        except StoreError as exc:
            log.warning(
                "slack: could not record reply %s to question %s: %s", ts, thread.question_ts, exc
            )

    def replies(self, channel: str, question_ts: str) -> list[str]:
        """The ts of the replies recorded for the question, oldest first (empty: none, or the
        store cannot be read)."""
        try:
            saved = self._store.state(REPLIES, _key(channel, question_ts))
        except StoreError as exc:
            log.warning("slack: cannot read the replies to question %s: %s", question_ts, exc)
            return []
        return (saved or "").split()

    def keep_only(self, channel: str, question_ts: str, standing: list[str]) -> None:
        """Record only ``standing`` (the replies still in the thread) for the question."""
        try:
            self._store.set_state(
                REPLIES, _key(channel, question_ts), " ".join(standing), keep=KEPT_QUESTIONS
            )
        except StoreError as exc:
            log.warning("slack: could not record the replies to %s: %s", question_ts, exc)


__all__ = ["KEPT_QUESTIONS", "REPLIES", "ReplyLog", "ReplyRecorder"]
