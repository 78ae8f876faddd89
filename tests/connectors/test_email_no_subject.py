"""A fresh mail without a subject whose body is empty, or only a greeting and a sign-off, has
nothing to answer: no reply, and the log says which it was (not "only quoted text")."""

from __future__ import annotations

import pytest

from bot.connectors.email_parse import parse_mail
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

GREETING_ONLY = "no question (only a greeting and a sign-off, and no subject)"


async def test_no_subject_and_nothing_to_answer_gets_no_reply_and_says_why(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    empty = inbound_mail("", subject="", message_id="<q6@example.com>")
    greeting = inbound_mail("Hi,\n\nThanks,\nG", subject="", sender="G <g@example.com>")
    asked = inbound_mail("How do I install it?", subject="", message_id="<q7@example.com>")
    caplog.set_level("INFO", logger="bot.connectors.email")
    async with flow.running() as connector:
        for raw in (empty, greeting, asked):
            await send(connector, raw)
        await wait_for(lambda: len(flow.mails) == 1)
        outcomes = [await connector.handle_message(raw) for raw in (empty, greeting)]
    # before: the empty mail was logged as "only quoted text", and the greeting was answered
    # with "Subject: You're welcome!"
    assert [(o.status, o.reason) for o in outcomes] == [
        ("ignored", "empty message"),
        ("ignored", GREETING_ONLY),
    ]
    assert [call[0] for call in flow.answerer.calls] == ["How do I install it?"]
    assert flow.mails[0].message()["In-Reply-To"] == "<q7@example.com>"
    assert "email: not answering <q6@example.com>: empty message" in caplog.text


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("", "empty message"),
        ("Hello team,\n\nBest regards,\nGreta Example", GREETING_ONLY),
        ("-- \nGreta Example\nAcme Corp", "no question (only a signature or footer)"),
    ],
)
def test_why_a_mail_without_a_subject_asks_nothing(body: str, why: str) -> None:
    mail = parse_mail(inbound_mail(body, subject="", sender="Greta Example <g@example.com>"))
    assert (mail.question, mail.subject_asked, mail.no_question) == ("", False, why)


def test_a_subject_is_still_asked_when_the_body_only_greets() -> None:
    mail = parse_mail(inbound_mail("Hi,\n\nThanks,\nG", subject="Is SSO supported?"))
    assert (mail.question, mail.subject_asked, mail.no_question) == ("Is SSO supported?", True, "")
