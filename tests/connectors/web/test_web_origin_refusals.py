"""A site refused by web.cors_origins is named once in the log (the visitor's browser only says
the server cannot be reached), and an entry no browser would send is refused at start."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.host_names import origin_problem
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    make_settings,
    passage,
)

LOGGER = "bot.connectors.web"


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == LOGGER and "refused a request from the site" in record.getMessage()
    ]


@pytest.mark.parametrize(
    ("origin", "advice"),
    [
        ("https://shop.example", "if it embeds the widget, add it to web.cors_origins"),
        # a file:// page or a sandboxed iframe: no web.cors_origins entry can allow 'null'
        (
            "null",
            "a page opened as a file (file://) or in a sandboxed iframe cannot use the "
            "widget; serve the page over http(s) and add its site to web.cors_origins",
        ),
    ],
)
async def test_a_refused_site_is_logged_once_with_the_key_to_set(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, origin: str, advice: str
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(tmp_path, answerer, cors_origins=["https://ok.example"])
    caplog.set_level(logging.WARNING, logger=LOGGER)
    async with client:
        for _ in range(3):
            refused = await client.get(
                "/api/ask/stream",
                params={"question": "hi"},
                headers={"origin": origin},
            )
            assert refused.status_code == 403
        allowed = await client.get(
            "/api/conversations/" + "0" * 32, headers={"origin": "https://ok.example"}
        )
        assert allowed.status_code == 404  # past the origin check
    services.store.close()
    assert refusals(caplog) == [f"refused a request from the site {origin!r}: {advice}"]
    assert answerer.calls == []


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        # copied from the address bar: a trailing slash, a capital letter; CORS compares exactly
        ("https://Shop.example/", "write 'https://shop.example'"),
        ("https://shop.example/widget", "write 'https://shop.example'"),
        ("https://shop.example:443", "write 'https://shop.example'"),  # browsers omit it
        ("shop.example", "is not an origin; write the site's scheme and host"),
        ("*", "is not an origin"),
    ],
)
def test_an_entry_no_browser_sends_fails_at_start_with_what_to_write(
    tmp_path: Path, entry: str, reason: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        make_settings(tmp_path, cors_origins=[entry])
    assert "web.cors_origins" in str(caught.value)
    assert reason in str(caught.value)


def test_origins_as_browsers_send_them_are_accepted() -> None:
    for entry in ("https://www.example.com", "http://localhost:3000", "https://[::1]:8443"):
        assert origin_problem(entry) is None, entry


async def test_requests_without_an_origin_are_not_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # an <img> on another site pointing at the API: refused, but it names no site to add
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(tmp_path, answerer)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    async with client:
        refused = await client.get(
            "/api/ask/stream", params={"question": "hi"}, headers={"sec-fetch-site": "cross-site"}
        )
        assert refused.status_code == 403
    services.store.close()
    assert refusals(caplog) == []
