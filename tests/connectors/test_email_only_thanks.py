"""A reply whose new text only thanks, acknowledges or signs off ("Thanks, Anna", "Got it") is
never answered: a policy verdict "only thanks", logged like other mail left unanswered. A reply
with anything to answer, and a fresh mail whose body only greets (it asks its subject), are
answered as before."""

from __future__ import annotations

import logging

import pytest

from bot.config import EmailSettings
from bot.connectors.email import Outcome
from bot.connectors.email_parse import parse_mail
from bot.connectors.email_policy import MailPolicy
from bot.connectors.email_subject import only_pleasantries, only_thanks
from bot.store import Store
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import BOT, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

REPLY_HEADERS = {"In-Reply-To": "<cc-1.2@docs.example.org>"}
QUOTE = "\n\nOn Mon, 3 Jun 2024, citecast <help@docs.example.org> wrote:\n> Install it with pip.\n"

ONLY_THANKS = [
    "Thanks, Anna",
    "Great, thank you!",
    "Got it",
    "Thanks!",
    "Thank you, that helped.",
    "Hi,\n\nperfect, that works. Thanks a lot for your help!\n\nBest regards,\nAnna Example\n"
    "Acme Corp",
    "Ok thanks\nAnn",
    "Vielen Dank!\n\nViele Grüße\nAnna",
    "Merci beaucoup, c'est parfait",
    "Cheers",
]
STILL_ASKS = [
    "Thanks! One more thing: does it run on Windows",
    "Thanks, but the install fails with error 42.",
    "Thanks. How do I upgrade?",
    "Hi Anna,\n\nsee subject",
    "Hello",
    "Got it. And the proxy settings",
]


def reply_mail(body: str, message_id: str, headers: dict[str, str]) -> bytes:
    """A reply of the asker's in the "Installing on Linux" thread."""
    return inbound_mail(
        body, subject="Re: Installing on Linux", message_id=message_id, headers=headers
    )


async def ignored_then_answered(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture, ignored: bytes, asks: bytes
) -> Outcome:
    """``ignored``'s outcome (its INFO log caught by ``caplog``), once ``asks``, sent after
    it, has been answered: the one mail the flow sends."""
    async with flow.running() as connector:
        with caplog.at_level(logging.INFO, logger="bot.connectors.email"):
            outcome = await connector.handle_message(ignored)
        await send(connector, asks)
        await wait_for(lambda: len(flow.mails) == 1)
    return outcome


def policy() -> MailPolicy:
    return MailPolicy(EmailSettings.model_validate({"address": BOT}), Store(":memory:"))


@pytest.mark.parametrize("body", ONLY_THANKS)
def test_a_reply_that_only_thanks_is_not_answered(body: str) -> None:
    for headers in (REPLY_HEADERS, {"References": "<a@x> <cc-1.2@docs.example.org>"}):
        mail = parse_mail(inbound_mail(body + QUOTE, subject="Re: Installing", headers=headers))
        verdict = policy().screen(mail)
        assert (verdict.answer, verdict.reason) == (False, "only thanks")


def test_thanks_above_a_quote_without_reply_headers_is_a_reply_too() -> None:
    # some clients drop In-Reply-To: the quoted mail below says it is a reply all the same
    mail = parse_mail(inbound_mail("Got it, thanks!" + QUOTE, subject="Re: Installing"))
    assert mail.only_thanks and not mail.is_reply
    assert policy().screen(mail).reason == "only thanks"


def test_a_fresh_mail_of_thanks_without_a_subject_is_not_marked() -> None:
    # not "only thanks" (no reply), yet nothing to answer: its subject is asked, and it has none
    mail = parse_mail(inbound_mail("Thanks!", subject=""))
    assert mail.question == "" and not mail.only_thanks
    assert mail.no_question == "no question (only a greeting and a sign-off, and no subject)"


@pytest.mark.parametrize("body", STILL_ASKS)
def test_a_reply_with_anything_else_is_answered(body: str) -> None:
    mail = parse_mail(inbound_mail(body + QUOTE, subject="Re: Installing", headers=REPLY_HEADERS))
    assert mail.question
    assert policy().screen(mail).answer


@pytest.mark.parametrize("body", ["Thanks, Anna", "Got it"])
def test_a_fresh_mail_that_only_thanks_asks_its_subject(body: str) -> None:
    mail = parse_mail(inbound_mail(body, subject="How do I rotate the API key?"))
    assert policy().screen(mail).answer
    assert mail.subject_asked and mail.question == "How do I rotate the API key?"


def test_small_talk_lines_are_pleasantries_and_a_greeting_alone_is_no_thanks() -> None:
    assert only_pleasantries("Hi,\n\nGreat, thank you!\nAnna", "Anna Example")
    assert only_thanks("Great, thank you!\n\nAnna Example\nAcme Corp", "Anna Example")
    assert not only_thanks("Hello team", "Anna Example")
    assert not only_thanks("see subject", "Anna Example")
    assert not only_thanks("", "Anna Example")


async def test_a_thanks_reply_gets_no_mail_and_is_logged(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    thanks = reply_mail("Great, thank you!\n\nAnna" + QUOTE, "<thanks@example.com>", REPLY_HEADERS)
    asks = reply_mail("Thanks! And how do I upgrade?" + QUOTE, "<asks@example.com>", REPLY_HEADERS)
    outcome = await ignored_then_answered(flow, caplog, thanks, asks)
    assert (outcome.status, outcome.reason) == ("ignored", "only thanks")
    assert "not answering <thanks@example.com>: only thanks" in caplog.text
    assert [call[0] for call in flow.answerer.calls] == ["Thanks! And how do I upgrade?"]
