"""Email end to end over real SMTP: what is read of a mail, and what the reply says about it."""

from __future__ import annotations

from email.message import EmailMessage
from typing import cast

from bot.models import Answer, Citation, Source
from tests.connectors.email_flow_harness import EmailFlow, StaticAnswerer, flow, send
from tests.connectors.html_nesting import nested
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

NOTE = "Your message was long: I read only its first 200 characters."


def bodies(msg: EmailMessage) -> tuple[str, str]:
    """The reply's text and HTML parts, with LF line ends."""
    text = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    assert text is not None and html is not None
    # line ends as the renderer wrote them (its HTML budget counts those bytes)
    plain, markup = (str(cast(EmailMessage, p).get_content()) for p in (text, html))
    return plain.replace("\r\n", "\n"), markup.replace("\r\n", "\n")


async def test_a_long_mail_gets_a_reply_that_says_only_its_start_was_read(
    flow: EmailFlow,
) -> None:
    long_body = "Why does the upload fail? " + "Here is the log: upload failed. " * 20 + "END?"
    async with flow.running(web={"max_question_chars": 200}) as connector:
        await send(connector, inbound_mail(long_body, message_id="<long@example.com>"))
        await wait_for(lambda: len(flow.mails) == 1)
        await send(connector, inbound_mail("Short question?", message_id="<short@example.com>"))
        await wait_for(lambda: len(flow.mails) == 2)
    assert [call[0] for call in flow.answerer.calls] == [long_body[:200], "Short question?"]
    text, html = bodies(flow.mails[0].message())
    # first thing in both parts, then the whole answer as usual
    assert text.startswith(NOTE + "\n\n")
    assert "Install it with `pip install citecast`[1]" in text and "\nSources\n" in text
    assert NOTE in html
    content = html.index("max-width:640px")  # the template's content column
    assert content < html.index(NOTE) < html.index("Install it with")
    nested(html)
    short_text, short_html = bodies(flow.mails[1].message())
    assert "Your message was long" not in short_text + short_html


def long_answer() -> Answer:
    guide = Source(id="guide", title="Install guide", url="https://docs.example.org/install")
    paragraphs = [f"Step {n}: " + "run the installer and check the log. " * 8 for n in range(60)]
    text = "\n\n".join(p.strip() + "[^1]" for p in paragraphs)
    return Answer(text=text, citations=(Citation(1, guide, 1),))


async def test_the_note_about_a_long_mail_fits_in_the_html_budget(flow: EmailFlow) -> None:
    # an answer whose HTML just fits the budget: the note must not push the reply over it
    answerer = StaticAnswerer(long_answer())
    async with flow.running(answerer, under="a") as first:
        await send(first, inbound_mail("Short?", message_id="<s@example.com>"))
        await wait_for(lambda: len(flow.mails) == 1)
    _, full_html = bodies(flow.mails[0].message())
    budget = len(full_html.encode()) + 40
    async with flow.running(
        answerer, under="b", web={"max_question_chars": 200}, capabilities={"max_chars": budget}
    ) as second:
        await send(second, inbound_mail("Why? " * 100, message_id="<l@example.com>"))
        await wait_for(lambda: len(flow.mails) == 2)
    text, html = bodies(flow.mails[1].message())
    assert text.startswith(NOTE) and NOTE in html
    assert len(html.encode()) < budget
    assert "This answer was shortened to fit in an email" in html
    nested(html)


async def test_flowed_mail_over_smtp_asks_the_decoded_question(flow: EmailFlow) -> None:
    raw = (
        b"From: Ann Example <ann@example.com>\r\nTo: help@docs.example.org\r\n"
        b"Subject: Uploads\r\nMessage-ID: <flow@example.com>\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n"
        b"Content-Transfer-Encoding: 7bit\r\n\r\n"
        b"Uploads larger than 2 GB fail with:\r\n > 2 GB not allowed\r\n"
        b"What is the li \r\nmit?\r\n\r\nSent from my iPhone\r\n"
    )
    async with flow.running() as connector:
        await send(connector, raw)
        await wait_for(lambda: len(flow.mails) == 1)
    # soft breaks joined (DelSp: inside a word), the stuffed "> 2 GB" kept, the footer gone
    assert flow.answerer.calls[0][0] == (
        "Uploads larger than 2 GB fail with:\n> 2 GB not allowed\nWhat is the limit?"
    )
