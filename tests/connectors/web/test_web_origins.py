"""The pieces of the web channel that need no WebConnector, in their own modules: the site
check (bot.connectors.web_origins), the links' base address (web_proxy.request_base_url) and
the deployment's file signer (web_roots.build_signer)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request

from bot.connectors.web_origins import SiteCheck
from bot.connectors.web_proxy import STATE_KEY, request_base_url
from bot.connectors.web_roots import LiveRootsSigner, build_signer
from tests.connectors.web.conftest import make_settings

LOGGER = "bot.connectors.web"


def request(*headers: tuple[str, str], state: dict[str, Any] | None = None) -> Request:
    scope: dict[str, Any] = {
        "type": "http",
        "method": "GET",
        "scheme": "http",
        "server": ("testserver", 80),
        "path": "/api/ask",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver")]
        + [(name.encode(), value.encode()) for name, value in headers],
    }
    if state is not None:
        scope["state"] = state
    return Request(scope)


def test_the_sites_that_may_use_the_api(tmp_path: Path) -> None:
    web = make_settings(
        tmp_path, cors_origins=["https://ok.example"], public_base_url="https://docs.example/help"
    ).web
    sites = SiteCheck(web)
    for origin in ("http://testserver", "https://ok.example", "https://docs.example"):
        assert sites.allowed(request(("origin", origin)))
    assert not sites.allowed(request(("origin", "https://shop.example")))
    # no Origin: a no-cors request from another site still says where it came from
    assert sites.allowed(request())
    assert not sites.allowed(request(("sec-fetch-site", "cross-site")))
    assert sites.allowed(request(("sec-fetch-site", "same-origin")))


def test_a_refused_site_is_logged_once_under_the_web_channel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    sites = SiteCheck(make_settings(tmp_path).web)
    for _ in range(3):
        assert not sites.allowed(request(("origin", "https://shop.example")))
    logged = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert logged == [
        "refused a request from the site 'https://shop.example': if it embeds the widget, add "
        "it to web.cors_origins"
    ]


def test_at_most_a_hundred_refused_sites_are_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    sites = SiteCheck(make_settings(tmp_path).web)
    for n in range(150):
        assert not sites.allowed(request(("origin", f"https://site{n}.example")))
    assert len([r for r in caplog.records if r.name == LOGGER]) == 100


def test_links_point_back_to_the_address_and_prefix_of_the_request() -> None:
    assert request_base_url(request()) == "http://testserver"
    assert request_base_url(request(state={STATE_KEY: "/help"})) == "http://testserver/help"


def test_the_file_signer_of_a_deployment(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, public_base_url="https://docs.example", file_token_ttl=600)
    signer = build_signer(settings, "http://testserver")
    assert isinstance(signer, LiveRootsSigner)
    assert (signer.base_url, signer.ttl) == ("https://docs.example", 600)
    assert build_signer(make_settings(tmp_path), "http://testserver/").base_url == (
        "http://testserver"
    )
