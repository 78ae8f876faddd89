"""Which Slack events are questions, and the question each one asks.

Answered: ``app_mention`` anywhere, and ``message`` events in a DM with the bot (which includes
assistant threads). Not answered: anything a bot wrote (``bot_id``, ``bot_profile``, subtype
``bot_message``, or the bot's own user), edits and deletions and other subtypes, and plain
channel messages (a mention there arrives as its own ``app_mention`` event).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.connectors.slack_delivery import SlackThread
from bot.connectors.slack_text import question_text

ANSWERED_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})


@dataclass(frozen=True)
class SlackQuestion:
    """One question to answer, taken from an event."""

    event_id: str
    channel: str
    ts: str
    thread_ts: str
    user: str | None
    team_id: str | None
    text: str
    channel_type: str | None
    assistant_thread: bool
    raw_text: str = ""  # as Slack sent it, to name the people it mentions (``text`` says @U…)
    has_files: bool = False

    def thread(self) -> SlackThread:
        """Where its answer goes: the question's thread (an assistant thread or not)."""
        return SlackThread(
            self.channel, self.thread_ts, self.user, self.team_id, self.assistant_thread
        )


def is_from_a_bot(event: dict[str, Any], bot_user_id: str | None) -> bool:
    """True for messages written by this bot or any other bot."""
    return bool(
        event.get("bot_id")
        or event.get("subtype") == "bot_message"
        or event.get("bot_profile")
        or (bot_user_id and event.get("user") == bot_user_id)
    )


def question_from_event(
    body: dict[str, Any], event: dict[str, Any], bot_user_id: str | None
) -> SlackQuestion | None:
    """The question an Events API callback asks, or None when it is not one to answer."""
    kind = event.get("type")
    if is_from_a_bot(event, bot_user_id) or event.get("subtype") not in ANSWERED_SUBTYPES:
        return None
    if kind == "message" and event.get("channel_type") != "im":
        return None  # channel messages are answered through their app_mention event
    if kind not in ("app_mention", "message") or not event.get("channel") or not event.get("ts"):
        return None
    ts = str(event["ts"])
    channel_type = event.get("channel_type")
    return SlackQuestion(
        event_id=str(body.get("event_id") or f"{event['channel']}:{ts}"),
        channel=str(event["channel"]),
        ts=ts,
        thread_ts=str(event.get("thread_ts") or ts),
        user=event.get("user"),
        team_id=event.get("team") or body.get("team_id"),
        text=question_text(str(event.get("text") or ""), bot_user_id),
        channel_type=channel_type,
        assistant_thread=channel_type == "im" and bool(event.get("thread_ts")),
        raw_text=str(event.get("text") or ""),
        has_files=bool(event.get("files")),
    )
