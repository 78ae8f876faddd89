"""A Message-ID written without its angle brackets still threads the reply.

Found by an email QA pass: ``Message-ID: 093.bare@example.com`` (some scripts and old clients
write it so) was not read as an id; citecast made one up for deduplication, and the reply went
out without In-Reply-To or References, so the sender's client did not thread it.
"""

from __future__ import annotations

from bot.connectors.email_parse import parse_mail
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


def test_a_bare_id_is_the_mails_id() -> None:
    assert parse_mail(inbound_mail(message_id="093.bare@example.com")).message_id == (
        "<093.bare@example.com>"
    )
    # not an id: no "@", a space, a control character
    for value in ("no-at-sign", "a b@example.com", "a@example.com\x1b"):
        assert parse_mail(inbound_mail(message_id=value)).message_id != f"<{value}>"


async def test_the_reply_to_a_bare_id_carries_in_reply_to(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, inbound_mail(message_id="093.bare@example.com"))
        await wait_for(lambda: len(flow.mails) == 1)
    reply = flow.mails[0].message()
    assert reply["In-Reply-To"] == "<093.bare@example.com>"
    assert reply["References"] == "<093.bare@example.com>"
