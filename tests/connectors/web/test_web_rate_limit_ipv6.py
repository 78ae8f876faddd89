"""The question limit counts an IPv6 client by its /64: a host picks addresses from a whole one."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bot.connectors.app import build_app
from bot.connectors.web_rate_limit import client_key
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("::1", "::/64"),
        ("unknown", "unknown"),
        ("/run/citecast.sock", "/run/citecast.sock"),
    ],
)
def test_each_address_is_counted_under_its_client(host: str, key: str) -> None:
    assert client_key(host) == key


async def test_fresh_addresses_from_one_ipv6_network_share_one_limit(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1), text="Claim 1 is true.[^1]"))
    services, _ = build_harness(tmp_path, answerer, rate_limit_per_minute=2)
    app = build_app(services, connectors=[], shutdown_grace=0.1)

    async def ask_from(host: str) -> int:
        transport = httpx.ASGITransport(app=app, client=(host, 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://citecast.test") as c:
            answer = await c.post("/api/ask", json={"question": "Is it true?"})
            return answer.status_code

    codes = [await ask_from(f"2001:db8:5:6:{n:x}::1") for n in range(1, 5)]
    assert codes == [200, 200, 429, 429]
    # another network is another client
    assert await ask_from("2001:db8:5:7::1") == 200
    assert len(answerer.calls) == 3
    services.store.close()
