"""Log lines of refusals say what happened.

A request with an empty ``Host`` header was logged as "refused a request for host '': if that
is this server's name, add it to web.allowed_hosts" (there is no name to add); a ``/files/``
link to a file the index never held (an SVG in an ingested folder, which ingest skips) as
"audience public may no longer read it" (it never could). Each now says which it is.
"""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from bot.connectors.web_files import file_response
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage
from tests.connectors.web.viewer_kb import build_linked_kb

HOSTS = "bot.connectors.web_hosts"
FILES = "bot.connectors.web_files"


def messages(caplog: pytest.LogCaptureFixture, logger: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == logger]


async def test_an_empty_host_is_logged_as_naming_no_server(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    services, client = build_harness(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    with caplog.at_level(logging.WARNING, logger=HOSTS):
        async with client:
            empty = [await client.get("/healthz", headers={"host": ""}) for _ in range(2)]
            named = await client.get("/healthz", headers={"host": "ask.example.org"})
    services.store.close()
    assert [response.status_code for response in [*empty, named]] == [400, 400, 400]
    assert empty[0].json() == {
        "error": "the request's Host header is empty: it must name this server"
    }
    assert "ask.example.org" in named.json()["error"]
    assert messages(caplog, HOSTS) == [
        "refused a request with an empty Host header: it names no server",
        "refused a request for host 'ask.example.org': if that is this server's name, "
        "add it to web.allowed_hosts",
    ]


def test_a_file_the_index_never_held_is_logged_as_not_in_the_index(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    linked = build_linked_kb(tmp_path)
    with caplog.at_level(logging.INFO, logger=FILES):
        # ingest skips images: signed anyway (as a forged or an old link would be), refused
        unindexed = file_response(
            linked.signer, linked.token("docs/diagram.png"), files=linked.files
        )
        private = file_response(linked.signer, linked.token("docs/private.md"), files=linked.files)
    assert unindexed.status_code == private.status_code == 404
    assert messages(caplog, FILES) == [
        "refused diagram.png: it is not in the index (never indexed, or dropped from it since)",
        "refused private.md: audience public may no longer read it",
    ]


def test_httpx_sends_the_empty_host_it_is_given() -> None:
    request = httpx.Request("GET", "http://citecast.test/healthz", headers={"host": ""})
    assert request.headers["host"] == ""
