"""Which stored turn a message the bot posted answers, so that history can judge it exactly.

History for the model leaves out an earlier answer its readers may no longer see
(:func:`bot.connectors.web_turn_page.visible_answer`). Matching a posted answer to its stored
turn by the question's text fails when the asker edits the question afterwards, or when the
question is no longer in the history's window; so each answer posted records its turn id in the
store's ``state`` (no new table or column), under a key that does not change: the Discord
message's key, or the number of the Discourse post it replies to. Only the latest
``REMEMBERED`` of each channel are kept; an answer whose record is gone (or posted before the
record was kept) is matched as before, and when it cannot be matched at all while the
conversation holds any answer its readers may not see, it is left out: history fails closed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence

from bot.errors import StoreError
from bot.store import Store, Turn

log = logging.getLogger(__name__)

# the ``state`` scopes of the records (no connector uses them for anything else)
DISCORD_SCOPE = "discord-answer-turns"
DISCOURSE_SCOPE = "discourse-answer-turns"
# records kept per channel: far more answers than any history window reaches back to
REMEMBERED = 100_000


def record_turn(store: Store, scope: str, key: str, turn_id: int, *, replace: bool = False) -> None:
    """Record that the bot's message or reply known as ``key`` answers turn ``turn_id``, with
    any turn recorded for it before (a question answered again keeps both: each is judged),
    or with ``replace`` instead of them (a message edited to hold the new answer).

    Best effort: the answer is posted or queued already; without a record it is judged as an
    unmatched answer (see the module's docstring)."""
    try:
        before = () if replace else recorded_turns(store, scope, key)
        turns = [t for t in before if t != turn_id]
        value = json.dumps([*turns, turn_id])
        store.set_state(scope, key, value, keep=REMEMBERED)
    except StoreError as exc:
        log.warning("%s: could not record turn %s of %s: %s", scope, turn_id, key, exc)


def recorded_turns(store: Store, scope: str, key: str) -> tuple[int, ...]:
    """The turn ids recorded for ``key`` (oldest first); none when it has no record."""
    saved = store.state(scope, key)
    if saved is None:
        return ()
    try:
        value = json.loads(saved)
    except ValueError:
        return ()
    if not isinstance(value, list):
        return ()
    return tuple(t for t in value if isinstance(t, int) and not isinstance(t, bool))


def every_turn(store: Store, conversation: str, channel: str) -> list[Turn]:
    """All of the conversation's turns of ``channel``, oldest first: an answer the history
    window still shows may be older than any fixed number of the latest turns."""
    count = store.count_channel_turns(conversation, channel, before=2**63 - 1)
    # with room for turns stored between the count and the read
    return store.channel_turns(conversation, channel, limit=count + 100)


def answered(turn: Turn) -> bool:
    """Whether ``turn`` holds an answer (done, or dropped by an outbox after it was stored)."""
    return turn.answer is not None


def any_hidden(turns: Iterable[Turn], readable: Callable[[Turn], bool]) -> bool:
    """Whether any answer among ``turns`` is one ``readable`` refuses: then an answer that
    cannot be matched to its turn may be that one, and is left out."""
    return any(answered(turn) and not readable(turn) for turn in turns)


def turns_by_id(turns: Sequence[Turn]) -> dict[int, Turn]:
    """``turns`` by their ids."""
    return {turn.id: turn for turn in turns}
