"""Where a Slack answer goes: the channel, the question's thread and who asked.

Kept apart from the sending code because the outbox stores a thread with each waiting answer
(:meth:`SlackThread.to_json`) and reads it back after a restart (:meth:`SlackThread.from_json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SlackThread:
    """Where an answer goes: the channel, the question's thread and who asked."""

    channel: str
    thread_ts: str
    user: str | None = None
    team_id: str | None = None
    # an assistant thread (Agents & AI Apps), which shows the asker a status while we work
    assistant: bool = False
    # the question the thread's replies are posted for (``slack_replies`` records them under
    # it, the outbox's later posts too); not part of where the answer goes
    question_ts: str | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The thread as an outbox payload keeps it (:meth:`from_json` reads it back)."""
        return {
            "channel": self.channel,
            "thread_ts": self.thread_ts,
            "user": self.user,
            "team_id": self.team_id,
            "assistant": self.assistant,
            "question_ts": self.question_ts,
        }

    @classmethod
    def from_json(cls, payload: Mapping[str, Any]) -> SlackThread:
        """The thread of an outbox payload (KeyError without a channel or thread)."""
        return cls(
            str(payload["channel"]),
            str(payload["thread_ts"]),
            payload.get("user"),
            payload.get("team_id"),
            assistant=bool(payload.get("assistant")),
            question_ts=_text(payload.get("question_ts")),
        )


def _text(value: object) -> str | None:
    """A payload's string, or None (an item queued before it was kept, or unreadable)."""
    return value if isinstance(value, str) else None
