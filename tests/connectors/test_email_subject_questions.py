"""A question written only in the Subject, above a body of "Hi," and "Thanks, Anna": the subject
is asked (without its "Re:"/"Fwd:"/"AW:"/"SV:" prefixes), over real SMTP; a body that asks
something is still the question."""

from __future__ import annotations

from email.message import EmailMessage
from typing import cast

import pytest

from bot.connectors.email_parse import parse_mail
from bot.connectors.email_subject import only_pleasantries, subject_question
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

SUBJECT_ONLY = [
    ("Hi,\n\nThanks,\nAnna", "How do I rotate the API key?", "How do I rotate the API key?"),
    ("Hello team", "Re: Where are the upload logs?", "Where are the upload logs?"),
    ("-- \nAnna Example\nSupport lead", "AW: Wie groß darf ein Upload sein?",
     "Wie groß darf ein Upload sein?"),
    ("Hej!\n\nMed vänlig hälsning\nAnna", "SV: Fwd: Is SSO supported?", "Is SSO supported?"),
    ("Hallo,\n\nsiehe Betreff.\n\nViele Grüße\nAnna", "Proxy settings for the CLI",
     "Proxy settings for the CLI"),
    ("Dear support team,\n\nBest regards,\nAnna Example\nAcme Corp\n+1 555 0100\nann@example.com",
     "Can I export citations as BibTeX?", "Can I export citations as BibTeX?"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "subject", "asked"), SUBJECT_ONLY)
async def test_a_greeting_only_body_asks_the_subject_over_smtp(
    flow: EmailFlow, body: str, subject: str, asked: str
) -> None:
    async with flow.running() as connector:
        await send(connector, inbound_mail(body, subject=subject))
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == [asked]
    reply = flow.mails[0].message()
    assert reply["Subject"].startswith("Re: ") and reply["Subject"].endswith(asked)
    text = reply.get_body(("plain",))
    assert text is not None
    assert "pip install citecast" in str(cast(EmailMessage, text).get_content())


async def test_an_html_only_mail_with_a_greeting_asks_the_subject(flow: EmailFlow) -> None:
    raw = (
        b"From: Ann Example <ann@example.com>\r\nTo: help@docs.example.org\r\n"
        b"Subject: Re: Does the API support pagination?\r\nMessage-ID: <html-hi@example.com>\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b"<div>Hi,</div><div><br></div><div>Thanks,<br>Anna</div>"
        b'<div class="gmail_signature">Anna Example | Acme</div>\r\n'
    )
    async with flow.running() as connector:
        await send(connector, raw)
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == ["Does the API support pagination?"]


async def test_a_body_that_asks_something_is_still_the_question(flow: EmailFlow) -> None:
    body = "Hi,\n\nthe installer stops at 80% on ARM.\n\nThanks,\nAnna"
    async with flow.running() as connector:
        await send(connector, inbound_mail(body, subject="Installer"))
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == [body]


def test_a_thank_you_in_a_thread_is_not_taken_for_the_subject() -> None:
    # a reply's subject is the thread's question, answered already: never asked again
    by_headers = inbound_mail(
        "Thanks,\nAnna", subject="Re: How do I rotate the API key?",
        headers={"In-Reply-To": "<cc-0123456789abcdef.aa@docs.example.org>"},
    )  # fmt: skip
    assert parse_mail(by_headers).question == "Thanks,\nAnna"
    by_quote = inbound_mail(
        "Thanks!\n\nOn Mon, 30 Nov 2026 at 9:00, citecast wrote:\n> Rotate it in Settings.\n",
        subject="Re: How do I rotate the API key?",
    )
    assert parse_mail(by_quote).question == "Thanks!"


@pytest.mark.parametrize(
    "body",
    [
        "How do I install?",
        "Hi, how do I install it",
        "Hello, pricing?",
        "Best way to install on ARM",
        "Thanks, but the installer still fails",
        "Thanks,\nAnna\n\nP.S. the installer crashes on ARM",
        "Thanks,\nanna\nwhere is the log",
        "Hi,\n\nQuick question: is SSO supported\n\nThanks",
        "Install",
    ],
)
def test_content_is_never_taken_for_a_greeting_or_sign_off(body: str) -> None:
    assert not only_pleasantries(body, "Anna Example")
    assert parse_mail(inbound_mail(body, subject="Something else")).question == body


def test_subject_prefixes_are_removed_and_nothing_else() -> None:
    assert subject_question("Re: AW: Fwd: SV: FW: Re[2]: Is SSO supported?") == (
        "Is SSO supported?"
    )
    assert subject_question("Reset: password") == "Reset: password"
    assert subject_question("Re:") == ""
