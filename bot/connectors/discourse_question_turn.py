"""The stored turn a Discourse question is answered under: one per question, however often answered.

A question whose answer a restart cut short (stored ``failed`` by the stop, or left ``pending``
by a crash and marked ``failed`` by the next ``citecast serve``), or that failed for a cause
that passed, is answered again by the outbox worker. Given a turn of its own each time, it was
two turns, ``failed`` then ``done``, and ``citecast report`` counted one question as asked twice
and failed once. So the answer given again finishes the turn the earlier attempt left, as the
Discord and Slack connectors do after a restart: the turn is found by the record of the turns
answering the post (``answer_records``, kept for the history's sake), which is written as soon
as the turn is stored. A turn that holds an answer is never taken again (done, or its reply
dropped by the outbox: that answer stays what the report counts), and one of another topic
(the post moved since) neither.
"""

from __future__ import annotations

import logging

from bot.connectors.answer_records import DISCOURSE_SCOPE, record_turn, recorded_turns
from bot.connectors.discourse_delivery import CHANNEL
from bot.connectors.discourse_topic_answers import question_key
from bot.errors import StoreError
from bot.store import Store

log = logging.getLogger(__name__)


def question_turn(
    store: Store, conversation: str, topic_id: int, post_number: int, question: str
) -> int:
    """The turn to answer post ``post_number`` of topic ``topic_id`` under, made ``pending``:
    the one an earlier attempt left unanswered, else a new one, recorded for the post.

    Raises StoreError when no turn can be stored (as ``Store.add_turn``); failing to read the
    earlier turn only costs counting the question twice.
    """
    key = question_key(topic_id, post_number)
    left = _unanswered_turn(store, key, conversation)
    if left is not None:
        # being answered again: no longer failed, and failed again if this attempt is cut short
        store.finish_turn(left, None, None, status="pending")
        return left
    turn_id = store.add_turn(conversation, CHANNEL, question, status="pending")
    # what a later history judges the reply by, whatever becomes of the question's text
    record_turn(store, DISCOURSE_SCOPE, key, turn_id)
    return turn_id


def _unanswered_turn(store: Store, key: str, conversation: str) -> int | None:
    """The latest turn recorded for the post ``key`` when it holds no answer yet."""
    try:
        recorded = recorded_turns(store, DISCOURSE_SCOPE, key)
        turn = store.turn(recorded[-1]) if recorded else None
    except StoreError as exc:
        log.warning("discourse post %s: cannot read its earlier turn: %s", key, exc)
        return None
    if turn is None or turn.status == "done" or turn.answer is not None:
        return None
    if turn.conversation_id != conversation or turn.channel != CHANNEL:
        return None
    return turn.id
