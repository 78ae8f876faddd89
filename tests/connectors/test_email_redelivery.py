"""A mail answered once is never answered again, also after its sent reply was pruned."""

from __future__ import annotations

import time

from bot.connectors.email_ids import outbox_id
from bot.store import Store
from bot.store_retention import DAY
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


async def test_a_mail_delivered_again_after_its_reply_was_pruned_gets_no_second_reply(
    flow: EmailFlow,
) -> None:
    item_id = outbox_id("<q1@example.com>")
    async with flow.running() as connector:
        store = connector.services.store
        await send(connector, inbound_mail())
        await wait_for(lambda: getattr(store.outbox_item(item_id), "status", "") == "sent")
        # eight days on: the sent reply's outbox row goes (7 days), its claim stays (60 days)
        later = Store(store.path, clock=lambda: time.time() + 8 * DAY)
        while later.prune():
            pass
        assert store.outbox_item(item_id) is None
        # the same mail again: marked unread in the mailbox, or a relay's second delivery
        await send(connector, inbound_mail())
        assert store.outbox_item(item_id) is None
        await send(connector, inbound_mail(message_id="<q2@example.com>"))
        await wait_for(lambda: len(flow.mails) == 2)
    assert len(flow.answerer.calls) == 2
    assert [m.message()["In-Reply-To"] for m in flow.mails] == [
        "<q1@example.com>",
        "<q2@example.com>",
    ]
