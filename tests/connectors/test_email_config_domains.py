"""A domain entry no sender can ever match (``allowed_domains``, ``audience_by_domain``) stops
the config from loading with one line and a hint, instead of starting and allowing no one."""

from __future__ import annotations

from typing import Any

import pytest

from bot.config_file import parse_settings
from bot.errors import ConfigError
from tests.fakes.email_world import BOT


def refusal(**email: Any) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_settings({"email": {"address": BOT, **email}})
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("@staff.example.com", "'@staff.example.com' is not a domain; write it without the '@': "
         "'staff.example.com'"),
        ("staff.example.com.", "'staff.example.com.' ends in a dot, which no sender's address "
         "does; write 'staff.example.com'"),
        ("ann@staff.example.com", "'ann@staff.example.com' is an address, not a domain; write its"
         " domain, 'staff.example.com' (which allows every address there)"),
        ("*.example.com", "'*.example.com' is not a domain; subdomains of a listed domain are "
         "included, so write 'example.com'"),
        ("  ", "'  ' is no domain and matches no sender; remove it"),
    ],
)  # fmt: skip
def test_an_allowed_domain_that_never_matches_is_refused(entry: str, said: str) -> None:
    assert refusal(allowed_domains=["example.org", entry]).endswith(
        f"email.allowed_domains: {said}"
    )


def test_an_address_as_an_audience_domain_points_at_audience_by_address() -> None:
    message = refusal(audience_by_domain={"ann@staff.example.com": ["staff"]})
    assert message.endswith(
        "email.audience_by_domain: 'ann@staff.example.com' is an address, not a domain; write"
        " its domain, 'staff.example.com' (an address goes under email.audience_by_address)"
    )


def test_domains_as_they_match_load() -> None:
    settings = parse_settings(
        {
            "email": {
                "address": BOT,
                "allowed_domains": ["example.com", ".Partner.Example.NET", " corp.example "],
                "audience_by_domain": {"staff.example.com": ["staff"]},
            }
        }
    ).email
    assert settings.allowed_domains == ["example.com", ".Partner.Example.NET", " corp.example "]
    assert settings.audience_by_domain == {"staff.example.com": ["staff"]}
