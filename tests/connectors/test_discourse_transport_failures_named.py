"""Discourse: a request that fails before the forum answers is named by its failure's type.

A connection dropped mid-request has no message, so the retry line names the exception
type ("failed (RemoteProtocolError); retry in …"). httpx's refusal of an illegal header value
quotes the header ("Illegal header value b'<the API key>\\n'"): it is named by its type only, in
the retry line and in the error raised, so the key never reaches a log.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_http import RetryPolicy
from bot.errors import ChannelError
from bot.models import Source
from tests.connectors.discourse_harness import PUBLIC, RecordingSleep, opened_harness, outbox_empty
from tests.fakes.discourse_api import FakeDiscourse

KEY = "k3y-that-must-stay-secret"


async def test_a_dropped_upload_names_its_failure_in_the_retry_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    chart = tmp_path / "chart.png"
    chart.write_bytes(b"\x89PNG data")
    source = Source(
        id="c",
        title="Chart",
        path=str(chart),
        filename="chart.png",
        media_type="image/png",
        text="A chart.",
    )
    async with FakeDiscourse() as forum:
        forum.fail("/uploads.json", 0)  # the connection is closed mid-request
        async with opened_harness(forum, tmp_path) as h:
            h.script([source], "See the chart [1].")
            topic = forum.new_topic("Q", "Where is the chart?", category_id=PUBLIC)
            with caplog.at_level(logging.INFO):  # retries are INFO lines
                await h.deliver(topic)
                await outbox_empty(h)
    retries = [r.getMessage() for r in caplog.records if "retry in" in r.getMessage()]
    assert retries, [r.getMessage() for r in caplog.records]
    # the type depends on where the close meets the request (ReadError, RemoteProtocolError)
    named = re.compile(r"POST /uploads\.json failed \(\w+Error\); retry in")
    assert all(named.search(m) for m in retries), retries


@pytest.mark.parametrize("suffix", ["\n", "\r\n"])
async def test_a_header_httpx_refuses_is_never_quoted(
    caplog: pytest.LogCaptureFixture, suffix: str
) -> None:
    async with FakeDiscourse(api_key=KEY) as forum:
        sleep = RecordingSleep()
        client = DiscourseClient(
            forum.url, KEY + suffix, "citecast", retry=RetryPolicy(max_attempts=2), sleep=sleep
        )
        try:
            with caplog.at_level(logging.INFO), pytest.raises(ChannelError) as failed:
                await client.topic(1)
        finally:
            await client.aclose()
    assert str(failed.value) == "GET /t/1.json: LocalProtocolError"
    logged = [r.getMessage() for r in caplog.records if r.name.startswith("bot.")]
    assert any("failed (LocalProtocolError); retry in" in m for m in logged), logged
    assert not any(KEY in m for m in logged), logged
