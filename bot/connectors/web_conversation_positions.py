"""Where a web turn stands in its conversation: how many of the conversation's turns come first.

The chat names each answer's source list after the answer's place in the whole conversation
("Sources for answer 201: …"), and a reload of a long conversation shows only its latest turns
(``web_conversation_page``): the page cannot count what it is not sent, so the endpoint gives
each turn its ``position``. Every turn of the conversation and channel counts, answered or not
(each is a card in the chat).

The store is read a page of turns at a time, oldest first, and what was counted is kept as
checkpoints: a turn id and how many turns of the conversation go up to it. Turns are never
deleted and their ids only grow, so a checkpoint stays true for good, and a later count (the
next reload, the next page back with ``?before=``, each poll for an answer still being written)
reads only the turns after the nearest checkpoint below it.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import OrderedDict
from typing import TYPE_CHECKING

from bot.store import Store

if TYPE_CHECKING:
    from bot.connectors.web_conversation_history import TurnReads

# turns read at a time while counting (each page's last turn becomes a checkpoint)
PAGE = 64
# conversations whose checkpoints are remembered (the least recently counted is forgotten)
KNOWN_CONVERSATIONS = 512


class TurnPositions:
    """Counts the turns of a conversation and channel before a given turn, reading the store
    only past the nearest checkpoint (each row read is added to ``reads``)."""

    def __init__(self, store: Store, reads: TurnReads) -> None:
        self.store = store
        self.reads = reads
        # (conversation, channel) -> checkpoints, sorted: (turn id, turns up to and with it)
        self._known: OrderedDict[tuple[str, str], list[tuple[int, int]]] = OrderedDict()

    def before(self, conversation_id: str, channel: str, turn_id: int) -> int:
        """How many turns of the conversation and channel have an id below ``turn_id``."""
        key = (conversation_id, channel)
        marks = self._known.setdefault(key, [])
        self._known.move_to_end(key)
        while len(self._known) > KNOWN_CONVERSATIONS:
            self._known.popitem(last=False)
        # the nearest checkpoint below turn_id: (turn_id, 0) sorts before any (turn_id, count)
        at = bisect_left(marks, (turn_id, 0))
        upto, count = marks[at - 1] if at else (0, 0)
        while True:
            page = self.store.channel_turns(
                conversation_id, channel, after=upto, before=turn_id, limit=PAGE, oldest=True
            )
            self.reads.rows += len(page)
            if not page:
                return count
            upto, count = page[-1].id, count + len(page)
            if (upto, count) not in marks:
                insort(marks, (upto, count))
            if len(page) < PAGE:
                return count
