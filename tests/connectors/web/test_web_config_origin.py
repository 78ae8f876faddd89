"""``/api/config`` is refused to a site missing from web.cors_origins like the rest of the API
(the README: "Requests from origins not in the list are refused before any work is done"), so
the widget on such a site can say so when it opens; the chat page itself still gets it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage

LOGGER = "bot.connectors.web"
ALLOWED = "https://shop.example"


async def test_a_site_not_listed_is_refused_its_config_and_named_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    services, client = build_harness(
        tmp_path, CannedAnswerer(cited_answer(passage(1))), cors_origins=[ALLOWED]
    )
    caplog.set_level(logging.WARNING, logger=LOGGER)
    async with client:
        refused = await client.get("/api/config", headers={"origin": "http://evil.example:9"})
        # an <img> or <script> on another site sends no Origin, only fetch metadata
        unasked = await client.get("/api/config", headers={"sec-fetch-site": "cross-site"})
    services.store.close()
    for response in (refused, unasked):
        assert response.status_code == 403
        assert response.json() == {"error": "this site may not use the citecast API"}
        assert "title" not in response.text
    assert [r.getMessage() for r in caplog.records if r.name == LOGGER] == [
        "refused a request from the site 'http://evil.example:9': if it embeds the widget, add "
        "it to web.cors_origins"
    ]


@pytest.mark.parametrize(
    "headers",
    [
        {},  # curl, or a same-origin GET (browsers send no Origin with it)
        {"sec-fetch-site": "same-origin"},
        {"origin": "http://citecast.test"},  # the chat page's own origin
        {"origin": ALLOWED},  # a site that embeds the widget
    ],
)
async def test_the_chat_page_and_listed_sites_get_the_config(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    services, client = build_harness(
        tmp_path, CannedAnswerer(cited_answer(passage(1))), cors_origins=[ALLOWED], title="Acme"
    )
    async with client:
        response = await client.get("/api/config", headers=headers)
    services.store.close()
    assert response.status_code == 200
    assert response.json()["title"] == "Acme"
