"""When the subject is asked, beyond a plain greeting: a fresh mail (no reply headers) whose
body only quotes an earlier mail is not answered at all, as a reply of quoted text is not; a
signature's title keeps its small lower-case words ("Head of Sales", "Jefa de Ventas y
Marketing") without turning into the question; a question mark of any script keeps a body
the question."""

from __future__ import annotations

import pytest

from bot.connectors.email_parse import parse_mail
from bot.connectors.email_subject import only_pleasantries
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

SUBJECT = "How do I rotate the API key?"

ONLY_QUOTED = [
    "> How do I rotate the API key?\n> Thanks, Anna\n",
    "On Mon, 30 Nov 2026 at 09:00, Anna Example <ann@example.com> wrote:\n"
    "> How do I rotate the API key?\n",
    "From: Anna Example <ann@example.com>\nSent: Monday, November 30, 2026 9:00 AM\n"
    "To: help@docs.example.org\nSubject: How do I rotate the API key?\n\n"
    "Hi, how do I rotate it?\n",
    "-----Original Message-----\nFrom: Anna Example <ann@example.com>\n"
    "Sent: Monday, November 30, 2026 9:00 AM\nSubject: Key rotation\n\nHow do I rotate it?\n",
]


@pytest.mark.parametrize("body", ONLY_QUOTED)
def test_a_fresh_mail_of_only_quoted_text_has_no_question(body: str) -> None:
    mail = parse_mail(inbound_mail(body, subject=SUBJECT))
    assert (mail.question, mail.subject_asked) == ("", False)


def test_an_html_mail_of_only_a_quote_has_no_question() -> None:
    raw = (
        b"From: Ann Example <ann@example.com>\r\nTo: help@docs.example.org\r\n"
        b"Subject: Rotate the key\r\nMessage-ID: <html-quote@example.com>\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b'<div><br></div><div class="gmail_quote">'
        b"<blockquote>How do I rotate the API key?</blockquote></div>\r\n"
    )
    mail = parse_mail(raw)
    assert (mail.question, mail.subject_asked) == ("", False)


@pytest.mark.parametrize("body", ["", "\n\n", "Hi,\n\nThanks,\nAnna", "-- \nAnna Example"])
def test_an_empty_or_greeting_only_fresh_mail_still_asks_its_subject(body: str) -> None:
    mail = parse_mail(inbound_mail(body, subject=f"Re: {SUBJECT}"))
    assert (mail.question, mail.subject_asked) == (SUBJECT, True)


async def test_a_fresh_mail_of_only_quoted_text_gets_no_reply_over_smtp(flow: EmailFlow) -> None:
    quoted = inbound_mail(ONLY_QUOTED[1], subject=SUBJECT, message_id="<quoted@example.com>")
    asked = inbound_mail("Where are the upload logs?", message_id="<asked@example.com>")
    async with flow.running() as connector:
        await send(connector, quoted)
        await send(connector, asked)  # answered after the quoted one was read
        await wait_for(lambda: len(flow.mails) == 1)
        outcome = await connector.handle_message(quoted)
    assert (outcome.status, outcome.reason) == ("ignored", "no question (only quoted text)")
    assert [call[0] for call in flow.answerer.calls] == ["Where are the upload logs?"]
    assert flow.mails[0].message()["In-Reply-To"] == "<asked@example.com>"


SIGNED_WITH_A_TITLE = [
    "Hi,\n\nBest regards,\nAnna Smith\nHead of Sales, ACME GmbH",
    "Hello team,\n\nThanks,\nAnna\nVP of Engineering\nExample Corp",
    "Dear support,\n\nKind regards,\nAnna Smith\nDirector of Sales and Marketing\n+1 555 0100",
    "Hallo,\n\nMit freundlichen Grüßen\nAnna Schmidt\nLeiterin der Entwicklung\n"
    "Beispiel GmbH & Co. KG",
    "Bonjour,\n\nCordialement,\nJean Dupont\nResponsable des Ventes\nSociété Générale",
    "Hola,\n\nSaludos cordiales,\nAna García\nJefa de Ventas y Marketing",
    "Buongiorno,\n\nCordiali saluti\nAnna Rossi\nDirettrice di Produzione e Logistica",
    "Hoi,\n\nMet vriendelijke groet,\nAnna van Dijk\nHoofd van Klantenservice",
    "Hej,\n\nMed vänlig hälsning\nAnna Berg\nChef för Kundtjänst",
    "Olá,\n\nAtenciosamente,\nAna da Silva\nDiretora de Vendas e Marketing",
]


@pytest.mark.parametrize("body", SIGNED_WITH_A_TITLE)
def test_a_title_with_small_lower_case_words_is_a_signature(body: str) -> None:
    assert only_pleasantries(body, "Anna Smith")
    mail = parse_mail(inbound_mail(body, subject=SUBJECT))
    assert (mail.question, mail.subject_asked) == (SUBJECT, True)


@pytest.mark.parametrize(
    "body",
    [
        "Please send the install guide",
        "Hi,\n\nplease send the install guide\n\nThanks,\nAnna",
        "Thanks,\nAnna\nPlease send the install guide",
        "Thanks,\nAnna\nSend the Guide for Windows",
        "Thanks,\nAnna\nHow to Install the Agent",
        "Thanks,\nAnna\nthe installer fails on the Mac",
        "Thanks,\nAnna\nof the Installer",
        "Thanks,\nAnna\nHead of the",
        "Thanks,\nAnna\nLogs of the Agent for the Team at the Office of the Board",
    ],
)
def test_a_sentence_or_a_request_is_never_a_title(body: str) -> None:
    assert not only_pleasantries(body, "Anna Smith")
    assert parse_mail(inbound_mail(body, subject="Something else")).question == body


@pytest.mark.parametrize(
    "body",
    [
        "Hi,\n\nOk‽\n\nThanks,\nAnna",
        "Hi,\n\nThanks⁈\nAnna",
        "Hi,\n\nThanks؟",
        "Hola,\n\n¿Gracias\nAna",
        "Hi,\n\nThanks❓",
        "Hi,\n\nThanks﹖",
    ],
)
def test_a_question_mark_of_any_script_keeps_the_body_the_question(body: str) -> None:
    assert not only_pleasantries(body, "Anna Smith")
    assert parse_mail(inbound_mail(body, subject=SUBJECT)).subject_asked is False
