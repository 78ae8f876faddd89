"""``X-Forwarded-Prefix`` from a trusted reverse proxy: the links citecast builds from a request
(``share_url``, signed ``/files/`` links, in every API response and on the shared page) carry the
sub-path the proxy serves citecast under; from anyone else, or when it is not a plain path, the
header changes nothing; ``web.public_base_url`` still wins; the ``Host`` check still holds."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.connectors.app import build_app
from bot.connectors.web_proxy import (
    DEFAULT_TRUSTED,
    TrustedProxies,
    behind_proxies,
    parse_prefix,
    trusted_proxies_setting,
)
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    cited_answer,
    make_settings,
    manual_pdf,
    parse_sse,
    passage,
)

PREFIX = "/help"
PROXY = ("127.0.0.1", 41000)  # a proxy on the same host: trusted by default
VISITOR = ("203.0.113.7", 52000)  # anyone else reaching the port directly
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
ORIGIN = "http://citecast.test"


class ForwardingProxy:
    """A reverse proxy serving citecast under ``/help/``: it strips the prefix and says it in
    ``X-Forwarded-Prefix`` (as Traefik's StripPrefix does), replacing any the visitor sent."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if not path.startswith(PREFIX + "/"):
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b"not behind the proxy"})
            return
        inner = path[len(PREFIX) :]
        headers = [(k, v) for k, v in scope["headers"] if k != b"x-forwarded-prefix"]
        headers.append((b"x-forwarded-prefix", PREFIX.encode()))
        scope = dict(scope, path=inner, raw_path=inner.encode(), headers=headers)
        await self.app(scope, receive, send)


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    root.mkdir()
    (root / "manual.pdf").write_bytes(b"%PDF-1.4 fake")
    return root


def served(
    tmp_path: Path,
    kb: Path,
    *,
    trusted: str = DEFAULT_TRUSTED,
    client: tuple[str, int] = PROXY,
    proxy: bool = False,
    **web: Any,
) -> tuple[Services, httpx.AsyncClient]:
    """The app as ``citecast serve`` wraps it (``behind_proxies``), reached from ``client``
    (through ``ForwardingProxy`` when ``proxy``)."""
    text = "Restart it.[^1]\n\nAsk again.[^2]\n"
    answerer = CannedAnswerer(cited_answer(manual_pdf(kb), passage(2), text=text))
    settings = make_settings(tmp_path, file_roots=[str(kb)], **web)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    app: Any = behind_proxies(build_app(services, connectors=[], shutdown_grace=0.1), trusted)
    if proxy:
        app = ForwardingProxy(app)
    transport = httpx.ASGITransport(app=app, client=client)
    return services, httpx.AsyncClient(transport=transport, base_url=ORIGIN)


def said(prefix: str | None) -> dict[str, str]:
    return {} if prefix is None else {"x-forwarded-prefix": prefix}


async def links(client: httpx.AsyncClient, path: str = "", **headers: str) -> list[str]:
    """Every link one question gets: the POST's and the stream's share and file links, the
    conversation reload's, and the file links on the shared page."""
    asked = await client.post(f"{path}/api/ask", json={"question": "restart?"}, headers=headers)
    assert asked.status_code == 200, asked.text
    body = asked.json()
    found = [body["share_url"], body["citations"][0]["url"]]
    streamed = await client.get(
        f"{path}/api/ask/stream", params={"question": "again?"}, headers=headers
    )
    events = parse_sse(streamed.text)
    done = next(data for name, data in events if name == "done")
    cited = next(data for name, data in events if name == "citation")
    found += [done["share_url"], done["citations"][0]["url"], cited["href"]]
    conversation = body["conversation_id"]
    reload = await client.get(f"{path}/api/conversations/{conversation}", headers=headers)
    stored = reload.json()["turns"][0]
    found += [stored["share_url"], stored["citations"][0]["url"]]
    share = "/turns/" + body["share_url"].split("/turns/", 1)[1]
    page = await client.get(path + share, headers={**BROWSER, **headers})
    assert page.status_code == 200, page.text
    found += [part.split('"', 1)[0] for part in page.text.split('href="')[1:] if "/files/" in part]
    return found


def assert_under(found: list[str], base: str) -> None:
    assert len(found) >= 8
    for url in found:
        assert url.startswith((f"{base}/turns/", f"{base}/files/")), (base, url)


async def test_a_trusted_proxy_s_prefix_is_in_every_link(tmp_path: Path, kb: Path) -> None:
    services, client = served(tmp_path, kb)
    async with client:
        found = await links(client, **said(PREFIX))
    services.store.close()
    assert_under(found, ORIGIN + PREFIX)


async def test_the_links_work_through_the_proxy(tmp_path: Path, kb: Path) -> None:
    services, client = served(tmp_path, kb, proxy=True)
    async with client:
        found = await links(client, PREFIX)
        assert_under(found, ORIGIN + PREFIX)
        share = found[0]
        page = await client.get(share, headers=BROWSER)
        assert page.status_code == 200 and "Restart it." in page.text
        download = await client.get(found[1].split("#")[0])
        assert download.status_code == 200 and download.content == b"%PDF-1.4 fake"
    services.store.close()


@pytest.mark.parametrize(
    ("trusted", "client"),
    [
        (DEFAULT_TRUSTED, VISITOR),  # the header straight from a visitor
        ("", PROXY),  # FORWARDED_ALLOW_IPS set to trust nobody
        ("10.0.0.0/8", PROXY),  # the proxy is elsewhere; this peer is not it
    ],
)
async def test_the_prefix_of_an_untrusted_peer_is_ignored(
    tmp_path: Path, kb: Path, trusted: str, client: tuple[str, int], caplog: Any
) -> None:
    services, http = served(tmp_path, kb, trusted=trusted, client=client)
    with caplog.at_level(logging.DEBUG, logger="bot.connectors.web_proxy"):
        async with http:
            found = await links(http, **said(PREFIX))
    services.store.close()
    assert_under(found, ORIGIN)
    assert "not a trusted proxy" in caplog.text


MALICIOUS = [
    "//evil.example",
    "//evil.example/help",
    "/a/../b",
    "/..",
    "/a/./b",
    "https://evil.example/help",
    "evil.example",
    '/help"><script>alert(1)</script>',
    "/help'x",
    "/help\r\nSet-Cookie: a=b",
    "/help\nx",
    "/help?x=1",
    "/help#x",
    "/help%2F..",
    "/a,/b",
    "/a b",
    "\\\\evil.example",
    "/help@evil.example:80",
    "/" + "a" * 300,
]


@pytest.mark.parametrize("prefix", MALICIOUS)
async def test_a_prefix_that_is_not_a_plain_path_is_ignored(
    tmp_path: Path, kb: Path, prefix: str, caplog: Any
) -> None:
    assert parse_prefix(prefix) is None
    services, client = served(tmp_path, kb)
    headers = [("x-forwarded-prefix", prefix)]
    with caplog.at_level(logging.DEBUG, logger="bot.connectors.web_proxy"):
        async with client:
            # raw header bytes: httpx itself would refuse a line break
            request = client.build_request("POST", "/api/ask", json={"question": "q?"})
            request.headers = httpx.Headers(
                [*request.headers.raw, *((k.encode(), v.encode("latin-1")) for k, v in headers)]
            )
            asked = await client.send(request)
    services.store.close()
    assert asked.status_code == 200, asked.text
    body = asked.json()
    assert body["share_url"].startswith(f"{ORIGIN}/turns/")
    assert body["citations"][0]["url"].startswith(f"{ORIGIN}/files/")
    assert "not a path of plain segments" in caplog.text


async def test_two_prefix_headers_are_ignored(tmp_path: Path, kb: Path) -> None:
    services, client = served(tmp_path, kb)
    async with client:
        request = client.build_request("POST", "/api/ask", json={"question": "q?"})
        request.headers = httpx.Headers(
            [
                *request.headers.raw,
                (b"x-forwarded-prefix", b"/help"),
                (b"x-forwarded-prefix", b"/x"),
            ]
        )
        body = (await client.send(request)).json()
    services.store.close()
    assert body["share_url"].startswith(f"{ORIGIN}/turns/")


@pytest.mark.parametrize(
    ("value", "prefix"),
    [("/help", "/help"), ("/help/", "/help"), ("/", ""), ("/a/b-c_d.e~f", "/a/b-c_d.e~f")],
)
def test_plain_paths_are_taken(value: str, prefix: str) -> None:
    assert parse_prefix(value) == prefix


async def test_the_public_base_url_wins_over_the_prefix(tmp_path: Path, kb: Path) -> None:
    public = "https://ask.example.org/kb"
    services, client = served(tmp_path, kb, public_base_url=public)
    async with client:
        found = await links(client, **said(PREFIX))
    services.store.close()
    assert_under(found, public)


async def test_the_host_check_still_refuses_an_unknown_host(tmp_path: Path, kb: Path) -> None:
    services, client = served(tmp_path, kb)
    async with client:
        refused = await client.post(
            "/api/ask",
            json={"question": "q?"},
            headers={"host": "evil.example", **said(PREFIX)},
        )
        page = await client.get("/", headers={"host": "evil.example", **said(PREFIX)})
    services.store.close()
    assert refused.status_code == 400
    assert "evil.example" in refused.json()["error"]
    assert page.status_code == 400


def test_trusted_proxies_are_read_as_uvicorn_reads_them() -> None:
    assert trusted_proxies_setting({}) == DEFAULT_TRUSTED
    assert trusted_proxies_setting({"FORWARDED_ALLOW_IPS": "10.1.2.3"}) == "10.1.2.3"
    default = TrustedProxies.parse(DEFAULT_TRUSTED)
    assert default.trusts("127.0.0.1") and default.trusts("::1")
    assert not default.trusts("127.0.0.2") and not default.trusts(None)
    mixed = TrustedProxies.parse("10.0.0.0/8, 192.0.2.1,unix:/run/proxy.sock")
    assert mixed.trusts("10.20.30.40") and mixed.trusts("192.0.2.1")
    assert mixed.trusts("unix:/run/proxy.sock")
    assert not mixed.trusts("192.0.2.2") and not mixed.trusts("11.0.0.1")
    assert TrustedProxies.parse("*").trusts("198.51.100.9")
    assert not TrustedProxies.parse("").trusts("127.0.0.1")
