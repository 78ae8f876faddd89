"""A site refused by web.cors_origins is named once in the log, with what to write: the
visitor's browser only says the server cannot be reached."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage

LOGGER = "bot.connectors.web"


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == LOGGER and "refused a request from the site" in record.getMessage()
    ]


async def test_a_refused_site_is_logged_once_with_the_key_to_set(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(tmp_path, answerer, cors_origins=["https://ok.example"])
    caplog.set_level(logging.WARNING, logger=LOGGER)
    async with client:
        for _ in range(3):
            refused = await client.get(
                "/api/ask/stream",
                params={"question": "hi"},
                headers={"origin": "https://shop.example"},
            )
            assert refused.status_code == 403
        allowed = await client.get(
            "/api/conversations/" + "0" * 32, headers={"origin": "https://ok.example"}
        )
        assert allowed.status_code == 404  # past the origin check
    services.store.close()
    assert refusals(caplog) == [
        "refused a request from the site 'https://shop.example': if it embeds the widget, add "
        "it to web.cors_origins"
    ]
    assert answerer.calls == []


async def test_a_listed_url_that_is_not_quite_the_origin_is_pointed_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # copied from the address bar: a trailing slash, a capital letter; CORS compares exactly
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(tmp_path, answerer, cors_origins=["https://Shop.example/"])
    caplog.set_level(logging.WARNING, logger=LOGGER)
    async with client:
        refused = await client.post(
            "/api/feedback",
            json={"conversation_id": "0" * 32, "turn_id": 1, "value": "helpful"},
            headers={"origin": "https://shop.example"},
        )
        assert refused.status_code == 403
    services.store.close()
    assert refusals(caplog) == [
        "refused a request from the site 'https://shop.example': if it embeds the widget, add "
        "it to web.cors_origins (it lists 'https://Shop.example/': write exactly "
        "'https://shop.example')"
    ]


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
