"""``web.allowed_hosts``: a request naming a host this deployment does not answer to (a DNS
rebinding page reaching 127.0.0.1 under its own name) is refused before any work."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from bot.commands.serve import with_bind_host
from bot.connectors.app import build_app
from bot.connectors.web_hosts import host_policy
from bot.errors import ConfigError
from bot.host_names import host_pattern_problem
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    make_settings,
    passage,
    start_live_server,
)

REBOUND = "attacker.example"
REFUSED = "this server does not answer for host 'attacker.example' (see web.allowed_hosts)"


def canned() -> CannedAnswerer:
    return CannedAnswerer(cited_answer(passage(1)))


async def test_a_rebound_host_is_refused_before_the_question_is_asked(tmp_path: Path) -> None:
    answerer = canned()
    services, client = build_harness(tmp_path, answerer)
    async with client:
        headers = {"host": REBOUND}
        asked = await client.post("/api/ask", json={"question": "q?"}, headers=headers)
        streamed = await client.get("/api/ask/stream", params={"question": "q?"}, headers=headers)
        page = await client.get("/", headers=headers)
        widget = await client.get("/widget.js", headers=headers)
        static = await client.get("/static/chat.js", headers=headers)
    for response in (asked, streamed, page, widget, static):
        assert response.status_code == 400
        assert response.json() == {"error": REFUSED}
    assert answerer.calls == []
    services.store.close()


async def test_a_rebound_host_cannot_read_a_stored_conversation_or_shared_answer(
    tmp_path: Path,
) -> None:
    services, client = build_harness(tmp_path, canned())
    async with client:
        answered = (await client.post("/api/ask", json={"question": "q?"})).json()
        share_path = httpx.URL(answered["share_url"]).path
        conversation = f"/api/conversations/{answered['conversation_id']}"
        own = await client.get(share_path)
        rebound_share = await client.get(share_path, headers={"host": f"{REBOUND}:8000"})
        rebound_history = await client.get(conversation, headers={"host": REBOUND})
    assert own.status_code == 200 and "Claim 1 is true" in own.text
    assert rebound_share.status_code == 400 and "Claim 1" not in rebound_share.text
    assert rebound_history.status_code == 400 and "Claim 1" not in rebound_history.text
    services.store.close()


@pytest.mark.parametrize(
    "host",
    ["localhost:8000", "127.0.0.1:8000", "[::1]:9000", "LOCALHOST", "10.0.0.7", "citecast.test"],
)
async def test_local_names_and_addresses_are_answered_by_default(tmp_path: Path, host: str) -> None:
    services, client = build_harness(tmp_path, canned())
    async with client:
        response = await client.get("/api/config", headers={"host": host})
    assert response.status_code == 200, response.text
    services.store.close()


async def test_the_public_base_url_and_listed_hosts_are_answered(tmp_path: Path) -> None:
    services, client = build_harness(
        tmp_path,
        canned(),
        public_base_url="https://Help.Example.com/",
        allowed_hosts=["ask.example.org:8443", "*.corp.example"],
    )
    async with client:
        statuses = {
            host: (await client.get("/healthz", headers={"host": host})).status_code
            for host in (
                "help.example.com",
                "help.example.com.:443",
                "ask.example.org:8443",
                "ask.example.org:8444",
                "wiki.corp.example",
                "corp.example",
                "help.example.com.attacker.example",
            )
        }
    assert statuses == {
        "help.example.com": 200,
        "help.example.com.:443": 200,
        "ask.example.org:8443": 200,
        "ask.example.org:8444": 400,
        "wiki.corp.example": 200,
        "corp.example": 400,
        "help.example.com.attacker.example": 400,
    }
    services.store.close()


async def test_a_refused_host_is_logged_once_naming_the_setting(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    services, client = build_harness(tmp_path, canned())
    with caplog.at_level(logging.WARNING, logger="bot.connectors.web_hosts"):
        async with client:
            for _ in range(3):
                await client.get("/healthz", headers={"host": "ask.example.org"})
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.connectors.web_hosts"]
    assert warnings == [
        "refused a request for host 'ask.example.org': if that is this server's name, "
        "add it to web.allowed_hosts"
    ]
    services.store.close()


async def test_a_star_answers_any_host(tmp_path: Path) -> None:
    services, client = build_harness(tmp_path, canned(), allowed_hosts=["*"])
    async with client:
        response = await client.get("/healthz", headers={"host": REBOUND})
    assert response.status_code == 200
    services.store.close()


async def test_a_real_server_answers_its_loopback_address_and_refuses_a_rebound_name(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=canned())
    live = await start_live_server(build_app(services, connectors=[], shutdown_grace=0.1))
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=10) as http:
            own = await http.get("/healthz")
            rebound = await http.get("/healthz", headers={"host": f"{REBOUND}:8000"})
    finally:
        await live.stop()
        services.store.close()
    assert own.status_code == 200
    assert rebound.status_code == 400


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        (
            "https://ask.example.com/",
            "give the host without scheme or path, like 'ask.example.com'",
        ),
        ("ask.example.com:99999", "is not a host name"),
        ("two words", "is not a host name"),
        ("", "is not a host name"),
        ("*example.com", "is not a host name"),
    ],
)
def test_a_bad_entry_fails_at_start_naming_the_key(tmp_path: Path, entry: str, reason: str) -> None:
    with pytest.raises(ConfigError) as caught:
        make_settings(tmp_path, allowed_hosts=[entry])
    assert "web.allowed_hosts" in str(caught.value)
    assert reason in str(caught.value)


def test_entries_that_are_hosts_are_accepted() -> None:
    for entry in ("ask.example.com", "ask.example.com:8443", "*.example.com", "[::1]:80", "*"):
        assert host_pattern_problem(entry) is None, entry
    policy = host_policy(["*"], None, "127.0.0.1")
    assert policy.any_host and policy.allows(REBOUND)


async def test_a_name_given_with_serve_host_is_answered(tmp_path: Path) -> None:
    # `citecast serve --host box.example` listens under that name: it must not refuse itself
    settings = with_bind_host(make_settings(tmp_path), "box.example")
    services = Services(settings=settings, store=Store(settings.store.path), assistant=canned())
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://box.example") as http:
        own = await http.get("/healthz")
        other = await http.get("/healthz", headers={"host": REBOUND})
    services.store.close()
    assert own.status_code == 200
    assert other.status_code == 400
