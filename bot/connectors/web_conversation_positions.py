"""Where a web turn stands in its conversation: how many of the conversation's turns come first.

The chat names each answer's source list after the answer's place in the whole conversation
("Sources for answer 201: …"), and a reload of a long conversation shows only its latest turns
(``web_conversation_page``): the page cannot count what it is not sent, so the endpoint gives
each turn its ``position``. Every turn of the conversation and channel counts, answered or not
(each is a card in the chat).

The count is one ``COUNT(*)`` that the store answers from its ``turns_by_channel`` index
(:meth:`bot.store.Store.count_channel_turns`): no turn is read, so its cost does not grow with
the answers' size, and nothing needs remembering between requests (a remembered count for a
few hundred conversations only moved the cost to the conversations past them).
"""

from __future__ import annotations

from bot.store import Store


class TurnPositions:
    """Counts the turns of a conversation and channel before a given turn."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def before(self, conversation_id: str, channel: str, turn_id: int) -> int:
        """How many turns of the conversation and channel have an id below ``turn_id``."""
        return self.store.count_channel_turns(conversation_id, channel, before=turn_id)
