"""``/widget.js`` and ``/static/*``: unversioned URLs, so cached copies are revalidated, cheaply."""

from __future__ import annotations

import pytest

from tests.connectors.web.conftest import WebHarness

STATIC = ["/static/chat.js", "/static/chat.css", "/static/history.js"]


async def test_the_widget_is_not_sent_again_to_a_browser_that_has_it(web: WebHarness) -> None:
    first = await web.client.get("/widget.js")
    assert first.status_code == 200 and first.content
    etag, modified = first.headers["etag"], first.headers["last-modified"]

    by_etag = await web.client.get("/widget.js", headers={"if-none-match": etag})
    by_weak_etag = await web.client.get("/widget.js", headers={"if-none-match": f'"x", W/{etag}'})
    by_date = await web.client.get("/widget.js", headers={"if-modified-since": modified})

    for answer in (by_etag, by_weak_etag, by_date):
        assert (answer.status_code, answer.content) == (304, b"")
        assert answer.headers["etag"] == etag
        assert answer.headers["cache-control"] == "public, max-age=300"


@pytest.mark.parametrize(
    "condition",
    [
        {"if-none-match": '"some-older-version"'},
        {"if-modified-since": "Thu, 01 Jan 1970 00:00:00 GMT"},
        {"if-modified-since": "not a date"},
        # If-None-Match wins over If-Modified-Since (RFC 9110 §13.1.3)
        {"if-none-match": '"older"', "if-modified-since": "Fri, 01 Jan 2100 00:00:00 GMT"},
    ],
)
async def test_a_changed_or_unreadable_condition_gets_the_whole_widget(
    web: WebHarness, condition: dict[str, str]
) -> None:
    answer = await web.client.get("/widget.js", headers=condition)
    assert answer.status_code == 200
    assert answer.content.startswith(b"/* citecast widget")
    assert answer.headers["content-type"] == "text/javascript; charset=utf-8"
    assert answer.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", STATIC)
async def test_static_files_are_revalidated_rather_than_reused_unasked(
    web: WebHarness, path: str
) -> None:
    # no Cache-Control would let a browser reuse an old chat.js beside a new history.js for
    # a tenth of the file's age after an upgrade (heuristic freshness)
    first = await web.client.get(path)
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"

    again = await web.client.get(path, headers={"if-none-match": first.headers["etag"]})
    assert (again.status_code, again.content) == (304, b"")
    assert again.headers["cache-control"] == "no-cache"

    head = await web.client.head(path)
    assert head.headers["cache-control"] == "no-cache" and head.content == b""
