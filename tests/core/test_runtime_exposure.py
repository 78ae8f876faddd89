"""``citecast serve`` warns at start when the web channel listens beyond this machine."""

from __future__ import annotations

from typing import Any

import pytest

from bot.commands.serve_warnings import exposure_warnings
from bot.config import Settings


def settings(**web: Any) -> Settings:
    return Settings.model_validate({"web": web})


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_loopback_needs_no_warning(host: str) -> None:
    assert exposure_warnings(settings(audience=["staff"]), host) == []


def test_a_private_audience_on_every_interface_is_named() -> None:
    warnings = exposure_warnings(settings(audience=["public", "staff", "hr"]), "0.0.0.0")
    assert warnings[0] == (
        "web.audience gives every web visitor the groups staff, hr and 0.0.0.0 is not a "
        "loopback address: anyone who reaches this port reads sources meant for them; put an "
        "authenticating proxy in front or serve on 127.0.0.1"
    )


def test_an_ip_address_without_allowed_hosts_says_host_names_are_refused() -> None:
    assert exposure_warnings(settings(), "0.0.0.0") == [
        "listening on 0.0.0.0: requests that name this server by a host name rather than an IP "
        "address are refused until web.allowed_hosts (or web.public_base_url) names it"
    ]


@pytest.mark.parametrize(
    "web",
    [{"allowed_hosts": ["ask.example.com"]}, {"public_base_url": "https://ask.example.com"}],
    ids=["allowed_hosts", "public_base_url"],
)
def test_a_public_deployment_that_names_its_host_is_quiet(web: dict[str, Any]) -> None:
    assert exposure_warnings(settings(**web), "::") == []


def test_a_host_name_bind_is_answered_by_name() -> None:
    assert exposure_warnings(settings(), "citecast.internal") == []
