"""IMAP credentials are checked at start, as Slack's, Discord's and Discourse's are.

A password the server refuses stops the start (and ``citecast serve``) with one line naming
``email.imap.password``, instead of a server that starts and retries the login for ever with a
warning per backoff step. A server that cannot be reached at start is one warning, and polling
keeps trying (INFO per retry); a password refused later, while running, is one ERROR naming the
setting, then INFO per retry. The server's words are shown decoded, never as ``b'…'``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.connectors.email import EmailConnector
from bot.connectors.email_imap import StartPoints
from bot.connectors.email_imap_names import mailbox_key
from bot.errors import ConfigError
from tests.connectors.test_email_imap import (
    CountingAnswerer,
    capture,
    imap_connector,
    polling,
    seen,
)
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import TLS_PEM, CaptureServer, server_tls_context, wait_for

__all__ = ["capture"]

LOGGER = "bot.connectors"
REFUSED = (
    "email.imap.password: the IMAP server refused the login for 'bot' "
    "(AUTHENTICATIONFAILED invalid credentials); check "
)


def records(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith(LOGGER) and r.levelno == level]


def texts(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in records(caplog, level)]


def free_port() -> int:
    """A loopback port nothing listens on (a mail server that is down)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def serve_with_imap(
    tmp_path: Path, imap: FakeImapServer, section: dict[str, Any], env: dict[str, str]
) -> tuple[int | None, str]:
    """``citecast serve`` run as a process with ``email.imap`` set to ``section`` (inbound
    IMAP from the running fake ``imap``, stopped afterwards): its exit status and stderr."""
    email = {"enabled": True, "address": "help@example.org", "inbound": "imap", "imap": section}
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"store": {"path": str(tmp_path / "s.db")}, "email": email}))
    command = ["-m", "bot", "--config", str(config), "serve", "--port", "0"]
    serve = await asyncio.create_subprocess_exec(
        sys.executable,
        *command,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    try:
        # the fake runs in this loop: wait without blocking it; a server that serves anyway
        # never exits and is stopped below
        _, err = await asyncio.wait_for(serve.communicate(), 30)
    except TimeoutError:
        serve.terminate()
        _, err = await serve.communicate()
    finally:
        await imap.stop()
    return serve.returncode, err.decode()


async def serve_refused_from_the_environment(
    tmp_path: Path,
) -> tuple[FakeImapServer, int | None, str]:
    """``citecast serve`` with ``password: ${IMAP_PASSWORD}`` and ``IMAP_PASSWORD=wrong``,
    against an implicit-TLS fake that refuses it: the fake (stopped), the exit status and
    stderr."""
    imap = FakeImapServer(implicit_tls=server_tls_context())
    await imap.start()
    section = {"host": "127.0.0.1", "port": imap.port, "username": "bot"}
    section |= {"password": "${IMAP_PASSWORD}", "ca_file": str(TLS_PEM)}
    returncode, stderr = await serve_with_imap(
        tmp_path, imap, section, {**os.environ, "IMAP_PASSWORD": "wrong"}
    )
    return imap, returncode, stderr


async def test_a_refused_password_stops_the_start_in_one_line(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(password="right")
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port, password="wrong")
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    try:
        with pytest.raises(ConfigError) as refused:
            await connector.start()
        # nothing is left running: no poller retrying the login, no outbox worker
        await asyncio.sleep(0.3)
        assert imap.commands.count("LOGIN") == 1
        assert connector.outbox._task is None
    finally:
        await connector.stop()
        await imap.stop()
    message = str(refused.value)
    assert message.startswith(REFUSED), message
    assert "email.imap.username" in message
    assert "\n" not in message and "b'" not in message and "wrong" not in message
    assert not any("IMAP session failed" in r.getMessage() for r in caplog.records)


async def test_citecast_serve_stops_on_a_refused_password_from_the_environment(
    tmp_path: Path,
) -> None:
    # QA's report: `password: ${IMAP_PASSWORD}`, then `IMAP_PASSWORD=wrong citecast serve`
    imap, returncode, stderr = await serve_refused_from_the_environment(tmp_path)
    assert returncode == 2, stderr
    last = stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith(f"citecast serve: {tmp_path / 'config.yaml'}: {REFUSED}"), stderr
    assert stderr.count("email.imap.password") == 2  # the key and its advice: in one line
    assert "Traceback" not in stderr and "b'" not in stderr and "IMAP session" not in stderr
    assert imap.commands.count("LOGIN") == 1


async def test_a_server_down_at_start_is_one_warning_and_polling_keeps_trying(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    imap_section = {"host": "127.0.0.1", "port": port, "ssl": False, "timeout": 5}
    imap_section |= {"username": "bot", "password": "secret", "poll_seconds": 0.05}
    settings = email_settings(capture.port, inbound="imap", imap=imap_section)
    connector = EmailConnector(services(tmp_path, CountingAnswerer(), settings))
    StartPoints(connector.services.store).put(mailbox_key(settings.email.imap), 1, 1)
    imap = FakeImapServer()
    caplog.set_level(logging.INFO, logger=LOGGER)
    await connector.start()  # no ConfigError: an outage is not a wrong setting
    try:
        failed = "IMAP session failed"
        await wait_for(lambda: sum(failed in m for m in texts(caplog, logging.INFO)) >= 2)
        await imap.start(port)  # the server is back
        uid = imap.deliver(inbound_mail("Are you there?", message_id="<up@example.com>"))
        await wait_for(lambda: seen(imap, uid))
    finally:
        await connector.stop()
        await imap.stop()
    [warning] = [m for m in texts(caplog, logging.WARNING) if failed in m]
    assert "Connection refused" in warning and "reconnecting in" in warning
    assert not records(caplog, logging.ERROR)
    assert "email: IMAP polling works again" in texts(caplog, logging.INFO)


async def test_a_password_refused_while_running_is_one_error_then_info(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer()
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port)
    caplog.set_level(logging.INFO, logger=LOGGER)
    async with polling(imap, connector):
        await wait_for(lambda: imap.logins == 1 and "IDLE" in imap.commands)
        imap.password = "changed-by-the-admin"
        imap.disconnect_clients()
        await wait_for(lambda: imap.commands.count("LOGIN") >= 5)
        imap.password = "secret"  # the setting is fixed (here: the password changed back)
        uid = imap.deliver(inbound_mail("Back?", message_id="<b@example.com>"))
        await wait_for(lambda: seen(imap, uid))
    [error] = records(caplog, logging.ERROR)
    assert error.getMessage().startswith("email: " + REFUSED), error.getMessage()
    assert error.exc_info is None
    retries = [m for m in texts(caplog, logging.INFO) if "refused the login" in m]
    assert len(retries) >= 3
    assert all("check " not in m and "b'" not in m for m in retries)
    # the dropped connection is the only warning: not one per backoff step
    failed = [m for m in texts(caplog, logging.WARNING) if "IMAP session failed" in m]
    assert len(failed) <= 1
    assert "email: IMAP polling works again" in texts(caplog, logging.INFO)


async def test_a_server_that_cannot_judge_the_login_now_is_retried_not_a_stop(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(login_answer=b"NO [UNAVAILABLE] authentication backend down")
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port)
    caplog.set_level(logging.INFO, logger=LOGGER)
    async with polling(imap, connector):
        await wait_for(lambda: imap.commands.count("LOGIN") >= 3)
    [warning] = [m for m in texts(caplog, logging.WARNING) if "IMAP session failed" in m]
    assert (
        "(the IMAP server cannot log in 'bot' now (UNAVAILABLE authentication backend down))"
        in (warning)
    )
    assert not records(caplog, logging.ERROR)


async def test_a_server_that_wants_tls_before_the_login_names_starttls(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer(starttls=server_tls_context(), login_disabled=True)
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port)
    try:
        with pytest.raises(ConfigError, match=r"^email\.imap\.starttls: .* without TLS \("):
            await connector.start()
    finally:
        await imap.stop()
