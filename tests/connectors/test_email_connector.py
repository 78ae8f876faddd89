"""The connector's seams: plugged in by config, clear errors for bad config, no routes."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from bot.connectors.base import Connector, enabled_connectors
from bot.connectors.email import EmailConnector
from bot.errors import ConfigError
from bot.models import Source
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.email_world import email_settings, services


def answerer() -> ScriptedAnswerer:
    return ScriptedAnswerer([Source(id="a", url="https://docs.example.org/a")], "Yes [1].")


def test_enabled_in_config_means_plugged_in(tmp_path: Path) -> None:
    svc = services(tmp_path, answerer(), email_settings(2525))
    found = [c for c in enabled_connectors(svc) if c.name == "email"]
    assert len(found) == 1 and isinstance(found[0], EmailConnector)
    connector: Connector = found[0]
    assert connector.routes() == []


def test_disabled_means_absent(tmp_path: Path) -> None:
    svc = services(tmp_path, answerer(), email_settings(2525, enabled=False))
    assert all(c.name != "email" for c in enabled_connectors(svc))


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"address": "not an address"}, "email.address: not a valid address"),
        ({"address": ""}, "email.address: required when email is enabled"),
        ({"address": "  "}, "email.address: required when email is enabled"),
        ({"inbound": "imap"}, "email.imap.host: required when email.inbound is imap"),
        (
            {"inbound": "imap", "imap": {"host": "imap.example.com", "password": "pw"}},
            "email.imap.username: required when email.inbound is imap",
        ),
        (
            {"inbound": "imap", "imap": {"host": "imap.example.com", "username": "bot"}},
            r"email.imap.password: empty \(an unset environment variable\?\)",
        ),
        (
            {"outbound": {"username": "bot@example.com", "password": ""}},
            "email.outbound.password: empty while email.outbound.username is set",
        ),
    ],
)
def test_bad_config_fails_when_serve_builds_the_connector_with_the_key(
    tmp_path: Path, overrides: dict[str, object], message: str
) -> None:
    svc = services(tmp_path, answerer(), email_settings(2525, **overrides))
    with pytest.raises(ConfigError, match=message):
        enabled_connectors(svc)
    svc.store.close()


async def test_start_and_stop_bind_and_release_the_listener(tmp_path: Path) -> None:
    connector = EmailConnector(services(tmp_path, answerer(), email_settings(2525)))
    await connector.start()
    port = connector.listen_port
    assert port is not None and port > 0
    await connector.stop()
    assert connector.listen_port is None
    again = EmailConnector(services(tmp_path, answerer(), email_settings(2525, listen_port=port)))
    await again.start()
    assert again.listen_port == port
    await again.stop()


async def test_a_listen_port_taken_after_the_check_is_still_a_config_error(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # free when serve builds the connector, taken by another program before it starts
    connector = EmailConnector(
        services(tmp_path, answerer(), email_settings(2525, listen_port=port))
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        with pytest.raises(
            ConfigError, match=f"^email.listen_port: cannot listen on 127.0.0.1:{port}"
        ):
            await connector.start()
    # nothing was left running: no listener, no outbox worker
    assert connector.listen_port is None
    assert [t for t in asyncio.all_tasks() if t.get_name() == "email-outbox"] == []
