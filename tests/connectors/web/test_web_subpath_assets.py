"""Every page citecast serves works behind a reverse proxy that serves it under a sub-path
(``https://example.com/help/`` proxied to citecast's ``/``): each stylesheet, script and link
the page names, resolved against the page's own address as a browser does, is found."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from bot.connectors.app import build_app
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    make_settings,
    passage,
)

PREFIX = "/help"
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


class StripPrefix:
    """A reverse proxy's path handling: ``/help/x`` reaches the app as ``/x``; anything outside
    the prefix is the proxy's own 404, as it would be on a shared host."""

    def __init__(self, app: Any, prefix: str = PREFIX) -> None:
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)  # lifespan
            return
        path: str = scope["path"]
        if not path.startswith(self.prefix + "/"):
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b"not behind the proxy"})
            return
        inner = path[len(self.prefix) :]
        await self.app(dict(scope, path=inner, raw_path=inner.encode("utf-8")), receive, send)


class References(HTMLParser):
    """The URLs a page loads or links to (stylesheets, scripts, icons, anchors)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = {"link": "href", "script": "src", "a": "href", "img": "src"}.get(tag)
        for name, value in attrs:
            if name == wanted and value and not value.startswith(("data:", "#")):
                self.urls.append(value)


def references(page: str) -> list[str]:
    parser = References()
    parser.feed(page)
    return parser.urls


def proxied(tmp_path: Path, **web: Any) -> tuple[Services, httpx.AsyncClient]:
    """The app behind ``StripPrefix``, with a client that reaches it through the proxy."""
    text = "Claim one is true.[^1]\n\nClaim two is true.[^2]\n"
    answerer = CannedAnswerer(cited_answer(passage(1), passage(2), text=text))
    settings = make_settings(tmp_path, **web)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    app = StripPrefix(build_app(services, connectors=[], shutdown_grace=0.1))
    transport = httpx.ASGITransport(app=app)
    return services, httpx.AsyncClient(transport=transport, base_url="http://citecast.test")


async def assert_every_reference_resolves(
    client: httpx.AsyncClient, page_url: str, page: httpx.Response
) -> list[str]:
    """Each same-site URL the page names, resolved against ``page_url``, answers 200."""
    assert page.headers["content-type"].startswith("text/html")
    found = []
    for ref in references(page.text):
        url = urljoin(page_url, ref)
        if urlsplit(url).netloc != "citecast.test":
            continue  # an answer's link to a source's own web page
        response = await client.get(url)
        assert response.status_code == 200, (
            f"{ref!r} on {page_url} -> {url}: {response.status_code}"
        )
        found.append(urlsplit(url).path)
    return found


async def test_the_chat_page_loads_its_assets_under_a_sub_path(tmp_path: Path) -> None:
    services, client = proxied(tmp_path)
    async with client:
        url = f"http://citecast.test{PREFIX}/"
        found = await assert_every_reference_resolves(client, url, await client.get(url))
    services.store.close()
    assert f"{PREFIX}/static/chat.css" in found
    assert f"{PREFIX}/static/chat.js" in found


async def test_the_shared_answer_page_loads_its_stylesheet_under_a_sub_path(
    tmp_path: Path,
) -> None:
    services, client = proxied(tmp_path, public_base_url=f"http://citecast.test{PREFIX}")
    async with client:
        asked = await client.post(f"{PREFIX}/api/ask", json={"question": "Is it true?"})
        assert asked.status_code == 200, asked.text
        share_url = asked.json()["share_url"]
        assert share_url.startswith(f"http://citecast.test{PREFIX}/turns/")
        page = await client.get(share_url, headers=BROWSER)
        assert page.status_code == 200
        assert "Claim one is true." in page.text
        found = await assert_every_reference_resolves(client, share_url, page)
    services.store.close()
    assert f"{PREFIX}/static/chat.css" in found


async def test_the_not_found_pages_load_their_stylesheet_under_a_sub_path(
    tmp_path: Path,
) -> None:
    services, client = proxied(tmp_path)
    async with client:
        for path in ("/turns/1-forged", "/files/forged.token"):
            url = f"http://citecast.test{PREFIX}{path}"
            page = await client.get(url, headers=BROWSER)
            assert page.status_code == 404
            found = await assert_every_reference_resolves(client, url, page)
            assert found == [f"{PREFIX}/static/chat.css"], (path, found)
    services.store.close()


async def test_the_pages_still_load_their_assets_at_the_root(tmp_path: Path) -> None:
    text = "Claim one is true.[^1]\n"
    services, client = build_harness(tmp_path, CannedAnswerer(cited_answer(passage(1), text=text)))
    async with client:
        asked = await client.post("/api/ask", json={"question": "Is it true?"})
        share_url = asked.json()["share_url"]
        pages = [
            ("http://citecast.test/", {}),
            (share_url, BROWSER),
            ("http://citecast.test/turns/1-forged", BROWSER),
            ("http://citecast.test/files/forged.token", BROWSER),
        ]
        for url, headers in pages:
            page = await client.get(url, headers=headers)
            found = await assert_every_reference_resolves(client, url, page)
            assert "/static/chat.css" in found, url
    services.store.close()
