"""Thread history: earlier questions and the bot's answers in a Slack thread, as Exchanges.

The thread is read with ``conversations.replies``. Every message from a person starts a question
(the bot mention removed); the bot's following messages, joined, are its answer. Only exchanges
older than the current question are kept, the last ``limit`` of them. Messages from other bots
are skipped. A failing read gives no history rather than no answer.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.slack_client import error_code
from bot.connectors.slack_text import question_text, unescape
from bot.models import Exchange

log = logging.getLogger(__name__)


def _ts(message: dict[str, Any]) -> float:
    try:
        return float(message.get("ts") or 0)
    except ValueError:
        return 0.0


def exchanges_from_messages(
    messages: list[dict[str, Any]],
    *,
    current_ts: str,
    bot_user_id: str | None,
    bot_id: str | None,
    limit: int,
) -> tuple[Exchange, ...]:
    """Pair the thread's questions with the bot's answers, oldest first."""
    if limit <= 0:
        return ()
    before = float(current_ts)
    pairs: list[Exchange] = []
    question: str | None = None
    answer: list[str] = []

    def close() -> None:
        if question is not None and answer:
            pairs.append(Exchange(question=question, answer="\n\n".join(answer)))

    for message in sorted(messages, key=_ts):
        if _ts(message) >= before:
            break
        text = str(message.get("text") or "")
        is_ours = (bot_id is not None and message.get("bot_id") == bot_id) or (
            bot_user_id is not None and message.get("user") == bot_user_id
        )
        if is_ours:
            if question is not None and text.strip():
                answer.append(unescape(text).strip())
        elif message.get("bot_id") or message.get("subtype"):
            continue
        else:
            close()
            question, answer = question_text(text, bot_user_id), []
    close()
    return tuple(pairs[-limit:])


async def thread_history(
    client: AsyncWebClient,
    channel: str,
    thread_ts: str,
    *,
    current_ts: str,
    bot_user_id: str | None,
    bot_id: str | None,
    limit: int,
) -> tuple[Exchange, ...]:
    """The earlier exchanges of the thread ``thread_ts`` (empty for a new thread)."""
    if limit <= 0 or thread_ts == current_ts:
        return ()
    try:
        response = await client.conversations_replies(channel=channel, ts=thread_ts, limit=200)
    except SlackApiError as exc:
        log.warning("conversations.replies %s/%s failed (%s)", channel, thread_ts, error_code(exc))
        return ()
    messages = [m for m in response.get("messages") or [] if isinstance(m, dict)]
    return exchanges_from_messages(
        messages, current_ts=current_ts, bot_user_id=bot_user_id, bot_id=bot_id, limit=limit
    )
