"""The trailing-slash redirect keeps the path prefix a trusted proxy forwarded.

``GET /help/files/x/`` through a proxy serving citecast under ``/help/`` was redirected to
``http://<host>/files/x``, out of the proxy's sub-path: Starlette writes its redirect from the
``Host`` header and the inner path. A redirect to this server is now a path under the prefix
(``/help/files/x``), which also names no host a request made up.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.web_proxy import local_location
from tests.connectors.web.test_web_forwarded_prefix import PREFIX, VISITOR, served


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    root.mkdir()
    return root


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/help/files/x/", "/help/files/x"),
        ("/help/files/x/?download=1", "/help/files/x?download=1"),
        ("/help/turns/1-abc/", "/help/turns/1-abc"),
    ],
)
async def test_a_trailing_slash_redirect_stays_under_the_proxy_s_prefix(
    tmp_path: Path, kb: Path, path: str, location: str
) -> None:
    services, client = served(tmp_path, kb, proxy=True)
    async with client:
        response = await client.get(path, follow_redirects=False)
        assert response.status_code == 307, response.text
        assert response.headers["location"] == location
        # followed, it lands on the route (the token is made up: the route's own 404)
        followed = await client.get(path, follow_redirects=True)
        assert followed.url.path == location.split("?")[0]
        assert followed.status_code == 404 and followed.json() == {"error": "not found"}
    services.store.close()


async def test_without_a_proxy_the_redirect_is_a_path_naming_no_host(
    tmp_path: Path, kb: Path
) -> None:
    services, client = served(tmp_path, kb, client=VISITOR)
    async with client:
        # an untrusted visitor's prefix is ignored, and the Host it sends is not echoed
        response = await client.get(
            "/files/x/",
            headers={"x-forwarded-prefix": PREFIX, "host": "evil.example"},
            follow_redirects=False,
        )
    services.store.close()
    assert response.status_code == 307
    assert response.headers["location"] == "/files/x"


def test_only_a_location_of_this_host_is_made_a_path() -> None:
    assert local_location("http://a.test:8890/files/x?y=1", "a.test:8890", "/p") == "/p/files/x?y=1"
    assert local_location("https://a.test/files/x", "a.test", "") == "/files/x"
    assert local_location("https://other.test/files/x", "a.test", "/p") is None
    assert local_location("/files/x", "a.test", "/p") is None
    assert local_location("http://a.test/x", None, "/p") is None
