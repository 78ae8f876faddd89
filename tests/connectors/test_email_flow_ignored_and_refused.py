"""Email end to end over real SMTP: mail that gets no reply, is refused, rate limited or trimmed."""

from __future__ import annotations

from pathlib import Path

import aiosmtplib
import pytest

from tests.connectors.email_flow_harness import (
    StaticAnswerer,
    capture,
    cited_answer,
    manual,
    send,
    start,
)
from tests.fakes.email_world import BOT, USER, inbound_mail
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture", "manual"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied", "Subject": "Out of office"},
        {"List-Id": "Users <users.lists.example.com>", "Precedence": "list"},
        {"Precedence": "bulk"},
    ],
)
async def test_robot_and_list_mail_gets_no_reply(
    tmp_path: Path, capture: CaptureServer, manual: Path, headers: dict[str, str]
) -> None:
    answerer = StaticAnswerer(cited_answer(manual))
    connector = await start(tmp_path, answerer, capture.port)
    try:
        extra = {k: v for k, v in headers.items() if k != "Subject"}
        await send(connector, inbound_mail(headers=extra))
        outcome = await connector.handle_message(inbound_mail(headers=extra))
    finally:
        await connector.stop()
    assert outcome.status == "ignored"
    assert answerer.calls == []
    assert connector.services.store.pending("email") == []
    assert capture.handler.mails == []


async def test_own_address_and_bounces_get_no_reply(
    tmp_path: Path, capture: CaptureServer, manual: Path
) -> None:
    answerer = StaticAnswerer(cited_answer(manual))
    connector = await start(tmp_path, answerer, capture.port)
    try:
        own = await connector.handle_message(inbound_mail(sender=BOT))
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=connector.listen_port)
        async with client:
            await client.mail("")  # MAIL FROM:<>, a bounce
            await client.rcpt(BOT)
            await client.data(inbound_mail(message_id="<bounce@x>"))
    finally:
        await connector.stop()
    assert own.reason == "own address"
    assert answerer.calls == []


async def test_only_quoted_text_gets_no_reply(
    tmp_path: Path, capture: CaptureServer, manual: Path
) -> None:
    answerer = StaticAnswerer(cited_answer(manual))
    connector = await start(tmp_path, answerer, capture.port)
    quoted = inbound_mail(
        "On Mon, 3 Jun 2024, citecast <help@docs.example.org> wrote:\n> Install it with pip.\n",
        subject="Re: Installing on Linux",
        headers={"In-Reply-To": "<cc-1.2@docs.example.org>"},
    )
    try:
        await send(connector, quoted)
        outcome = await connector.handle_message(quoted)
    finally:
        await connector.stop()
    assert (outcome.status, outcome.reason) == ("ignored", "no question (only quoted text)")
    assert answerer.calls == []


async def test_ten_megabyte_attachment_is_accepted_and_ignored(
    tmp_path: Path, capture: CaptureServer, manual: Path
) -> None:
    answerer = StaticAnswerer(cited_answer(manual))
    connector = await start(tmp_path, answerer, capture.port)
    raw = inbound_mail("What does this log say?", attachment=b"\x00\xff" * 5_000_000)
    try:
        await send(connector, raw)
        await wait_for(lambda: not connector.services.store.pending("email"))
    finally:
        await connector.stop()
    assert [c[0] for c in answerer.calls] == ["What does this log say?"]
    reply = capture.handler.mails[0]
    assert len(reply.content) < 200_000
    assert all(a.get_filename() != "big.bin" for a in reply.message().iter_attachments())


async def test_message_over_the_size_limit_is_refused_by_smtp(
    tmp_path: Path, capture: CaptureServer, manual: Path
) -> None:
    answerer = StaticAnswerer(cited_answer(manual))
    connector = await start(tmp_path, answerer, capture.port, max_message_bytes=100_000)
    try:
        with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
            await send(connector, inbound_mail(attachment=bytes(200_000)))
    finally:
        await connector.stop()
    assert refused.value.code == 552
    assert answerer.calls == []


async def test_mail_for_another_address_is_refused_at_rcpt(
    tmp_path: Path, capture: CaptureServer, manual: Path
) -> None:
    answerer = StaticAnswerer(cited_answer(manual))
    connector = await start(tmp_path, answerer, capture.port)
    try:
        with pytest.raises(aiosmtplib.SMTPRecipientsRefused):
            await aiosmtplib.send(
                inbound_mail(), sender=USER, recipients=["someone@else.org"],
                hostname="127.0.0.1", port=connector.listen_port,
            )  # fmt: skip
    finally:
        await connector.stop()
    assert answerer.calls == []


async def test_rate_limit_per_sender(tmp_path: Path, capture: CaptureServer, manual: Path) -> None:
    answerer = StaticAnswerer(cited_answer(manual))
    connector = await start(tmp_path, answerer, capture.port, rate_limit_per_hour=2)
    try:
        outcomes = [
            await connector.handle_message(inbound_mail(message_id=f"<r{i}@example.com>"))
            for i in range(3)
        ]
        other = await connector.handle_message(
            inbound_mail(sender="bob@example.net", message_id="<b@example.net>")
        )
    finally:
        await connector.stop()
    assert [o.status for o in outcomes] == ["answered", "answered", "ignored"]
    assert outcomes[2].reason == "rate limited"
    assert other.status == "answered"
