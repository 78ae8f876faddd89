"""The reply to one mail, queued: rendered for the sender, composed as MIME, kept in the outbox.

The connector (:class:`bot.connectors.email.EmailConnector`) hands over the answer with the
notes that go on top of it; the outbox worker (``email_outbox``) sends what is queued here.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.config import EmailSettings
from bot.connectors.email_compose import (
    Note,
    compose_reply,
    new_message_id,
    references_for,
    reply_subject,
    with_note,
)
from bot.connectors.email_files import within_attachment_budget
from bot.connectors.email_outbox import CHANNEL
from bot.connectors.email_parse import InboundMail
from bot.connectors.link_lifetime import services_with_link_days
from bot.connectors.outbox_turns import TURN_KEY
from bot.connectors.render_context import context_for
from bot.models import Answer

if TYPE_CHECKING:
    from bot.runtime import Services


THREAD_ROOTS = "email-thread-root"
"""The store's state scope of each thread's first message (``references_for``)."""
THREAD_ROOTS_KEPT = 20_000


class ReplyQueue:
    """Renders, composes and queues the replies of one email connector."""

    def __init__(self, services: Services, settings: EmailSettings) -> None:
        self.services = services
        self.settings = settings

    async def enqueue(
        self,
        mail: InboundMail,
        answer: Answer,
        audience: frozenset[str],
        notes: tuple[Note, ...],
        thread: str,
        item_id: str,
        turn_id: int | None,
        stored: int | None,
    ) -> None:
        """Render, compose and store the reply in the outbox (sent by the outbox worker).

        ``turn_id``: the stored turn the reply may link to on the share page; ``stored``: the
        reply's own stored turn, recorded as failed if the outbox gives the reply up.
        """
        # no subject of its own: the renderer names the reply by the answer's first line
        subject = reply_subject(mail.subject) or None
        payload = self._render(answer, audience, subject, notes, turn_id)
        address = self.settings.address.strip().lower()
        store = self.services.store
        # a client that keeps only In-Reply-To (to our reply) drops the thread's first message
        # from References: the store remembers it by the thread key our reply's id carries
        known = store.state(THREAD_ROOTS, thread) if not mail.references else None
        root = references_for(mail, known)[:1]
        if known is None and root:
            # saved before the reply is queued: a store error here is retried as a whole
            store.set_state(THREAD_ROOTS, thread, root[0], keep=THREAD_ROOTS_KEPT)
        outbound = await asyncio.to_thread(
            compose_reply,
            payload,
            mail,
            from_address=address,
            from_name=self.settings.display_name,
            message_id=new_message_id(thread, address.partition("@")[2]),
            max_attachment_bytes=self.settings.max_attachment_bytes,
            root=known,
        )
        queued = outbound.to_json()
        if stored is not None:
            queued[TURN_KEY] = stored
        store.enqueue(CHANNEL, queued, item_id)

    def _render(
        self,
        answer: Answer,
        audience: frozenset[str],
        subject: str | None,
        notes: tuple[Note, ...] = (),
        turn_id: int | None = None,
    ) -> dict[str, Any]:
        from renderers import render
        from renderers.base import capabilities_for

        settings = self.services.settings
        caps = capabilities_for("email", settings.capabilities.get("email"))
        if notes:
            # the notes' bytes come out of the HTML budget the renderer keeps to
            reserve = sum(len(note.html.encode("utf-8")) + 1 for note in notes)
            caps = replace(caps, max_chars=max(1, caps.max_chars - reserve))
        # mail is read days later: its /files/ links last email.file_link_ttl_days, not the
        # web's hour (each download still re-checks who may read the file now)
        links = services_with_link_days(self.services, self.settings.file_link_ttl_days)
        context = context_for(
            links, audience, caps, turn_id=turn_id, subject=subject, answer=answer
        )
        context = within_attachment_budget(answer, context, self.settings.max_attachment_bytes)
        payload = render("email", answer, context)
        for note in reversed(notes):  # each goes on top: the first ends up first
            payload = with_note(payload, note)
        return payload
