"""``GET /api/conversations/{id}``: a conversation's web turns, the latest page of them first.

A conversation can grow to any length, and each stored answer is re-rendered with its links
signed afresh, so the endpoint returns at most :data:`~bot.connectors.web_turns.CONVERSATION_PAGE`
turns at once, the latest, oldest first. ``earlier`` says whether older turns are left; the
client asks for them with ``?before={turn_id}`` (the ``turn_id`` of the first turn it has), and
so on page by page. An answer keeps its vote and its share link wherever it falls: the share
rule judges the answers before a page too (``web_conversation_history``). Each turn carries its
``position``, its place among all the conversation's web turns (1 for the first), so the chat
names it the same whichever page it comes on (``web_conversation_positions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.connectors.web_turns import CHANNEL, WebTurns
from bot.errors import ValidationError

# a turn id is a positive SQLite integer: at most 19 digits, and at most 2**63 - 1
_MAX_DIGITS = 19
_MAX_TURN_ID = 2**63 - 1


def parse_before(given: Sequence[str]) -> int | None:
    """The ``before`` query parameter (each value ``given`` for it): a turn id, or None when
    absent; anything else, or two values, is a ValidationError (a 400)."""
    if not given:
        return None
    if len(given) > 1:
        # which one a proxy or cache read is anyone's guess, as for the stream's question
        raise ValidationError("give one before")
    raw = given[0]
    # digits first (int() of a long string is slow), then the range SQLite can hold: a larger
    # id was an OverflowError in the store, a 500
    digits = raw.isascii() and raw.isdigit() and len(raw) <= _MAX_DIGITS
    if not digits or not 1 <= int(raw) <= _MAX_TURN_ID:
        raise ValidationError("before must be the turn_id of a turn of this conversation")
    return int(raw)


def conversation_page(
    turns: WebTurns, conversation_id: str, before: int | None, base_url: str
) -> dict[str, Any]:
    """The endpoint's JSON: ``{conversation_id, turns, earlier}``, the latest turns before the
    turn id ``before`` (the latest of all without it), each with its ``position`` in the
    conversation, and whether older ones are left."""
    stored = turns.stored_turns(conversation_id, before)
    earlier = bool(stored) and turns.has_earlier(conversation_id, stored[0].id)
    # without earlier turns the first one shown is the conversation's first: nothing to count
    counted = (
        turns.conversations.positions.before(conversation_id, CHANNEL, stored[0].id)
        if earlier
        else 0
    )
    shown = turns.stored_payloads(stored, base_url)
    return {
        "conversation_id": conversation_id,
        "turns": [dict(turn, position=counted + n) for n, turn in enumerate(shown, 1)],
        "earlier": earlier,
    }
