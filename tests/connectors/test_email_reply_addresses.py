"""The reply's addresses and threading headers: the sender's address as written (only its
domain folded), and References that start at the thread's first message even when the
sender's client kept only In-Reply-To."""

from __future__ import annotations

from bot.connectors.email_parse import parse_mail
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


async def test_the_reply_keeps_the_local_parts_case(flow: EmailFlow) -> None:
    raw = inbound_mail(sender="Sue <Sue@STAFF.EXAMPLE.COM>", message_id="<sue@example.com>")
    staff = {"sue@staff.example.com": ["staff"]}
    async with flow.running(audience_by_address=staff) as connector:
        await send(connector, raw, sender="Sue@STAFF.EXAMPLE.COM")
        await wait_for(lambda: len(flow.mails) == 1)
    reply = flow.mails[0]
    # before: "sue@staff.example.com", which a server with case-sensitive mailboxes may refuse
    assert reply.rcpt_tos == ("Sue@staff.example.com",)
    assert reply.message()["To"] == "Sue <Sue@staff.example.com>"
    # compared folded all the same: the address's audience applies
    assert flow.answerer.calls[0][1] == frozenset({"staff"})


def test_the_sender_is_folded_for_comparisons_and_kept_for_the_reply() -> None:
    mail = parse_mail(inbound_mail(sender="Sue <Sue.Smith@Staff.Example.com>"))
    assert (mail.sender, mail.sender_address) == (
        "sue.smith@staff.example.com",
        "Sue.Smith@staff.example.com",
    )


async def test_references_start_at_the_root_when_the_client_kept_only_in_reply_to(
    flow: EmailFlow,
) -> None:
    first = inbound_mail("How do I install it?", message_id="<root@example.com>")
    async with flow.running() as connector:
        await send(connector, first)
        await wait_for(lambda: len(flow.mails) == 1)
        ours = flow.mails[0].message()["Message-ID"]
        # Outlook's reply to our reply: In-Reply-To only, no References
        follow_up = inbound_mail(
            "And on Windows?",
            subject="RE: Installing on Linux",
            message_id="<second@example.com>",
            headers={"In-Reply-To": ours},
        )
        await send(connector, follow_up)
        await wait_for(lambda: len(flow.mails) == 2)
    second = flow.mails[1].message()
    assert second["In-Reply-To"] == "<second@example.com>"
    # before: "<cc-…> <second@example.com>", the thread's first message lost
    assert second["References"].split() == ["<root@example.com>", ours, "<second@example.com>"]
    assert flow.mails[0].message()["References"].split() == ["<root@example.com>"]
