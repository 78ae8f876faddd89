"""Mail on which the bot is only copied (Cc) gets a reply only when it asks something the
knowledge base answers: a reply-all between people is not answered with "not found"."""

from __future__ import annotations

import aiosmtplib
import pytest

from bot.connectors.email import COPIED_NO_QUESTION, COPIED_NOTHING_FOUND
from bot.connectors.email_copied import asks_something, copied_only
from bot.connectors.email_parse import parse_mail
from bot.models import Answer
from tests.connectors.email_flow_harness import EmailFlow, StaticAnswerer, flow, send
from tests.fakes.email_world import BOT, USER, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

BOB = "Bob Builder <bob@example.com>"
# the QA pass's mail: Alice tells Bob what she will do, replying all on a thread the bot answered
REPLY_ALL = (
    "Bob, I'll set this up on the build server tomorrow morning and let you know.\n\n"
    "Ann\n\n"
    "On Tue, Dec 1, 2026 at 8:19 PM citecast <help@docs.example.org> wrote:\n"
    "> citecast needs Python version 3.11 or newer [1].\n"
)
IN_THREAD = {"In-Reply-To": "<cc-6382409d5cd6da7b277bf508.ccfd06fb08e04090@docs.example.org>"}
NOT_FOUND = Answer(text="I could not find anything about that in the knowledge base.")


def copied(body: str, message_id: str) -> bytes:
    return inbound_mail(
        body, subject="Re: Installing on Linux", message_id=message_id, to=BOB, cc=BOT,
        headers=IN_THREAD,
    )  # fmt: skip


async def test_a_reply_all_that_only_copies_the_bot_and_asks_nothing_gets_no_reply(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    raw = copied(REPLY_ALL, "<c1@example.com>")
    caplog.set_level("INFO", logger="bot.connectors.email")
    async with flow.running() as connector:
        await send(connector, raw)  # RCPT TO the bot, as a Cc is delivered
        outcome = await connector.handle_message(raw, None, (BOT,))
        store = connector.services.store
    # before, it was answered: "I could not find anything about that in the knowledge base."
    assert (outcome.status, outcome.reason) == ("ignored", COPIED_NO_QUESTION)
    assert flow.answerer.calls == [] and flow.mails == [] and store.pending("email") == []
    assert "email: not answering <c1@example.com>: copied (Cc), and it asks nothing" in (
        caplog.text
    )


async def test_a_real_question_that_copies_the_bot_is_answered_from_the_knowledge_base(
    flow: EmailFlow,
) -> None:
    raw = copied("Does it need a database server?", "<c2@example.com>")
    async with flow.running() as connector:
        await send(connector, raw)
        await wait_for(lambda: len(flow.mails) == 1)
    assert [call[0] for call in flow.answerer.calls] == ["Does it need a database server?"]
    reply = flow.mails[0]
    assert reply.rcpt_tos == (USER,)
    assert reply.message()["In-Reply-To"] == "<c2@example.com>"


async def test_a_copied_question_the_knowledge_base_has_nothing_on_gets_no_reply(
    flow: EmailFlow,
) -> None:
    raw = copied("Bob, which build server do we use?", "<c3@example.com>")
    async with flow.running(StaticAnswerer(NOT_FOUND), rate_limit_per_hour=1) as connector:
        outcome = await connector.handle_message(raw, None, (BOT,))
        # nothing was sent, so nothing counted against the sender's hour
        asked = inbound_mail("How do I install it?", message_id="<c4@example.com>")
        await send(connector, asked)
        await wait_for(lambda: len(flow.mails) == 1)
    assert (outcome.status, outcome.reason) == ("ignored", COPIED_NOTHING_FOUND)
    assert flow.mails[0].message()["In-Reply-To"] == "<c4@example.com>"


async def test_mail_written_to_the_bot_or_sent_to_it_unseen_is_answered_as_before(
    flow: EmailFlow,
) -> None:
    statement = "I'll set this up on the build server tomorrow."
    written_to = inbound_mail(statement, message_id="<to@example.com>", to=f"{BOB}, {BOT}", cc=BOB)
    # Bcc: named in no header, the envelope's RCPT TO is the bot's (so is an IMAP mailbox's)
    hidden = inbound_mail(statement, message_id="<bcc@example.com>", to=BOB)
    async with flow.running(StaticAnswerer(NOT_FOUND)) as connector:
        await send(connector, written_to)
        await send(connector, hidden)
        await wait_for(lambda: len(flow.mails) == 2)
        over_imap = await connector.handle_message(
            inbound_mail(statement, message_id="<imap@example.com>", to=BOB)
        )
    assert sorted(mail.message()["In-Reply-To"] for mail in flow.mails) == [
        "<bcc@example.com>",
        "<to@example.com>",
    ]
    assert over_imap.status == "answered"


async def test_the_address_a_relay_delivered_to_counts_as_the_bots(flow: EmailFlow) -> None:
    # accept_any_recipient: the relay hands over support@, which the thread has in Cc
    alias = "support@docs.example.org"
    raw = inbound_mail(REPLY_ALL, message_id="<alias@example.com>", to=BOB, cc=alias)
    async with flow.running(accept_any_recipient=True) as connector:
        port = connector.listen_port
        await aiosmtplib.send(raw, sender=USER, recipients=[alias], hostname="127.0.0.1", port=port)
        outcome = await connector.handle_message(raw, None, (alias,))
    assert (outcome.status, outcome.reason) == ("ignored", COPIED_NO_QUESTION)
    assert flow.answerer.calls == [] and flow.mails == []


def test_copied_only_reads_to_and_cc_folded_and_without_a_tag() -> None:
    def mail(to: str, cc: str | None) -> bytes:
        return inbound_mail("Hi", to=to, cc=cc)

    assert copied_only(parse_mail(mail(BOB, "Help+Billing@Docs.Example.ORG")), BOT)
    assert not copied_only(parse_mail(mail(f"{BOB}, HELP@docs.example.org", BOT)), BOT)
    assert not copied_only(parse_mail(mail(BOB, None)), BOT)  # Bcc, alias or forward
    assert not copied_only(parse_mail(mail(BOB, "carol@example.com")), BOT)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Does it need a database server?", True),
        ("Bob, does it need a database server", True),
        ("Quick one. How do I rotate the logs\nAnn", True),
        ("¿Funciona en Windows", True),  # the opening mark asks
        ("¿Funciona en Windows?", True),
        ("Wie groß darf ein Upload sein", True),
        (REPLY_ALL.split("\n\nOn ")[0], False),
        ("Will do, thanks!\nAnn", False),
        ("Have a good weekend, all.", False),
        ("I checked the guide: it works now.", False),
    ],
)
def test_asks_something(text: str, asks: bool) -> None:
    assert asks_something(text) is asks
