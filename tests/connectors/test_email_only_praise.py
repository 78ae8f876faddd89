"""A reply whose new text only praises, with or without thanks ("Great work.", "Thank you so
much!! Great work.", "You're the best"), is left unanswered like one that only thanks: answering
it with "I could not find anything about that in the knowledge base." helps no one. Praise with
anything else in it ("Great, but how do I …?", "Great work, but the installer fails") is asked
as before."""

from __future__ import annotations

import pytest

from bot.config import EmailSettings
from bot.connectors.email_parse import parse_mail
from bot.connectors.email_policy import MailPolicy
from bot.connectors.email_praise import is_praise, line_kind
from bot.store import Store
from tests.connectors.email_flow_harness import EmailFlow, flow
from tests.connectors.test_email_only_thanks import ignored_then_answered, reply_mail
from tests.fakes.email_world import BOT, inbound_mail

__all__ = ["flow"]

REPLY_HEADERS = {"In-Reply-To": "<cc-1.2@docs.example.org>", "References": "<q1@example.com>"}
QUOTE = "\n\nOn Mon, 3 Jun 2024, citecast <help@docs.example.org> wrote:\n> Install it with pip.\n"
SIGNED = "\n\nBest,\nAnna\nSent from my iPhone"

ONLY_PRAISE = [
    "Great work.",
    "Thank you so much!! Great work.",
    "Awesome!",
    "Perfect",
    "Brilliant, thanks",
    "That's great!",
    "Works now",
    "It works now, thank you!",
    "You're the best!",
    "You rock 🙌",
    "Well done!",
    "Really great answer, as always.",
    "That was super helpful!",
    "Great job, Anna",
    "Problem solved. Thanks again!",
]
STILL_ASKS = [
    "Great, but how do I upgrade?",
    "Great work, but the installer fails on Windows",
    "Great work on the docs. Now I need the Windows steps",
    "Perfect timing: the proxy settings are next",
    "You're the best! One more thing: does it run on ARM",
    "Works now, except the proxy",
    "Not working",
]


def policy() -> MailPolicy:
    return MailPolicy(EmailSettings.model_validate({"address": BOT}), Store(":memory:"))


@pytest.mark.parametrize("body", ONLY_PRAISE)
def test_a_reply_that_only_praises_is_not_answered(body: str) -> None:
    mail = parse_mail(
        inbound_mail(body + SIGNED + QUOTE, subject="Re: Installing", headers=REPLY_HEADERS)
    )
    verdict = policy().screen(mail)
    assert (verdict.answer, verdict.reason) == (False, "only thanks")


@pytest.mark.parametrize("body", STILL_ASKS)
def test_praise_with_anything_else_is_answered(body: str) -> None:
    mail = parse_mail(
        inbound_mail(body + SIGNED + QUOTE, subject="Re: Installing", headers=REPLY_HEADERS)
    )
    assert mail.question and not mail.only_thanks
    assert policy().screen(mail).answer


def test_praise_is_a_whole_clause() -> None:
    assert is_praise("Great work") and is_praise("you're the best")
    assert not is_praise("great work on the docs") and not is_praise("great, but")
    assert line_kind("Thank you so much!! Great work.") == "thanks"
    assert line_kind("Great work.") == "acknowledgement"
    assert line_kind("Great work?") is None
    assert line_kind("Great work " + "x" * 120) is None


async def test_a_praise_reply_gets_no_mail_and_is_logged(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    praise_body = "Thank you so much!! Great work." + SIGNED + QUOTE
    praise = reply_mail(praise_body, "<praise@example.com>", REPLY_HEADERS)
    asks = reply_mail("Great, but how do I upgrade?" + QUOTE, "<asks@example.com>", REPLY_HEADERS)
    outcome = await ignored_then_answered(flow, caplog, praise, asks)
    assert (outcome.status, outcome.reason) == ("ignored", "only thanks")
    assert "not answering <praise@example.com>: only thanks" in caplog.text
    assert [call[0] for call in flow.answerer.calls] == ["Great, but how do I upgrade?"]
