"""Loop and abuse prevention, allow-list, rate limit and audience mapping."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import EmailSettings
from bot.connectors.email_parse import parse_mail
from bot.connectors.email_policy import MailPolicy
from bot.store import Store
from tests.fakes.email_world import BOT, inbound_mail


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def policy(**kwargs: object) -> MailPolicy:
    return MailPolicy(EmailSettings.model_validate({"address": BOT, **kwargs}), Store(":memory:"))


def test_a_normal_question_is_answered() -> None:
    verdict = policy().screen(parse_mail(inbound_mail()))
    assert verdict.answer and verdict.reason == "ok"


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ({"Auto-Submitted": "auto-replied"}, "auto-submitted"),
        ({"Auto-Submitted": "auto-generated; owner-email=x@y.z"}, "auto-submitted"),
        ({"Precedence": "bulk"}, "precedence bulk"),
        ({"Precedence": "junk"}, "precedence junk"),
        ({"Precedence": "list"}, "precedence list"),
        ({"List-Id": "Users <users.lists.example.com>"}, "mailing list"),
        ({"X-Autoreply": "yes"}, "auto-reply header x-autoreply"),
        ({"X-Auto-Response-Suppress": "All"}, "auto-reply header x-auto-response-suppress"),
        ({"Return-Path": "<>"}, "null return path (bounce)"),
    ],
)
def test_robot_mail_is_never_answered(headers: dict[str, str], reason: str) -> None:
    verdict = policy().screen(parse_mail(inbound_mail(headers=headers)))
    assert not verdict.answer
    assert verdict.reason == reason


def test_auto_submitted_no_is_a_person() -> None:
    mail = parse_mail(inbound_mail(headers={"Auto-Submitted": "no"}))
    assert policy().screen(mail).answer


@pytest.mark.parametrize(
    ("sender", "reason"),
    [
        (f"Bot <{BOT.upper()}>", "own address"),
        ("MAILER-DAEMON@example.com", "system mailbox"),
        ("no-reply@example.com", "system mailbox"),
        ("noreply+abc123@example.com", "system mailbox"),
        ("bounces+9876@mail.example.com", "system mailbox"),
        ("users-request@lists.example.com", "system mailbox"),
        ("not-an-address", "no valid sender"),
    ],
)
def test_own_system_and_invalid_senders(sender: str, reason: str) -> None:
    verdict = policy().screen(parse_mail(inbound_mail(sender=sender)))
    assert (verdict.answer, verdict.reason) == (False, reason)


def test_null_envelope_sender_is_a_bounce() -> None:
    mail = parse_mail(inbound_mail())
    assert not policy().screen(mail, envelope_sender="").answer
    assert policy().screen(mail, envelope_sender="ann@example.com").answer


def test_allow_list_admits_listed_domains_and_their_subdomains() -> None:
    p = policy(allowed_domains=["example.com"])
    assert p.screen(parse_mail(inbound_mail(sender="a@example.com"))).answer
    assert p.screen(parse_mail(inbound_mail(sender="a@mail.example.com"))).answer
    refused = p.screen(parse_mail(inbound_mail(sender="a@badexample.com")))
    assert (refused.answer, refused.reason) == (False, "sender domain not allowed")


def test_rate_limit_is_per_sender_and_slides() -> None:
    clock = Clock()
    settings = EmailSettings(address=BOT, rate_limit_per_hour=2)
    p = MailPolicy(settings, Store(":memory:"), clock=clock)
    assert p.take_rate_slot("a@example.com")
    assert p.take_rate_slot("a@example.com")
    assert not p.take_rate_slot("a@example.com")
    assert p.take_rate_slot("b@example.com")
    clock.now += 3601
    assert p.take_rate_slot("a@example.com")
    assert p.take_rate_slot("a@example.com")
    assert not p.take_rate_slot("a@example.com")
    p.release_rate_slot("a@example.com")
    assert p.take_rate_slot("a@example.com")


def test_rate_limit_survives_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    settings = EmailSettings(address=BOT, rate_limit_per_hour=2)
    store = Store(tmp_path / "citecast.db")
    first = MailPolicy(settings, store, clock=clock)
    assert first.take_rate_slot("a@example.com") and first.take_rate_slot("a@example.com")
    store.close()
    clock.now += 1800
    restarted = MailPolicy(settings, Store(tmp_path / "citecast.db"), clock=clock)
    assert not restarted.take_rate_slot("a@example.com")  # the hour is not over
    clock.now += 1801
    assert restarted.take_rate_slot("a@example.com")


def test_audience_by_address_then_domain_then_default() -> None:
    p = policy(
        default_audience=["public"],
        audience_by_domain={"example.com": ["public", "staff"]},
        audience_by_address={"boss@example.com": ["public", "staff", "board"]},
    )
    assert p.audience_for("boss@example.com") == {"public", "staff", "board"}
    assert p.audience_for("ann@example.com") == {"public", "staff"}
    assert p.audience_for("ann@eu.example.com") == {"public", "staff"}
    assert p.audience_for("x@other.org") == {"public"}
