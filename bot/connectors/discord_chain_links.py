"""What comes before each message of a Discord reply chain, so history can step over a gap.

A follow-up's history is its reply chain walked back (``discord_history.reply_chain``). When a
message of the chain is deleted, Discord keeps the reference of the reply to it (its
``referenced_message`` becomes null) but the deleted message's own reference goes with it, so
the walk cannot go on from there and every exchange before it would be lost. So the bot records
the step a walk needs, in the store's ``state`` (scope ``SCOPE``; no new table or column):

- for each question it answers, the message that question replied to (an earlier answer);
- for each message it posts for a question (an answer part, a note, an apology), that question.

A walk that meets a deleted message takes the one recorded before it instead: an answer it
finds there means the deleted message was a question (that exchange is left out, the walk goes
on from the earlier answer); a person's message means it was the bot's (its question is found,
and the walk goes on from it). Only the latest ``REMEMBERED`` records are kept; a message
without one (posted before they were kept, or pruned) ends the walk as before.
"""

from __future__ import annotations

import logging

from bot.errors import StoreError
from bot.store import Store

log = logging.getLogger(__name__)

# the ``state`` scope of the records (nothing else uses it)
SCOPE = "discord-chain-links"
# records kept: far more messages than any history window reaches back over
REMEMBERED = 100_000


def remember_before(store: Store, key: str, before_id: int) -> None:
    """Record that the message known by ``key`` (``discord_history.message_key``) comes right
    after message ``before_id`` of its reply chain.

    Best effort: the message is posted or answered already; without the record a walk stops
    at it once it is deleted, as it did before the records were kept."""
    try:
        store.set_state(SCOPE, key, str(before_id), keep=REMEMBERED)
    except StoreError as exc:
        log.warning("discord: could not record the message before %s: %s", key, exc)


def recorded_before(store: Store, key: str) -> int | None:
    """The message recorded before the one known by ``key``, or None (no record, or the store
    cannot be read: the walk stops there, as without a record)."""
    try:
        saved = store.state(SCOPE, key)
    except StoreError as exc:
        log.warning("discord: could not read the message before %s: %s", key, exc)
        return None
    if saved is None:
        return None
    try:
        return int(saved)
    except ValueError:
        return None


__all__ = ["REMEMBERED", "SCOPE", "recorded_before", "remember_before"]
