"""Mail that gets no answer: newsletters, delivery or read reports (RFC 2369, RFC 3834), and
mail without a question, which is logged like the rest."""

from __future__ import annotations

import logging

import pytest

from bot.config import EmailSettings
from bot.connectors.email_parse import parse_mail
from bot.connectors.email_policy import MailPolicy
from bot.store import Store
from tests.connectors.email_flow_harness import EmailFlow, flow
from tests.fakes.email_world import BOT, inbound_mail

__all__ = ["flow"]

# A read receipt (MDN) as Outlook or Thunderbird sends it from the person's own address, with a
# normal envelope sender: only its type says that no one asked anything
READ_RECEIPT = (
    b"From: Ann Example <ann@example.com>\r\nTo: help@docs.example.org\r\n"
    b"Subject: Read: Re: Installing on Linux\r\nMessage-ID: <mdn@example.com>\r\n"
    b"MIME-Version: 1.0\r\n"
    b'Content-Type: multipart/report; report-type=disposition-notification; boundary="r"\r\n'
    b"\r\n--r\r\nContent-Type: text/plain\r\n\r\n"
    b"Your message was read on Monday, 3 June 2024 10:00.\r\n"
    b"--r\r\nContent-Type: message/disposition-notification\r\n\r\n"
    b"Final-Recipient: rfc822;ann@example.com\r\n"
    b"Disposition: manual-action/MDN-sent-manually; displayed\r\n--r--\r\n"
)

NEWSLETTER_HEADERS = (
    {"List-Unsubscribe": "<https://news.example.com/u/123>, <mailto:u@news.example.com>"},
    {"List-Unsubscribe": "<https://news.example.com/u/1>", "List-Unsubscribe-Post": "One-Click"},
    {"List-Post": "<mailto:users@lists.example.com>"},
    {"List-Help": "<mailto:users-help@lists.example.com>"},
    {"List-Archive": "<https://lists.example.com/archive/users>"},
)


def policy() -> MailPolicy:
    return MailPolicy(EmailSettings.model_validate({"address": BOT}), Store(":memory:"))


@pytest.mark.parametrize("headers", NEWSLETTER_HEADERS)
def test_newsletters_and_list_mail_without_list_id_get_no_answer(headers: dict[str, str]) -> None:
    verdict = policy().screen(parse_mail(inbound_mail(headers=headers)))
    assert (verdict.answer, verdict.reason) == (False, "mailing list")


def test_a_read_receipt_gets_no_answer() -> None:
    mail = parse_mail(READ_RECEIPT)
    assert mail.question  # its text part alone reads like a message
    assert policy().screen(mail).reason == "delivery or read report"


def test_ordinary_mail_is_still_answered() -> None:
    mail = parse_mail(inbound_mail(headers={"Content-Language": "en-US"}))
    assert (mail.list_id, mail.report) == (None, False)
    assert policy().screen(mail).answer


async def test_the_connector_answers_neither(flow: EmailFlow) -> None:
    newsletter = inbound_mail(message_id="<news@example.com>", headers=NEWSLETTER_HEADERS[0])
    async with flow.running() as connector:
        outcomes = [await connector.handle_message(raw) for raw in (newsletter, READ_RECEIPT)]
        pending = connector.services.store.pending("email")
    assert [o.status for o in outcomes] == ["ignored", "ignored"]
    assert flow.answerer.calls == [] and pending == []


async def test_a_mail_without_a_question_is_logged_like_other_unanswered_mail(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    quoted = inbound_mail(
        "On Mon, 3 Jun 2024, citecast <help@docs.example.org> wrote:\n> Install it.\n",
        message_id="<only-quote@example.com>",
        headers={"In-Reply-To": "<cc-1.2@docs.example.org>"},
    )
    async with flow.running() as connector:
        caplog.set_level(logging.INFO, logger="bot.connectors.email")
        outcome = await connector.handle_message(quoted)
    assert outcome.status == "ignored"
    assert any(
        "not answering <only-quote@example.com>" in record.getMessage() for record in caplog.records
    )
