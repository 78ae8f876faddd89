"""The blocks citecast adds around a Slack answer: feedback buttons, and the source list's blocks.

The feedback buttons go on the answer's last message (or a message of their own when it already
holds Slack's 50 blocks); their ``action_id`` and ``value`` name the choice and the turn, which
``slack_interactions`` reads back when someone clicks. ``source_blocks`` picks the renderer's
source list out of a payload, so a streamed answer can send it once the text is done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store import FEEDBACK_VALUES
from renderers.limits import SLACK_MAX_BLOCKS

FEEDBACK_ACTION_PREFIX = "citecast_feedback_"
FEEDBACK_BLOCK_ID = "citecast_feedback"
FEEDBACK_CHOICES: dict[str, str] = dict(
    zip(FEEDBACK_VALUES, ("\U0001f44d Helpful", "\U0001f44e Not helpful"), strict=True)
)
SOURCE_ACTION_PREFIX = "citecast_source_"

Message = dict[str, Any]


def feedback_block(turn_id: int) -> dict[str, Any]:
    """An actions block with the helpful / not helpful buttons of a turn."""
    return {
        "type": "actions",
        "block_id": FEEDBACK_BLOCK_ID,
        "elements": [
            {
                "type": "button",
                "text": {"type": "plain_text", "text": label, "emoji": True},
                "action_id": FEEDBACK_ACTION_PREFIX + value,
                "value": str(turn_id),
            }
            for value, label in FEEDBACK_CHOICES.items()
        ],
    }


def with_feedback(messages: Sequence[Message], turn_id: int | None) -> list[Message]:
    """The messages with feedback buttons on the last one (or in a message of their own)."""
    out = [dict(m) for m in messages]
    if turn_id is None:
        return out
    block = feedback_block(turn_id)
    if out and len(out[-1].get("blocks") or []) < SLACK_MAX_BLOCKS:
        out[-1]["blocks"] = [*(out[-1].get("blocks") or []), block]
    else:
        out.append({"text": "Was this answer helpful?", "blocks": [block]})
    return out


def source_blocks(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The renderer's source list blocks (context blocks and record buttons), in order."""
    return [
        block
        for message in messages
        for block in message.get("blocks") or []
        if block.get("type") == "context"
        or (block.get("type") == "actions" and block.get("block_id") != FEEDBACK_BLOCK_ID)
    ]
