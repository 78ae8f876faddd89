"""Every web route under every method: HEAD mirrors GET without side effects, anything else is
a JSON 405 naming what is allowed, unknown paths a JSON 404; never a traceback."""

from __future__ import annotations

import pytest

from tests.connectors.web.conftest import WebHarness

CONVERSATION = "/api/conversations/" + "a" * 32
GET_ROUTES = ["/", "/widget.js", "/healthz", "/api/config", "/static/chat.js"]
REFUSED_GETS = [CONVERSATION, "/files/a.b", "/turns/1-abc"]  # 404 for a made-up id
POST_ROUTES = ["/api/ask", "/api/feedback"]


@pytest.mark.parametrize("path", GET_ROUTES + REFUSED_GETS)
async def test_head_is_answered_like_get_with_no_body(web: WebHarness, path: str) -> None:
    get = await web.client.get(path)
    head = await web.client.head(path)
    assert head.status_code == get.status_code
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.content == b""


@pytest.mark.parametrize("path", GET_ROUTES + REFUSED_GETS + POST_ROUTES + ["/api/ask/stream"])
@pytest.mark.parametrize("method", ["OPTIONS", "PUT", "DELETE", "PATCH"])
async def test_other_methods_are_a_json_405_naming_the_allowed_ones(
    web: WebHarness, path: str, method: str
) -> None:
    response = await web.client.request(method, path)
    assert response.status_code == 405
    assert response.json() == {"error": "method not allowed"}
    allowed = {"POST"} if path in POST_ROUTES else {"GET", "HEAD"}
    assert set(response.headers["allow"].split(", ")) == allowed
    assert web.answerer.calls == []


@pytest.mark.parametrize("path", ["/nope", "/api/nope", "/static/nope.js", "/static/../web.py"])
async def test_unknown_paths_are_a_json_404(web: WebHarness, path: str) -> None:
    # (a POST under /static is a 405: the mount serves any name there, by GET)
    methods = ("GET", "HEAD") if path.startswith("/static/") else ("GET", "POST", "HEAD")
    for method in methods:
        response = await web.client.request(method, path)
        assert response.status_code == 404, (method, path)
        if method != "HEAD":
            assert response.json() == {"error": "not found"}
