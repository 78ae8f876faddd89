"""The delivery key each message citecast posts in Slack carries, invisible, in its metadata.

A timeout or a connection lost mid-request may mean Slack posted a message and only its answer
was lost. The key is how the message is found in its thread afterwards (``conversations.replies``
with its metadata): by the outbox before it sends a queued message again, and by an answer's
parts (``slack_answer_parts``) when a failed answer's messages are withdrawn. A key, not the
text, because the continuation messages of every long answer share their ``(continued)`` text.
The keys of one answer's messages share a batch: ``{batch}-{index}``.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from bot.connectors.slack_delivery import DELIVERY_EVENT_TYPE, Message


def delivery_key(message: Message) -> str | None:
    """The delivery key a message carries in its metadata, if any."""
    metadata = message.get("metadata") or {}
    if metadata.get("event_type") != DELIVERY_EVENT_TYPE:
        return None
    key = (metadata.get("event_payload") or {}).get("key")
    return str(key) if key else None


def with_delivery_keys(messages: Sequence[Message]) -> list[Message]:
    """The messages, each with a fresh delivery key (kept when it already has one)."""
    batch = uuid.uuid4().hex
    out: list[Message] = []
    for index, message in enumerate(messages):
        if delivery_key(message) is None:
            key = f"{batch}-{index}"
            message = {
                **message,
                "metadata": {"event_type": DELIVERY_EVENT_TYPE, "event_payload": {"key": key}},
            }
        out.append(message)
    return out


__all__ = ["delivery_key", "with_delivery_keys"]
