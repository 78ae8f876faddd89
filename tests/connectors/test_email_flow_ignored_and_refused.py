"""Email end to end over real SMTP: mail that gets no reply, is refused, rate limited or trimmed."""

from __future__ import annotations

import aiosmtplib
import pytest

from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import BOT, USER, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied", "Subject": "Out of office"},
        {"List-Id": "Users <users.lists.example.com>", "Precedence": "list"},
        {"Precedence": "bulk"},
    ],
)
async def test_robot_and_list_mail_gets_no_reply(flow: EmailFlow, headers: dict[str, str]) -> None:
    async with flow.running() as connector:
        extra = {k: v for k, v in headers.items() if k != "Subject"}
        await send(connector, inbound_mail(headers=extra))
        outcome = await connector.handle_message(inbound_mail(headers=extra))
    assert outcome.status == "ignored"
    assert flow.answerer.calls == []
    assert connector.services.store.pending("email") == []
    assert flow.mails == []


async def test_own_address_and_bounces_get_no_reply(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        own = await connector.handle_message(inbound_mail(sender=BOT))
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=connector.listen_port)
        async with client:
            await client.mail("")  # MAIL FROM:<>, a bounce
            await client.rcpt(BOT)
            await client.data(inbound_mail(message_id="<bounce@x>"))
    assert own.reason == "own address"
    assert flow.answerer.calls == []


async def test_only_quoted_text_gets_no_reply(flow: EmailFlow) -> None:
    quoted = inbound_mail(
        "On Mon, 3 Jun 2024, citecast <help@docs.example.org> wrote:\n> Install it with pip.\n",
        subject="Re: Installing on Linux",
        headers={"In-Reply-To": "<cc-1.2@docs.example.org>"},
    )
    async with flow.running() as connector:
        await send(connector, quoted)
        outcome = await connector.handle_message(quoted)
    assert (outcome.status, outcome.reason) == ("ignored", "no question (only quoted text)")
    assert flow.answerer.calls == []


async def test_ten_megabyte_attachment_is_accepted_and_ignored(flow: EmailFlow) -> None:
    raw = inbound_mail("What does this log say?", attachment=b"\x00\xff" * 5_000_000)
    async with flow.running() as connector:
        await send(connector, raw)
        await wait_for(lambda: not connector.services.store.pending("email"))
    assert [c[0] for c in flow.answerer.calls] == ["What does this log say?"]
    reply = flow.mails[0]
    assert len(reply.content) < 200_000
    assert all(a.get_filename() != "big.bin" for a in reply.message().iter_attachments())


async def test_message_over_the_size_limit_is_refused_by_smtp(flow: EmailFlow) -> None:
    async with flow.running(max_message_bytes=100_000) as connector:
        with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
            await send(connector, inbound_mail(attachment=bytes(200_000)))
    assert refused.value.code == 552
    assert flow.answerer.calls == []


async def test_mail_for_another_address_is_refused_at_rcpt(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        with pytest.raises(aiosmtplib.SMTPRecipientsRefused):
            await aiosmtplib.send(
                inbound_mail(), sender=USER, recipients=["someone@else.org"],
                hostname="127.0.0.1", port=connector.listen_port,
            )  # fmt: skip
    assert flow.answerer.calls == []


async def test_rate_limit_per_sender(flow: EmailFlow) -> None:
    async with flow.running(rate_limit_per_hour=2) as connector:
        outcomes = [
            await connector.handle_message(inbound_mail(message_id=f"<r{i}@example.com>"))
            for i in range(3)
        ]
        other = await connector.handle_message(
            inbound_mail(sender="bob@example.net", message_id="<b@example.net>")
        )
    assert [o.status for o in outcomes] == ["answered", "answered", "ignored"]
    assert outcomes[2].reason == "rate limited"
    assert other.status == "answered"
