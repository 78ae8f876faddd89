"""A sender is counted by mailbox: a ``+tag`` or other case is the same person, for the loop
guard, ``audience_by_address`` and the rate limit (``email_folded_address``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.config import EmailSettings
from bot.connectors.email_folded_address import folded_address
from bot.connectors.email_parse import parse_mail
from bot.connectors.email_policy import MailPolicy
from bot.store import Store
from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import BOT, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

NARROWED: dict[str, Any] = {
    "audience_by_domain": {"staff.example.com": ["staff"]},
    "audience_by_address": {"contractor@staff.example.com": ["public"]},
}


def policy(**kwargs: object) -> MailPolicy:
    return MailPolicy(EmailSettings.model_validate({"address": BOT, **kwargs}), Store(":memory:"))


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("Help+Billing@Docs.Example.COM", "help@docs.example.com"),
        ("<contractor+a+b@staff.example.com>", "contractor@staff.example.com"),
        ("ann@example.com", "ann@example.com"),
        ("not an address", ""),
    ],
)
def test_an_address_is_folded_without_its_tag_and_case(address: str, key: str) -> None:
    assert folded_address(address) == key


@pytest.mark.parametrize(
    "sender",
    [
        "citecast <help+billing@docs.example.org>",
        "HELP+x@Docs.Example.ORG",
        "Help@docs.example.org",
    ],
)
def test_mail_from_the_bots_own_mailbox_is_not_answered(sender: str) -> None:
    verdict = policy().screen(parse_mail(inbound_mail(sender=sender)))
    assert BOT == "help@docs.example.org"
    assert (verdict.answer, verdict.reason) == (False, "own address")


def test_another_mailbox_of_the_bots_domain_is_answered() -> None:
    # "helpdesk" starts like "help": only the mailbox itself is the bot
    assert policy().screen(parse_mail(inbound_mail(sender="helpdesk@docs.example.org"))).answer


@pytest.mark.parametrize(
    "sender",
    [
        "contractor@staff.example.com",
        "contractor+x@staff.example.com",
        "Contractor+Staff@STAFF.example.com",
    ],
)
def test_a_tag_does_not_leave_a_narrowing_audience_entry(sender: str) -> None:
    assert policy(**NARROWED).audience_for(sender) == frozenset({"public"})
    assert policy(**NARROWED).audience_for("colleague+x@staff.example.com") == {"staff"}


def test_two_entries_for_one_mailbox_grant_only_what_both_grant() -> None:
    entries = {"anna@example.com": ["staff", "public"], "Anna+Docs@example.com": ["public"]}
    mailpolicy = policy(audience_by_address=entries)
    assert mailpolicy.audience_for("anna@example.com") == frozenset({"public"})
    assert mailpolicy.audience_for("anna+docs@example.com") == frozenset({"public"})


def test_a_tag_does_not_start_a_fresh_hourly_count() -> None:
    mailpolicy = policy(rate_limit_per_hour=2)
    assert mailpolicy.take_rate_slot("ann@example.com")
    assert mailpolicy.take_rate_slot("ann+1@example.com")
    assert not mailpolicy.take_rate_slot("ann+2@example.com")
    mailpolicy.release_rate_slot("Ann+3@example.com")  # gives back the mailbox's newest slot
    assert mailpolicy.take_rate_slot("ann@example.com")


@pytest.mark.parametrize(
    "sender", ["contractor@staff.example.com", "contractor+x@staff.example.com"]
)
async def test_a_tagged_sender_is_answered_for_the_narrowed_audience(
    flow: EmailFlow, sender: str
) -> None:
    async with flow.running(**NARROWED) as connector:
        raw = inbound_mail(sender=f"Con <{sender}>", message_id="<p1@staff.example.com>")
        await send(connector, raw, sender=sender)
        await wait_for(lambda: len(flow.mails) == 1)
    assert flow.answerer.calls[0][1] == frozenset({"public"})
