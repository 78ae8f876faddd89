"""Odd mail over real SMTP: every one is accepted (never a ``451`` retried for days, never lost)
and either answered sensibly or left unanswered for a reason: a bounce from MAILER-DAEMON, calendar
invitations and their answers, HTML-only mail, a file with no text, an unknown charset, an empty
body."""

from __future__ import annotations

from email.message import EmailMessage
from typing import cast

import aiosmtplib
import pytest

from bot.connectors.email_parse import parse_mail
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import BOT
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

HEAD = b"From: Ann Example <ann@example.com>\r\nTo: help@docs.example.org\r\nMIME-Version: 1.0\r\n"

BOUNCE = (
    b"From: Mail Delivery System <MAILER-DAEMON@mx.example.com>\r\n"
    b"To: help@docs.example.org\r\nSubject: Undelivered Mail Returned to Sender\r\n"
    b"Message-ID: <dsn@mx.example.com>\r\nMIME-Version: 1.0\r\n"
    b'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
    b"--b\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
    b"--b\r\nContent-Type: message/delivery-status\r\n\r\n"
    b"Reporting-MTA: dns; mx.example.com\r\n\r\nFinal-Recipient: rfc822; bob@example.net\r\n"
    b"Action: failed\r\nStatus: 5.1.1\r\n"
    b"--b\r\nContent-Type: text/rfc822-headers\r\n\r\n"
    b"From: help@docs.example.org\r\nSubject: Re: Installing\r\n--b--\r\n"
)
# Outlook sends an invitation as text, HTML and the event, all alternatives of one body
INVITE_ONLY_CALENDAR = (
    HEAD + b"Subject: Invitation: Sync @ Mon 3 Jun\r\nMessage-ID: <ics-only@example.com>\r\n"
    b"Content-Type: text/calendar; method=REQUEST; charset=utf-8\r\n\r\n"
    b"BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nSUMMARY:Sync\r\n"
    b"DESCRIPTION:How do we install it?\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)
# Google Calendar: the event inline next to text and HTML, and again as invite.ics
INVITE_GOOGLE = (
    HEAD + b"Subject: Invitation: Sync @ Mon 3 Jun 2024 10am\r\n"
    b"Message-ID: <ics-google@example.com>\r\n"
    b'Content-Type: multipart/mixed; boundary="m"\r\n\r\n'
    b'--m\r\nContent-Type: multipart/alternative; boundary="a"\r\n\r\n'
    b"--a\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    b"You have been invited to the following event.\r\n\r\nSync\r\nWhen: Mon 3 Jun 10am\r\n"
    b"--a\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>You have been invited</p>\r\n"
    b"--a\r\nContent-Type: text/calendar; charset=utf-8; method=REQUEST\r\n\r\n"
    b"BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n--a--\r\n"
    b"--m\r\nContent-Type: application/ics; name=invite.ics\r\n"
    b"Content-Disposition: attachment; filename=invite.ics\r\n\r\n"
    b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n--m--\r\n"
)
ACCEPTED = (
    HEAD + b"Subject: Accepted: Sync @ Mon 3 Jun\r\nMessage-ID: <ics-reply@example.com>\r\n"
    b'Content-Type: multipart/alternative; boundary="a"\r\n\r\n'
    b"--a\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nAnn has accepted.\r\n"
    b"--a\r\nContent-Type: text/calendar; charset=utf-8; method=REPLY\r\n\r\n"
    b"BEGIN:VCALENDAR\r\nMETHOD:REPLY\r\nEND:VCALENDAR\r\n--a--\r\n"
)
ICS_FILE_QUESTION = (
    HEAD + b"Subject: Calendar import\r\nMessage-ID: <ics-file@example.com>\r\n"
    b'Content-Type: multipart/mixed; boundary="m"\r\n\r\n'
    b"--m\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    b"Why does this file not import?\r\n"
    b"--m\r\nContent-Type: text/calendar; charset=utf-8; name=export.ics\r\n"
    b"Content-Disposition: attachment; filename=export.ics\r\n\r\n"
    b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n--m--\r\n"
)
HTML_ONLY = (
    HEAD + b"Subject: Logs\r\nMessage-ID: <html-only@example.com>\r\n"
    b"Content-Type: text/html; charset=utf-8\r\n\r\n"
    b"<html><body><p>Where are the <b>upload</b> logs?</p></body></html>\r\n"
)
FILE_ONLY = (
    HEAD + b"Subject: Why does the upload fail with this error?\r\n"
    b"Message-ID: <file-only@example.com>\r\n"
    b'Content-Type: multipart/mixed; boundary="m"\r\n\r\n'
    b"--m\r\nContent-Type: image/png; name=error.png\r\n"
    b"Content-Disposition: attachment; filename=error.png\r\n"
    b"Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--m--\r\n"
)
FILE_ONLY_NO_SUBJECT = (
    HEAD + b"Message-ID: <file-bare@example.com>\r\n"
    b'Content-Type: multipart/mixed; boundary="m"\r\n\r\n'
    b"--m\r\nContent-Type: application/pdf; name=scan.pdf\r\n"
    b"Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--m--\r\n"
)
UNKNOWN_CHARSET = (
    HEAD + b"Subject: =?x-klingon?q?Gr=F6=DFe?=\r\nMessage-ID: <charset@example.com>\r\n"
    b"Content-Type: text/plain; charset=x-klingon\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
    b"Wie gro\xdf darf ein Upload sein?\r\n"
)
EMPTY_BODY = (
    HEAD + b"Subject: Is SSO supported?\r\nMessage-ID: <empty@example.com>\r\n"
    b"Content-Type: text/plain\r\n\r\n"
)
EMPTY_BODY_NO_SUBJECT = HEAD + b"Message-ID: <empty-bare@example.com>\r\n\r\n"
NOTE = "I cannot read attachments, and your message had no other text: I answered its subject."


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(cast(EmailMessage, part).get_content()).replace("\r\n", "\n")


@pytest.mark.parametrize("raw", [INVITE_ONLY_CALENDAR, INVITE_GOOGLE, ACCEPTED])
def test_calendar_invitations_and_their_answers_are_known(raw: bytes) -> None:
    assert parse_mail(raw).calendar


def test_an_ics_file_attached_to_a_question_is_a_file() -> None:
    mail = parse_mail(ICS_FILE_QUESTION)
    assert not mail.calendar and mail.files
    assert (mail.question, mail.subject_asked) == ("Why does this file not import?", False)


async def test_odd_mail_is_accepted_and_answered_only_when_it_asks_something(
    flow: EmailFlow,
) -> None:
    unanswered = [INVITE_ONLY_CALENDAR, INVITE_GOOGLE, ACCEPTED, FILE_ONLY_NO_SUBJECT]
    unanswered.append(EMPTY_BODY_NO_SUBJECT)
    answered = [ICS_FILE_QUESTION, HTML_ONLY, FILE_ONLY, UNKNOWN_CHARSET, EMPTY_BODY]
    async with flow.running() as connector:
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=connector.listen_port)
        async with client:
            await client.mail("")  # MAIL FROM:<>, as a bounce comes
            await client.rcpt(BOT)
            response = await client.data(BOUNCE)
        for raw in unanswered + answered:
            await send(connector, raw)
        await wait_for(lambda: len(flow.mails) == len(answered))
        outcomes = [await connector.handle_message(raw) for raw in (BOUNCE, *unanswered)]
    assert response.code == 250  # accepted, not left to be retried
    assert [call[0] for call in flow.answerer.calls] == [
        "Why does this file not import?",
        "Where are the upload logs?",
        "Why does the upload fail with this error?",
        "Wie groß darf ein Upload sein?",
        "Is SSO supported?",
    ]
    assert [(o.status, o.reason) for o in outcomes] == [
        ("ignored", "system mailbox"),
        *[("ignored", "calendar invitation or response")] * 3,
        # nothing was quoted in either: the log says what there was instead
        ("ignored", "no question (only attachments, which are not read)"),
        ("ignored", "empty message"),
    ]
    replies = {m.message()["In-Reply-To"]: text_of(m.message()) for m in flow.mails}
    # the sender of a file is told it was not read; a question with a file attached gets the
    # other note (test_email_attached_files)
    assert replies["<file-only@example.com>"].startswith(NOTE + "\n\n")
    file_reply = next(m.message() for m in flow.mails if "file-only" in m.message()["In-Reply-To"])
    html = file_reply.get_body(("html",))
    assert html is not None and NOTE in str(cast(EmailMessage, html).get_content())
    assert NOTE not in replies["<ics-file@example.com>"] + replies["<empty@example.com>"]


def test_an_inline_image_is_not_a_file_and_an_attached_mail_is() -> None:
    logo = (
        HEAD + b"Subject: Is SSO supported?\r\nMessage-ID: <logo@example.com>\r\n"
        b'Content-Type: multipart/related; boundary="r"\r\n\r\n'
        b"--r\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b'<p>Hi,</p><p>Thanks,<br>Anna</p><img src="cid:logo">\r\n'
        b"--r\r\nContent-Type: image/png; name=logo.png\r\nContent-ID: <logo>\r\n"
        b"Content-Disposition: inline; filename=logo.png\r\n\r\nPNG\r\n--r--\r\n"
    )
    mail = parse_mail(logo)
    assert (mail.question, mail.subject_asked, mail.files) == ("Is SSO supported?", True, False)
    forwarded = (
        HEAD + b"Subject: FW: VPN broken\r\nMessage-ID: <fw-attached@example.com>\r\n"
        b'Content-Type: multipart/mixed; boundary="m"\r\n\r\n'
        b"--m\r\nContent-Type: text/plain\r\n\r\nHi,\r\n\r\nThanks\r\n"
        b"--m\r\nContent-Type: message/rfc822\r\n\r\n"
        b"From: bob@example.net\r\nSubject: VPN broken\r\n\r\nThe VPN drops.\r\n--m--\r\n"
    )
    mail = parse_mail(forwarded)
    assert (mail.question, mail.subject_asked, mail.files) == ("VPN broken", True, True)


def test_a_signed_mail_carries_no_file() -> None:
    signed = (
        HEAD + b"Subject: Is SSO supported?\r\nMessage-ID: <signed@example.com>\r\n"
        b'Content-Type: multipart/signed; protocol="application/pkcs7-signature"; '
        b'micalg=sha-256; boundary="s"\r\n\r\n'
        b"--s\r\nContent-Type: text/plain\r\n\r\nHi,\r\n\r\nThanks,\r\nAnna\r\n"
        b"--s\r\nContent-Type: application/pkcs7-signature; name=smime.p7s\r\n"
        b"Content-Disposition: attachment; filename=smime.p7s\r\n\r\nMIAG\r\n--s--\r\n"
    )
    mail = parse_mail(signed)
    assert (mail.question, mail.subject_asked, mail.files) == ("Is SSO supported?", True, False)
