"""What a new email setup sees: a log that says "answered" only once the reply went out (and
why not, otherwise), no transcript of every SMTP session, a config.yaml whose commented email
block shows the defaults, and a missing address worded as the other channels word it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import aiosmtplib
import pytest
import yaml

from bot.config import EmailSettings, Settings
from bot.config_file import load_settings
from bot.connectors import email
from bot.connectors.email import EmailConnector
from bot.connectors.email_smtp_in import SESSION_LOG
from bot.errors import ConfigError
from tests.connectors.test_email_outbox import answer_one, connector_for
from tests.fakes.email_world import BOT, inbound_mail
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer, wait_for

CONFIG_YAML = Path(__file__).resolve().parents[2] / "config.yaml"
VAR = "CITECAST_TEST_EMAIL_ADDRESS"


def closed_port() -> int:
    probe = CaptureServer(CaptureHandler())
    probe.start()
    port = probe.port
    probe.stop()  # nothing listens there now
    return port


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("bot.connectors.email")]


async def one_failed_send(tmp_path: Path, message_id: str, **email: object) -> None:
    """Answer one mail with nothing listening for the reply, until its send was tried once."""
    connector = connector_for(tmp_path, closed_port(), **email)
    await connector.start()
    try:
        item_id = await answer_one(connector, message_id)
        store = connector.services.store
        await wait_for(
            lambda: (item := store.outbox_item(item_id)) is not None and item.attempts > 0
        )
    finally:
        await connector.stop()


async def test_a_reply_that_could_not_be_sent_is_logged_as_queued_with_the_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors")
    await one_failed_send(tmp_path, "<q1@example.org>")
    logged = lines(caplog)
    assert not any("answered" in line for line in logged), logged
    assert "email: reply to <q1@example.org> from ann@example.com queued for sending" in logged
    [failure] = [line for line in logged if "not sent" in line]
    assert failure.startswith("email: reply to <q1@example.org> not sent to ann@example.com (")
    assert "Connect" in failure and "; queued, trying again in " in failure


async def test_a_reply_handed_to_smtp_is_logged_as_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors")
    server = CaptureServer(CaptureHandler())
    server.start()
    connector = connector_for(tmp_path, server.port)
    await connector.start()
    try:
        await answer_one(connector, "<q2@example.org>")
        store = connector.services.store
        await wait_for(lambda: not store.pending("email"))
    finally:
        await connector.stop()
        server.stop()
    [answered] = [line for line in lines(caplog) if "answered" in line]
    assert answered.startswith("email: answered <q2@example.org> (reply <cc-")
    assert answered.endswith(" sent to ann@example.com)")


async def test_a_reply_given_up_is_logged_as_given_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors")
    await one_failed_send(tmp_path, "<q3@example.org>", max_attempts=1)
    [failure] = [line for line in lines(caplog) if "not sent" in line]
    assert failure.endswith("; given up")


@pytest.fixture
def session_log() -> Iterator[logging.Logger]:
    """aiosmtpd's logger as a process starts with it (and as it was, afterwards)."""
    logger = logging.getLogger(SESSION_LOG)
    before = logger.level
    logger.setLevel(logging.NOTSET)
    yield logger
    logger.setLevel(before)


async def send_one(connector: EmailConnector) -> None:
    port = connector.listen_port
    assert port is not None
    await aiosmtplib.send(
        inbound_mail(message_id="<smtp@example.org>"),
        sender="ann@example.com",
        recipients=[BOT],
        hostname="127.0.0.1",
        port=port,
        timeout=10,
    )


@pytest.mark.parametrize(("level", "transcript"), [(logging.INFO, False), (logging.DEBUG, True)])
async def test_smtp_sessions_are_not_logged_line_by_line_unless_debugging(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    session_log: logging.Logger,
    level: int,
    transcript: bool,
) -> None:
    outbound = closed_port()  # before the level: the test's own SMTP server logs too
    caplog.set_level(level)  # the root logger's level, as `citecast serve` sets it
    connector = connector_for(tmp_path, outbound)
    await connector.start()
    try:
        await send_one(connector)
    finally:
        await connector.stop()
    session = [r for r in caplog.records if r.name == SESSION_LOG and r.levelno < logging.WARNING]
    assert bool(session) is transcript
    assert session_log.getEffectiveLevel() == (logging.WARNING if not transcript else level)


async def test_a_level_set_on_the_smtp_log_is_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, session_log: logging.Logger
) -> None:
    caplog.set_level(logging.INFO)
    session_log.setLevel(logging.INFO)
    connector = connector_for(tmp_path, closed_port())
    await connector.start()
    await connector.stop()
    assert session_log.level == logging.INFO


def commented_block(section: str) -> str:
    """The shipped config.yaml's commented-out ``section`` block, uncommented."""
    text = CONFIG_YAML.read_text(encoding="utf-8").splitlines()
    start = text.index(f"# {section}:")
    block: list[str] = []
    for line in text[start:]:
        if not line.startswith("#"):
            break
        block.append(line[2:])
    return "\n".join(block) + "\n"


def test_the_commented_email_block_shows_the_defaults() -> None:
    data = yaml.safe_load(commented_block("email"))
    shown = EmailSettings.model_validate(data["email"])
    assert shown.model_dump() == EmailSettings().model_dump()


def test_email_enabled_without_an_address_says_it_is_required() -> None:
    settings = Settings.model_validate({"email": {"enabled": True}})
    with pytest.raises(ConfigError) as refused:
        email.check_settings(settings.email)
    assert str(refused.value) == (
        "email.address: required when email is enabled"
        " (the bot's own address, such as help@docs.example.com)"
    )


def test_an_address_left_blank_by_an_unset_variable_names_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VAR, raising=False)
    path = tmp_path / "config.yaml"
    path.write_text(f"email:\n  enabled: true\n  address: ${{{VAR}}}\n", encoding="utf-8")
    settings = load_settings(path)
    with pytest.raises(ConfigError) as refused:
        email.check_settings(settings.email)
    assert str(refused.value) == (
        f"email.address: required when email is enabled: ${{{VAR}}} is not set in the environment"
    )
