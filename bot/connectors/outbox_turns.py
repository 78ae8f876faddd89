"""The turn of an outbox item: an answer the outbox drops for good is a failed turn.

A connector stores its turn as ``done`` once the answer is handed over, possibly still queued in
the store's outbox. When the outbox later drops it (the platform refuses it for good, or the
retries run out), the question was never answered, and ``citecast report`` must not count it as
answered. So the payload carries the turn's id under :data:`TURN_KEY`, and the connector calls
:func:`fail_queued_turn` on every path that drops an item.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot.errors import StoreError
from bot.store import Store

log = logging.getLogger(__name__)

TURN_KEY = "turn_id"


def queued_turn(payload: Mapping[str, Any]) -> int | None:
    """The turn id an outbox payload carries; None for items queued by an older version (or
    without a turn, e.g. a shared answer whose own turn was already delivered)."""
    turn_id = payload.get(TURN_KEY)
    # JSON gives ints back as ints; a bool is an int to Python but never a turn id
    if not isinstance(turn_id, int) or isinstance(turn_id, bool):
        return None
    return turn_id


def fail_queued_turn(store: Store, payload: Mapping[str, Any], channel: str) -> None:
    """Record the turn of a dropped outbox item as ``failed``, keeping its stored answer.

    Does nothing for a payload without a turn id; a store error is logged, not raised: the
    item is already dropped, and the caller's own bookkeeping must go on.
    """
    turn_id = queued_turn(payload)
    if turn_id is None:
        return
    try:
        turn = store.turn(turn_id)
        if turn is not None and turn.status != "failed":
            store.finish_turn(turn_id, turn.answer, turn.registry, status="failed")
    except StoreError as exc:
        log.error("%s: cannot record turn %s as failed: %s", channel, turn_id, exc)
