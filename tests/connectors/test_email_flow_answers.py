"""Email end to end over real SMTP: cited threaded replies, history, dedupe, odd headers, retry."""

from __future__ import annotations

import aiosmtplib
import pytest

from tests.connectors.email_flow_harness import (
    FILE_BYTES,
    EmailFlow,
    StaticAnswerer,
    cited_answer,
    flow,
    send,
    sole_parts,
)
from tests.connectors.html_nesting import nested
from tests.fakes.email_world import BOT, USER, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


async def test_question_gets_a_threaded_cited_reply(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, inbound_mail(message_id="<q1@example.com>"))
        handler = flow.capture.handler
        await wait_for(lambda: not connector.services.store.pending("email"))
    mail = handler.mails[0]
    assert mail.mail_from == BOT and mail.rcpt_tos == (USER,)
    msg = mail.message()
    assert msg["Subject"] == "Re: Installing on Linux"
    assert msg["In-Reply-To"] == "<q1@example.com>"
    assert msg["References"] == "<q1@example.com>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Message-ID"].startswith("<cc-") and msg["Message-ID"].endswith("@docs.example.org>")
    assert msg.get_content_type() == "multipart/mixed"
    alternative, attachment = sole_parts(msg)
    assert [p.get_content_type() for p in sole_parts(alternative)] == ["text/plain", "text/html"]
    text, html = (p.get_content() for p in sole_parts(alternative))
    assert attachment.get_filename() == "admin manual.pdf"
    assert attachment.get_payload(decode=True) == FILE_BYTES
    for n in (1, 2, 3):
        assert f"[{n}]" in text and f"[{n}]" in html
    for url in ("https://docs.example.org/install", "https://docs.example.org/faq#arm"):
        assert url in text and f'href="{url}"' in html
    assert len(html.encode()) < 100_000
    nested(html)
    assert flow.answerer.calls == [
        ("How do I install citecast on Linux?", frozenset({"public"}), ())
    ]
    store = connector.services.store
    assert len(handler.mails) == 1
    assert not store.claim_once("email-message", "<q1@example.com>")


async def test_follow_up_in_the_thread_gets_the_history(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        store = connector.services.store
        await send(connector, inbound_mail(message_id="<q1@example.com>"))
        await wait_for(lambda: not store.pending("email"))
        first = flow.mails[0].message()
        bot_id = str(first["Message-ID"]).strip()
        follow_up = inbound_mail(
            "And on ARM?\n\nOn Mon, citecast wrote:\n> Install it with pip [1].\n",
            subject=str(first["Subject"]),
            message_id="<q2@example.com>",
            headers={"In-Reply-To": bot_id, "References": f"<q1@example.com> {bot_id}"},
        )
        await send(connector, follow_up)
        # A client that keeps only In-Reply-To still lands in the same conversation.
        third = inbound_mail(
            "What about Windows?",
            subject="Re: Re: Installing on Linux",
            message_id="<q3@example.com>",
            headers={"In-Reply-To": bot_id},
        )
        await send(connector, third)
        await wait_for(lambda: not store.pending("email") and len(flow.mails) == 3)
    questions = [call[0] for call in flow.answerer.calls]
    assert questions == [
        "How do I install citecast on Linux?",
        "And on ARM?",
        "What about Windows?",
    ]
    histories = [call[2] for call in flow.answerer.calls]
    assert [e.question for e in histories[1]] == ["How do I install citecast on Linux?"]
    assert histories[1][0].answer == cited_answer(flow.manual).text
    assert [e.question for e in histories[2]] == [
        "How do I install citecast on Linux?",
        "And on ARM?",
    ]
    second = flow.mails[1].message()
    assert second["Subject"] == "Re: Installing on Linux"
    assert second["In-Reply-To"] == "<q2@example.com>"
    assert str(second["References"]).split() == ["<q1@example.com>", bot_id, "<q2@example.com>"]
    third_reply = flow.mails[2].message()
    assert third_reply["Subject"] == "Re: Installing on Linux"


async def test_another_sender_in_the_thread_does_not_get_the_history(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, inbound_mail(message_id="<q1@example.com>"))
        other = inbound_mail(
            "Me too: ARM?",
            sender="Bob <bob@example.net>",
            message_id="<b1@example.net>",
            headers={"References": "<q1@example.com>"},
        )
        await send(connector, other, sender="bob@example.net")
        await wait_for(lambda: len(flow.answerer.calls) == 2)
    assert flow.answerer.calls[1][2] == ()


async def test_duplicate_message_id_is_answered_once(flow: EmailFlow) -> None:
    raw = inbound_mail(message_id="<dup@example.com>")
    async with flow.running() as connector:
        store = connector.services.store
        await send(connector, raw)
        await send(connector, raw)
        outcome = await connector.handle_message(raw)
        await wait_for(lambda: not store.pending("email"))
    assert outcome.status == "duplicate"
    assert len(flow.answerer.calls) == 1
    assert len(flow.mails) == 1


async def test_malformed_headers_and_unknown_charset_get_a_sensible_reply(
    flow: EmailFlow,
) -> None:
    raw = (
        b"From: =?x-unknown?Q?Ann?= <ann@example.com>\r\n"
        b"To: help@docs.example.org\r\n"
        b"Subject: =?utf-8?B?w6l0w6k=?= =?bogus?Q?=FF?= question\r\n"
        b"Message-ID: <weird@example.com\r\n"
        b"References: garbage\r\n"
        b"X-Binary: \xff\xfe\r\n"
        b"Content-Type: text/plain; charset=x-mystery\r\n"
        b"Content-Transfer-Encoding: 8bit\r\n\r\n"
        b"O\xf9 est le fichier ?\r\n"
    )
    async with flow.running() as connector:
        await send(connector, raw)
        await wait_for(lambda: not connector.services.store.pending("email"))
    assert [c[0] for c in flow.answerer.calls] == ["Où est le fichier ?"]
    reply = flow.mails[0].message()
    assert str(reply["Subject"]).startswith("Re: été")
    assert reply["In-Reply-To"] is None
    assert reply["Auto-Submitted"] == "auto-replied"


async def test_backend_failure_asks_the_sender_to_retry_and_loses_nothing(
    flow: EmailFlow,
) -> None:
    answerer = StaticAnswerer(cited_answer(flow.manual), fail_first=1)
    raw = inbound_mail(message_id="<retry@example.com>")
    # A limit of one: the failed attempt must not use up the sender's slot.
    async with flow.running(answerer, rate_limit_per_hour=1) as connector:
        with pytest.raises(aiosmtplib.SMTPResponseException) as temporary:
            await send(connector, raw)
        assert temporary.value.code == 451
        await send(connector, raw)  # the sending server's retry
        await wait_for(lambda: not connector.services.store.pending("email"))
    assert len(answerer.calls) == 2
    assert len(flow.mails) == 1


async def test_audience_comes_from_the_sender_domain(flow: EmailFlow) -> None:
    async with flow.running(audience_by_domain={"example.com": ["public", "staff"]}) as connector:
        await connector.handle_message(inbound_mail())
        await connector.handle_message(
            inbound_mail(sender="x@outside.org", message_id="<o@outside.org>")
        )
    assert [call[1] for call in flow.answerer.calls] == [
        frozenset({"public", "staff"}),
        frozenset({"public"}),
    ]
