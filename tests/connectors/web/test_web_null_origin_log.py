"""A request from the origin 'null' (a page opened as file://, a sandboxed iframe) is refused,
and the log says what is true for it: no web.cors_origins entry can allow it (the config
refuses "null"), the page must be served over http(s)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage

LOGGER = "bot.connectors.web"


async def test_the_null_origin_is_logged_with_advice_that_can_work(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(tmp_path, answerer, cors_origins=["https://ok.example"])
    caplog.set_level(logging.WARNING, logger=LOGGER)
    async with client:
        for _ in range(2):
            refused = await client.get(
                "/api/ask/stream", params={"question": "hi"}, headers={"origin": "null"}
            )
            assert refused.status_code == 403
    services.store.close()
    lines = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert lines == [
        "refused a request from the site 'null': a page opened as a file (file://) or in a "
        "sandboxed iframe cannot use the widget; serve the page over http(s) and add its "
        "site to web.cors_origins"
    ]
    assert answerer.calls == []
