"""A mail that asks in words and carries files is answered with a note that the files were not
read (over real SMTP); a picture the HTML shows inline is no file, and gets no note."""

from __future__ import annotations

from email.message import EmailMessage
from typing import cast

from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

HEAD = b"From: Ann Example <ann@example.com>\r\nTo: help@docs.example.org\r\nMIME-Version: 1.0\r\n"
NOT_READ = "I cannot read attachments, so this answer is from the knowledge base only."
LOG_QUESTION = (
    HEAD + b"Subject: Upload error\r\nMessage-ID: <log@example.com>\r\n"
    b'Content-Type: multipart/mixed; boundary="m"\r\n\r\n'
    b"--m\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    b"What does this log mean?\r\n"
    b"--m\r\nContent-Type: text/plain; charset=utf-8; name=upload.log\r\n"
    b"Content-Disposition: attachment; filename=upload.log\r\n\r\n"
    b"ERROR 413 request entity too large\r\n--m--\r\n"
)
INLINE_PICTURE = (
    HEAD + b"Subject: Install\r\nMessage-ID: <inline@example.com>\r\n"
    b'Content-Type: multipart/related; boundary="r"\r\n\r\n'
    b"--r\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
    b'<p>How do I install it?</p><p><img src="cid:logo@example.com"></p>\r\n'
    b"--r\r\nContent-Type: image/png; name=logo.png\r\nContent-ID: <logo@example.com>\r\n"
    b"Content-Disposition: inline; filename=logo.png\r\n"
    b"Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--r--\r\n"
)


def reply_to(flow: EmailFlow, message_id: str) -> EmailMessage:
    return next(m.message() for m in flow.mails if m.message()["In-Reply-To"] == message_id)


def text_of(msg: EmailMessage, kind: str) -> str:
    part = msg.get_body((kind,))
    assert part is not None
    return str(cast(EmailMessage, part).get_content()).replace("\r\n", "\n")


async def test_a_question_with_a_file_is_told_once_the_file_was_not_read(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, LOG_QUESTION)
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == ["What does this log mean?"]
    reply = reply_to(flow, "<log@example.com>")
    text = text_of(reply, "plain")
    assert text.startswith(NOT_READ + "\n\n") and text.count(NOT_READ) == 1
    html = text_of(reply, "html")
    assert html.count(NOT_READ) == 1
    # the answer and its references are as they are without the file
    assert "Install it with" in text and "[3] Admin manual (attached: admin manual.pdf)" in text
    assert [p.get_filename() for p in reply.iter_attachments()] == ["admin manual.pdf"]


async def test_a_picture_shown_inline_is_no_file_and_gets_no_note(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, INLINE_PICTURE)
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == ["How do I install it?"]
    reply = reply_to(flow, "<inline@example.com>")
    assert "attachments" not in text_of(reply, "plain") + text_of(reply, "html")
