"""The whole answer on the web, for a reply whose HTML part had to be shortened.

An email's HTML part has a size budget; a long answer is shortened there, while the text part
carries all of it. Gmail and Outlook show only the HTML part, so "the plain-text version of this
email has all of it" points their readers at something they cannot open. When the deployment
has a web address (``web.public_base_url``, so it signs links) and the answer may be shown on
the share page, the reply links ``/turns/{key}`` instead ("read the whole answer"; the
renderer's "and 3 more" link to the full source list goes there too).

The share page shows an answer only when everything it cites or read, and the same for every
earlier answer of its conversation however long, is visible to the web audience
(``web.audience``, public by default; :meth:`bot.connectors.web_turns.WebTurns.shared_answer`).
An answer for a private audience would get a link that only says "not found", so it gets none,
and the HTML part keeps pointing at the plain-text part.
"""

from __future__ import annotations

from bot.connectors.web_conversation_history import ConversationHistory
from bot.connectors.web_turn_page import load_answer, visible_answer
from bot.connectors.web_viewer_links import FileIndex
from bot.runtime import Services


def can_link(services: Services) -> bool:
    """Whether a reply can link the share page at all: a signer and ``web.public_base_url``."""
    return services.signer is not None and bool(services.settings.web.public_base_url)


def shareable_turn(services: Services, turn_id: int, files: FileIndex) -> int | None:
    """``turn_id`` when the share page would show that stored turn (see the module
    docstring), judging every earlier answer of its thread as the page does, however long
    the thread, else None."""
    store = services.store
    turn = load_answer(store, turn_id)
    if turn is None:
        return None
    audience = frozenset(services.settings.web.audience)
    if visible_answer(turn, audience, files) is None:
        return None
    earlier = ConversationHistory(store, audience, files)
    if not earlier.clean_before(turn.conversation_id, turn.channel, turn.id):
        return None
    return turn_id
