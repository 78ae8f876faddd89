"""An out-of-office notice sent back with a reply prefix before it ("[EXTERNAL] AW:
Abwesenheitsnotiz") is known by its subject too: the check reads past the tags and reply
prefixes as the reply's subject does (``subject_parts``), one reading of a subject's start."""

from __future__ import annotations

import pytest

from bot.connectors.email_parse import parse_mail
from bot.connectors.email_reply_subject import reply_subject, subject_parts
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.connectors.test_email_policy import policy
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


@pytest.mark.parametrize(
    "subject",
    [
        "[EXTERNAL] AW: Abwesenheitsnotiz",
        "AW: Abwesenheitsnotiz",
        "RE: Automatic reply",
        "SV: Automatiskt svar",
        "Re: [support] Re: Autoreply.",
        "回复：自动回复",
    ],
)
def test_a_notice_behind_reply_prefixes_is_not_answered(subject: str) -> None:
    mail = parse_mail(inbound_mail("Ich bin bis Montag nicht im Büro.", subject=subject))
    verdict = policy().screen(mail)
    assert (verdict.answer, verdict.reason) == (False, "auto-reply subject")


@pytest.mark.parametrize(
    "subject",
    [
        # a person answering a notice writes its subject's words after it
        "Re: Automatic reply: Installing on Linux",
        "AW: Abwesenheitsnotiz für die Installation",
        "Re: Out of office",
        "Re: How do I set up an automatic reply?",
    ],
)
def test_a_reply_about_automatic_replies_is_answered(subject: str) -> None:
    mail = parse_mail(inbound_mail("When are you back?", subject=subject))
    assert policy().screen(mail).answer


def test_the_reply_subject_and_the_check_read_the_start_alike() -> None:
    assert subject_parts("[EXTERNAL] AW: Abwesenheitsnotiz") == (
        ("[EXTERNAL]",),
        "Abwesenheitsnotiz",
    )
    assert subject_parts("Re: [support] RE: [support] Installing") == (
        ("[support]",),
        "Installing",
    )
    assert reply_subject("[EXTERNAL] AW: Abwesenheitsnotiz") == "Re: [EXTERNAL] Abwesenheitsnotiz"


async def test_the_notice_gets_no_reply_over_smtp(flow: EmailFlow) -> None:
    notice = inbound_mail(
        "Ich bin bis Montag nicht im Büro.",
        subject="[EXTERNAL] AW: Abwesenheitsnotiz",
        message_id="<oof@example.com>",
    )
    asked = inbound_mail("How do I install it?", message_id="<asked@example.com>")
    async with flow.running() as connector:
        await send(connector, notice)
        await send(connector, asked)
        await wait_for(lambda: len(flow.mails) == 1)
        outcome = await connector.handle_message(notice)
    assert (outcome.status, outcome.reason) == ("ignored", "auto-reply subject")
    assert [call[0] for call in flow.answerer.calls] == ["How do I install it?"]
