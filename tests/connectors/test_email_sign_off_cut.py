"""A signature block or a legal disclaimer below a closing is not part of the question.

Found by QA (emailqa): only a signature after the "-- " delimiter was cut, so the name, title,
company, phone number and disclaimer that clients write straight below "Regards," were asked
too, and their words named records: "Customer Support … 24/7 hotline" brought the priority
support record, "Senior Business Analyst, Enterprise Applications" the Business and Enterprise
plans, and "… secure or error-free …" in a disclaimer the free plan, all counted as cited. A
"Thanks a lot!" reply with such a disclaimer was answered instead of left alone.
"""

from __future__ import annotations

import pytest

from bot.config import EmailSettings
from bot.connectors.email_parse import parse_mail
from bot.connectors.email_policy import MailPolicy
from bot.connectors.email_signature import is_disclaimer, without_sign_off
from bot.connectors.email_text import html_to_new_text, strip_quoted_text
from bot.store import Store
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import BOT, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

QUESTION = "How long does the zephyrine server keep mail?"
DISCLAIMER = (
    "DISCLAIMER: This e-mail and any attachments are confidential and intended solely for the"
    " addressee. E-mail transmission cannot be guaranteed to be secure or error-free as"
    " information could be intercepted, corrupted, lost, destroyed, arrive late or incomplete,"
    " or contain viruses."
)
DISCLAIMED = (
    f"Hello,\n\n{QUESTION}\n\nBest regards,\nTom Miller\n"
    f"Senior IT Administrator | Contoso Ltd.\n\n{DISCLAIMER}\n"
)
TITLED = (
    f"Hello,\n\n{QUESTION}\n\nKind regards,\nKim Lee\n"
    "Senior Business Analyst, Enterprise Applications\nContoso Ltd.\n"
)


async def test_a_legal_disclaimer_below_the_sign_off_is_not_asked(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, inbound_mail(DISCLAIMED, subject="Mail retention"))
        await wait_for(lambda: len(flow.mails) == 1)
    (question,) = [call[0] for call in flow.answerer.calls]
    assert question == f"Hello,\n\n{QUESTION}\n\nBest regards,"


async def test_signature_lines_below_a_closing_are_not_asked(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await send(connector, inbound_mail(TITLED, subject="Mail retention"))
        await wait_for(lambda: len(flow.mails) == 1)
    (question,) = [call[0] for call in flow.answerer.calls]
    assert question == f"Hello,\n\n{QUESTION}\n\nKind regards,"


def test_a_phone_line_below_the_closing_is_part_of_the_signature() -> None:
    # sig1.eml: "hotline:" in lower case made the whole block a question
    body = (
        f"Hi,\n\n{QUESTION.lower()}\n\nRegards,\nAnn Example\nCustomer Support | ACME Corp\n"
        "24/7 hotline: +1 555 0100\n"
    )
    assert strip_quoted_text(body) == f"Hi,\n\n{QUESTION.lower()}\n\nRegards,"


def test_a_disclaimer_at_the_end_without_a_closing_is_cut() -> None:
    assert strip_quoted_text(f"{QUESTION}\n\n{DISCLAIMER}\n") == QUESTION


def test_the_signature_of_an_html_mail_is_cut_too() -> None:
    html = (
        f"<p>{QUESTION}</p><p>Mit freundlichen Grüßen<br>Kim Lee<br>Enterprise Applications"
        "<br>Contoso Ltd.</p>"
    )
    assert html_to_new_text(html) == f"{QUESTION}\n\nMit freundlichen Grüßen"


@pytest.mark.parametrize(
    "body",
    [
        "Hi,\n\nBest,\nhow do I reset my password?",
        f"{QUESTION}\n\nThanks,\nAnn\n\nP.S. does it also keep attachments?",
        f"{QUESTION}\n\nThanks,\nWhat Is The Enterprise Plan Price",
        f"{QUESTION}\n\nCheers\nthe backup fails on ARM too",
        # a lone name below the closing names no record and is left as written
        f"{QUESTION}\n\nThanks,\nAnna",
    ],
)
def test_a_line_that_asks_below_a_closing_keeps_the_body(body: str) -> None:
    assert without_sign_off(body) == body


@pytest.mark.parametrize(
    "paragraph",
    [
        # the author asking about confidentiality is a question, not a disclaimer
        "Is an e-mail to the intended recipient kept confidential and checked for viruses?",
        "I need my mail to stay confidential, virus free and only go to the intended recipient",
        "This e-mail server setup is new",
    ],
)
def test_the_authors_own_words_about_confidentiality_are_no_disclaimer(paragraph: str) -> None:
    assert not is_disclaimer(paragraph)


def test_a_wrapped_confidentiality_notice_is_a_disclaimer() -> None:
    wrapped = (
        "CONFIDENTIALITY NOTICE: The information in this message is\nprivileged and intended"
        " only for the\nrecipient named above."
    )
    assert is_disclaimer(wrapped)


def test_thanks_above_a_sign_off_with_a_legal_disclaimer_is_only_thanks() -> None:
    # t1-thanks-disclaimer.eml: answered before, with the price record "error-free" named
    body = (
        "Thanks a lot!\n\nBest regards,\nTom Miller\nSenior IT Administrator | Contoso Ltd.\n\n"
        f"{DISCLAIMER}\n\n-----Original Message-----\nFrom: Docs Help <help@docs.example.org>\n"
        "Sent: Tuesday, December 1, 2026 10:00 AM\nTo: Miller, Tom <tom@contoso.example>\n"
        "Subject: Re: Mail retention\n\nOld answer.\n"
    )
    mail = parse_mail(
        inbound_mail(body, subject="RE: Mail retention", headers={"In-Reply-To": "<a@x>"})
    )
    policy = MailPolicy(EmailSettings.model_validate({"address": BOT}), Store(":memory:"))
    verdict = policy.screen(mail)
    assert (verdict.answer, verdict.reason) == (False, "only thanks")


@pytest.mark.parametrize(
    "footer", ["Sent from Yahoo Mail on Android", "Sent with Proton Mail secure email."]
)
def test_more_mobile_footers_are_cut(footer: str) -> None:
    assert strip_quoted_text(f"{QUESTION}\n\n{footer}\n") == QUESTION
