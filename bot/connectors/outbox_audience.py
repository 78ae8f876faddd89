"""The answer a queued reply carries, judged again before the reply is sent (any channel).

A reply waits in an outbox for minutes or hours; meanwhile the place it goes to may be read by
others, or a knowledge-base file it cites made private or dropped from the index. The answer is
the item's turn (``outbox_turns``): :func:`judged_turn` finds it, and the channel checks it with
the share page's rule (``web_turn_page.visible_answer``, a file as the index has it now) for
whoever reads the place now, dropping the reply (:class:`ReadersChangedError`) when they may not.

An item without a turn (queued by an older version, or a reply with no turn of its own) is not
judged, nor one whose turn holds no answer (a stop cut the answer short before it was stored:
what its first run left is sent after the restart as before). A stored answer that cannot be
read fails closed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.connectors.outbox_turns import queued_turn
from bot.connectors.web_turn_page import stored_sources
from bot.errors import ChannelError
from bot.store import Store
from bot.store_rows import Turn


class ReadersChangedError(ChannelError):
    """A queued reply may no longer be sent where it goes: those reading it now may not see
    every source its answer cites or read (or the stored answer cannot be read to tell)."""


class ReadersUnknownError(ChannelError):
    """Who reads the place a queued reply goes to cannot be told now (the platform's lookup
    failed): the reply waits for another try rather than being sent or dropped."""


def judged_turn(store: Store, payload: Mapping[str, Any]) -> Turn | None:
    """The turn whose answer the outbox item ``payload`` carries; None when there is nothing
    to judge it by (see the module docstring). Raises ReadersChangedError for a stored answer
    that cannot be read."""
    turn_id = queued_turn(payload)
    if turn_id is None:
        return None
    turn = store.turn(turn_id)
    if turn is None or turn.answer is None:
        return None
    if stored_sources(turn) is None:
        raise ReadersChangedError(
            f"the stored answer of turn {turn_id} cannot be read, so who may read it cannot be "
            f"checked"
        )
    return turn


__all__ = ["ReadersChangedError", "ReadersUnknownError", "judged_turn"]
