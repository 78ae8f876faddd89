"""A queued Slack answer dropped for good takes the parts of it already posted with it.

What the outbox queues of an answer is often only its later messages: the first ones (the
message a sink streamed or edited, those posted before Slack stopped taking them) are in the
thread already, citing ``[n]`` sources listed only in the answer's last message. When the
outbox drops the rest for good (Slack refuses it for good, or it runs out of tries), those
parts must not stay. They are withdrawn as a sink withdraws a failed answer's
(:class:`bot.connectors.slack_answer_parts.AnswerParts`): the first becomes the apology and the
rest are deleted. The item keeps their ts (:data:`PARTS`), and the delivery keys of its own
messages find any of them Slack took although its answer was lost. In a conversation closed to
the bot no apology is posted, but where Slack still takes an edit (a workspace restriction) the
first part becomes it; a question deleted meanwhile takes the parts with it, unapologised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.connectors.slack_answer_parts import AnswerParts
from bot.connectors.slack_client import UndeliverableError
from bot.connectors.slack_delivery import Message, SlackPoster
from bot.connectors.slack_thread import SlackThread

# The payload field with the ts of the answer's messages in the thread before the item's own.
PARTS = "parts"


def posted_parts(payload: Mapping[str, Any]) -> list[str]:
    """The ts of the answer's messages already in the thread when the item was queued (none
    for an item queued before they were kept)."""
    parts = payload.get(PARTS)
    if not isinstance(parts, list):
        return []
    return [ts for ts in parts if isinstance(ts, str) and ts]


async def withdraw_dropped(
    poster: SlackPoster,
    thread: SlackThread,
    parts: Sequence[str],
    messages: Sequence[Message],
    *,
    since: float | None,
    error: UndeliverableError | None = None,
) -> None:
    """Withdraw the answer whose queued ``messages`` the outbox drops: ``parts`` (ts) are its
    messages known to be in the thread, and any of ``messages`` Slack took unseen (looked for
    from ``since``, the item's first try; from the thread's start when not known) is one too.
    ``error``: Slack's refusal for good, if that is why it is dropped. With no part found the
    apology is a new message, as before (none in a conversation closed to the bot)."""
    answer = AnswerParts(poster, thread)
    for ts in parts:
        answer.shown(ts)
    if messages:
        answer.keyed(messages, since=0.0 if since is None else since)
    if error is not None and error.conversation_closed:
        await answer.refused(error)
    else:
        await answer.withdraw()


__all__ = ["PARTS", "posted_parts", "withdraw_dropped"]
