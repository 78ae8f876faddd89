"""``behind_proxies`` under a real uvicorn on 127.0.0.1, run as ``citecast serve`` should run it
(``proxy_headers=False``: the wrapper applies uvicorn's own middleware inside): a trusted proxy's
``X-Forwarded-Prefix``, ``-Proto`` and ``-For`` are all believed, from the same list; an
untrusted peer's none of them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from bot.connectors.app import build_app
from bot.connectors.web_proxy import behind_proxies
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    cited_answer,
    make_settings,
    passage,
    start_live_server,
)


@asynccontextmanager
async def serving(tmp_path: Path, trusted: str, **web: Any) -> AsyncIterator[str]:
    """citecast under uvicorn on a free loopback port, wrapped as ``citecast serve`` wraps it."""
    answerer = CannedAnswerer(cited_answer(passage(1), text="Claim one is true.[^1]\n"))
    settings = make_settings(tmp_path, **web)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    app = behind_proxies(build_app(services, connectors=[], shutdown_grace=0.1), trusted)
    live = await start_live_server(app, proxy_headers=False)
    try:
        yield live.url.removeprefix("http://")
    finally:
        await live.stop()
        services.store.close()


FORWARDED = {
    "x-forwarded-prefix": "/help",
    "x-forwarded-proto": "https",
    "x-forwarded-for": "198.51.100.4",
}


async def ask(address: str, **headers: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=f"http://{address}") as client:
        return await client.post("/api/ask", json={"question": "true?"}, headers=headers)


async def test_a_trusted_proxy_is_believed_about_prefix_scheme_and_client(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, "127.0.0.1", rate_limit_per_minute=1) as address:
        first = await ask(address, **FORWARDED)
        assert first.status_code == 200, first.text
        assert first.json()["share_url"].startswith(f"https://{address}/help/turns/")
        # the rate limit counts the forwarded client, not the proxy: uvicorn's middleware runs
        other = await ask(address, **{**FORWARDED, "x-forwarded-for": "198.51.100.5"})
        assert other.status_code == 200, other.text
        again = await ask(address, **FORWARDED)
        assert again.status_code == 429


async def test_an_untrusted_peer_is_believed_about_none_of_them(tmp_path: Path) -> None:
    async with serving(tmp_path, "10.0.0.1", rate_limit_per_minute=1) as address:
        first = await ask(address, **FORWARDED)
        assert first.status_code == 200, first.text
        assert first.json()["share_url"].startswith(f"http://{address}/turns/")
        other = await ask(address, **{**FORWARDED, "x-forwarded-for": "198.51.100.5"})
        assert other.status_code == 429, "one peer, one limit, whatever it claims"
