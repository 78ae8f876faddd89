"""Out-of-office notices and other automatic replies known only by their subject (no
``Auto-Submitted``, ``X-Autoreply`` or ``Precedence``) get no answer; a person asking about
automatic replies does."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.email import EmailConnector
from bot.connectors.email_parse import parse_mail
from tests.connectors.test_email_imap import CountingAnswerer
from tests.connectors.test_email_policy import policy
from tests.fakes.email_world import email_settings, inbound_mail, services

NOTICES = [
    "Out of Office: Installing on Linux",
    "Out of Office AutoReply: Installing on Linux",
    "Automatic reply: Re: Installing on Linux",
    "Autoreply: Installing on Linux",
    "Auto-Reply: Installing on Linux",
    "Auto Response",
    "Abwesenheitsnotiz",
    "Abwesenheitsnotiz: AW: Installation unter Linux",
    "Automatische Antwort: AW: Installation unter Linux",
    "Ich bin nicht im Büro",
    "Réponse automatique : RE: Installation sous Linux",
    "Respuesta automática: RE: Instalación en Linux",
    "Fuera de la oficina: RE: Instalación en Linux",
    "Risposta automatica: R: Installazione su Linux",
    "Automatisch antwoord: RE: Installatie op Linux",
    "[EXTERNAL] Automatic reply: Installing on Linux",
    "自动回复: Installing on Linux",
]

QUESTIONS = [
    "How do I set up an automatic reply?",
    "Automatic reply settings in the portal",
    "Autoreply not working after the upgrade",
    "Out of office",
    "Out of office rules for shared mailboxes",
    "Fuera de la oficina",
    "Question about the out of office reply",
    "Re: Automatic reply: Installing on Linux",
]


@pytest.mark.parametrize("subject", NOTICES)
def test_an_auto_reply_subject_is_not_answered(subject: str) -> None:
    mail = parse_mail(inbound_mail("I am away until Monday.", subject=subject))
    assert (mail.auto_submitted, mail.precedence, mail.autoreply_headers) == (None, None, ())
    verdict = policy().screen(mail)
    assert (verdict.answer, verdict.reason) == (False, "auto-reply subject")


@pytest.mark.parametrize("subject", QUESTIONS)
def test_a_question_about_automatic_replies_is_answered(subject: str) -> None:
    mail = parse_mail(inbound_mail("How do I turn it on for my team?", subject=subject))
    assert policy().screen(mail).answer


async def test_an_out_of_office_notice_to_our_answer_gets_no_answer(tmp_path: Path) -> None:
    answerer = CountingAnswerer()
    connector = EmailConnector(services(tmp_path, answerer, email_settings(25)))
    raw = inbound_mail(
        "Ich bin bis Montag nicht im Büro.",
        subject="=?utf-8?q?Abwesenheitsnotiz=3A_AW=3A_Installation_unter_Linux?=",
        message_id="<oof-subject@example.com>",
        headers={"In-Reply-To": "<cc-0123456789abcdef.aa@docs.example.org>"},
    )
    outcome = await connector.handle_message(raw)
    assert (outcome.status, outcome.reason) == ("ignored", "auto-reply subject")
    assert answerer.questions == [] and connector.services.store.pending("email") == []
