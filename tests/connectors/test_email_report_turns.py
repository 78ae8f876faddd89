"""`citecast report` counts an email reply by where it is: sent, waiting in the outbox, given up.

The turn is stored ``done`` when the reply is queued; the queued reply carries its turn
(``bot.connectors.outbox_turns.TURN_KEY``), so a reply the outbox gives up on (a recipient
refused for good, the retries run out) is a failed turn, and one still waiting is unfinished.
Before, an email reply the outbox dropped was counted as answered.
"""

from __future__ import annotations

import time

from bot.store import Store
from bot.usage_report import ChannelUsage, build_report
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


def email_usage(store: Store) -> ChannelUsage:
    [row] = [u for u in build_report(store, time.time() - 3600, 1).channels if u.channel == "email"]
    return row


async def test_a_reply_refused_for_good_is_a_failed_turn(flow: EmailFlow) -> None:
    flow.capture.handler.reject_recipients = "550 5.1.1 No such user"
    async with flow.running() as connector:
        store = connector.services.store
        await send(connector, inbound_mail(message_id="<q1@example.com>"))
        await wait_for(lambda: not store.pending("email"))
        usage = email_usage(store)
    assert flow.mails == []
    assert (usage.asked, usage.failed, usage.cited, usage.unfinished) == (1, 1, 0, 0)


async def test_a_reply_whose_retries_run_out_is_a_failed_turn(flow: EmailFlow) -> None:
    flow.capture.handler.refuse_first = 100  # 451 each time: retried, then given up
    async with flow.running(max_attempts=2) as connector:
        store = connector.services.store
        await send(connector, inbound_mail(message_id="<q1@example.com>"))
        await wait_for(lambda: not store.pending("email"))
        usage = email_usage(store)
    assert flow.capture.handler.attempts == 2
    assert (usage.asked, usage.failed, usage.cited) == (1, 1, 0)


async def test_a_reply_waiting_for_a_retry_is_unfinished_then_answered(flow: EmailFlow) -> None:
    flow.capture.handler.refuse_first = 1
    async with flow.running(retry_initial_seconds=0.5, retry_max_seconds=0.5) as connector:
        store = connector.services.store
        await send(connector, inbound_mail(message_id="<q1@example.com>"))
        await wait_for(lambda: flow.capture.handler.attempts == 1)
        waiting = email_usage(store)
        await wait_for(lambda: not store.pending("email"))
        sent = email_usage(store)
    assert (waiting.asked, waiting.unfinished, waiting.cited) == (1, 1, 0)
    assert (sent.asked, sent.unfinished, sent.cited, sent.failed) == (1, 0, 1, 0)
    assert len(flow.mails) == 1
