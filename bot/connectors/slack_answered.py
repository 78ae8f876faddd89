"""The INFO line of an answered Slack question, as Discord and email log theirs.

``slack: answered <question ts> in <channel> (N message(s))`` once the answer's messages are in
the thread. An answer the outbox holds (Slack asked it to wait, or refused it for now) is not
answered yet: the outbox's warning said it was queued, and no "answered" line follows it.
"""

from __future__ import annotations

import logging

from bot.connectors.outbox_turns import queued_turn
from bot.connectors.slack_outbox import CHANNEL
from bot.errors import StoreError
from bot.store import Store

log = logging.getLogger(__name__)


def queued(store: Store, turn_id: int) -> bool:
    """Whether messages of the answer of ``turn_id`` wait in the outbox (its files alone
    waiting to be uploaded leave the answer answered)."""
    return any(
        queued_turn(item.payload) == turn_id and item.payload.get("messages")
        for item in store.pending(CHANNEL)
    )


def log_answered(store: Store, question_ts: str, channel: str, turn_id: int, messages: int) -> None:
    """Log the question as answered in ``messages`` message(s), unless its answer is queued."""
    try:
        if queued(store, turn_id):
            return
    except StoreError:
        return  # the store's failure is logged where it matters (the turn was not stored)
    log.info("slack: answered %s in %s (%d message(s))", question_ts, channel, messages)
