"""Autoresponders that mark their replies only with ``Precedence: auto_reply`` or
``X-Precedence`` (cPanel's, among others) get no answer: answering them starts a mail loop that
only the hourly rate limit slows down."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.email import EmailConnector
from bot.connectors.email_parse import parse_mail
from tests.connectors.test_email_imap import CountingAnswerer
from tests.connectors.test_email_policy import policy
from tests.fakes.email_world import email_settings, inbound_mail, services


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ({"Precedence": "auto_reply"}, "precedence auto_reply"),
        ({"Precedence": "Auto-Reply"}, "precedence auto-reply"),
        ({"X-Precedence": "auto_reply"}, "precedence auto_reply"),
        ({"X-Precedence": "bulk"}, "precedence bulk"),
    ],
)
def test_autoresponder_precedence_is_not_answered(headers: dict[str, str], reason: str) -> None:
    verdict = policy().screen(parse_mail(inbound_mail(headers=headers)))
    assert not verdict.answer and verdict.reason == reason


def test_a_normal_precedence_is_still_answered() -> None:
    headers = {"Precedence": "normal", "X-Precedence": "normal"}
    assert policy().screen(parse_mail(inbound_mail(headers=headers))).answer


async def test_an_autoresponder_reply_to_our_answer_gets_no_answer(tmp_path: Path) -> None:
    answerer = CountingAnswerer()
    connector = EmailConnector(services(tmp_path, answerer, email_settings(25)))
    raw = inbound_mail(
        "I am out of the office until Monday.",
        subject="Re: Installing on Linux",
        message_id="<oof@example.com>",
        headers={"In-Reply-To": "<cc-0123456789abcdef.aa@docs.example.org>",
                 "X-Precedence": "auto_reply"},
    )  # fmt: skip
    outcome = await connector.handle_message(raw)
    assert outcome.status == "ignored" and outcome.reason == "precedence auto_reply"
    assert answerer.questions == []
