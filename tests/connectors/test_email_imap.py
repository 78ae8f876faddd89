"""IMAP polling (stdlib imaplib in a thread) against the fake IMAP4rev1 server on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.email import EmailConnector
from bot.connectors.email_imap import StartPoints
from bot.connectors.email_imap_names import mailbox_key
from bot.errors import BackendError, ConfigError
from bot.models import Answer, Citation, Exchange, Source
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer, wait_for

ANSWER = Answer(
    text="Restart the service[^1].",
    citations=(Citation(1, Source(id="ops", title="Ops", url="https://docs.example.org/ops"), 1),),
)


class CountingAnswerer:
    """A fixed answer; fails the first ``fail_first`` calls; records questions."""

    def __init__(self, fail_first: int = 0) -> None:
        self.fail_first = fail_first
        self.questions: list[str] = []

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.questions.append(question)
        if self.fail_first > 0:
            self.fail_first -= 1
            raise BackendError("backend down")
        return Reply(ANSWER, {})

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        yield await self.reply(question, audience, history)


@pytest.fixture
def capture() -> Iterator[CaptureServer]:
    server = CaptureServer(CaptureHandler())
    server.start()
    yield server
    server.stop()


@asynccontextmanager
async def polling(imap: FakeImapServer, connector: EmailConnector) -> AsyncIterator[None]:
    """Run ``connector`` against the started ``imap`` server; stop both on the way out."""
    await connector.start()
    try:
        yield
    finally:
        await connector.stop()
        await imap.stop()


def imap_connector(
    tmp_path: Path,
    answerer: CountingAnswerer,
    server: FakeImapServer,
    smtp_port: int,
    *,
    idle: bool = True,
    poll_seconds: float = 0.05,
    first_start: bool = False,
    mailbox: str = "INBOX",
    password: str = "secret",
    **email: object,
) -> EmailConnector:
    """A connector polling ``server``. Unless ``first_start``, the store says the bot has
    watched the mailbox since before its first message, so mail already there is answered
    (a restart); on a first start only mail that arrives after it is."""
    settings = email_settings(
        smtp_port,
        inbound="imap",
        imap={
            "host": "127.0.0.1",
            "port": server.port,
            "ssl": False,
            "username": "bot",
            "password": password,
            "poll_seconds": poll_seconds,
            "timeout": 5,
            "idle": idle,
            "mailbox": mailbox,
        },
        **email,
    )
    connector = EmailConnector(services(tmp_path, answerer, settings))
    if not first_start:
        points = StartPoints(connector.services.store)
        points.put(mailbox_key(settings.email.imap), server.uidvalidity, 1)
    return connector


def seen(imap: FakeImapServer, uid: int) -> bool:
    return "\\Seen" in imap.by_uid(uid).flags


async def test_idle_poller_answers_waiting_and_new_mail(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer()
    await imap.start()
    old = imap.deliver(inbound_mail("Already read", message_id="<old@example.com>"))
    imap.by_uid(old).flags.add("\\Seen")
    waiting = imap.deliver(inbound_mail("Why is the disk full?", message_id="<w@example.com>"))
    answerer = CountingAnswerer()
    # A long poll interval: only the server's EXISTS during IDLE can bring the new mail in
    # time, and stop() must still end the IDLE at once.
    connector = imap_connector(tmp_path, answerer, imap, capture.port, poll_seconds=600)
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, waiting) and "IDLE" in imap.commands)
        fresh = imap.deliver(inbound_mail("How do I rotate logs?", message_id="<n@example.com>"))
        await wait_for(lambda: seen(imap, fresh))
        await wait_for(lambda: len(capture.handler.mails) == 2)
    assert answerer.questions == ["Why is the disk full?", "How do I rotate logs?"]
    replies = [m.message() for m in capture.handler.mails]
    assert {r["In-Reply-To"] for r in replies} == {"<w@example.com>", "<n@example.com>"}
    assert "UID FETCH" in imap.commands and "UID STORE" in imap.commands
    assert "LOGOUT" in imap.commands


async def test_polling_without_idle(tmp_path: Path, capture: CaptureServer) -> None:
    imap = FakeImapServer(idle=False)
    await imap.start()
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port)
    async with polling(imap, connector):
        await wait_for(lambda: "NOOP" in imap.commands)
        uid = imap.deliver(inbound_mail("Is there an API?", message_id="<api@example.com>"))
        await wait_for(lambda: seen(imap, uid))
    assert answerer.questions == ["Is there an API?"]
    assert "IDLE" not in imap.commands


async def test_failed_handling_leaves_the_mail_unseen_and_retries(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer()
    await imap.start()
    uid = imap.deliver(inbound_mail("Where are backups?", message_id="<b@example.com>"))
    answerer = CountingAnswerer(fail_first=1)
    connector = imap_connector(tmp_path, answerer, imap, capture.port, idle=False)
    async with polling(imap, connector):
        await wait_for(lambda: len(answerer.questions) >= 1)
        await wait_for(lambda: seen(imap, uid))
        await wait_for(lambda: len(capture.handler.mails) == 1)
    assert answerer.questions == ["Where are backups?", "Where are backups?"]


async def test_robot_mail_is_marked_seen_without_answer(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer()
    await imap.start()
    robot = imap.deliver(inbound_mail(headers={"Auto-Submitted": "auto-replied"}))
    too_big = imap.deliver(inbound_mail("big", message_id="<big@x>", attachment=bytes(50_000)))
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, max_message_bytes=20_000)
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, robot) and seen(imap, too_big))
    assert answerer.questions == []


async def test_a_wrong_password_stops_the_start_instead_of_retrying(
    tmp_path: Path, capture: CaptureServer
) -> None:
    # it used to start and retry the login for ever (see test_email_imap_refused)
    imap = FakeImapServer(password="other")
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port)
    with pytest.raises(ConfigError, match=r"^email\.imap\.password: the IMAP server refused"):
        await connector.start()
    await connector.stop()
    await imap.stop()
    assert imap.logins == 0 and imap.commands.count("LOGIN") == 1


async def test_reconnects_after_the_server_drops_the_connection(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer()
    await imap.start()
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, poll_seconds=600)
    async with polling(imap, connector):
        await wait_for(lambda: "IDLE" in imap.commands)
        imap.disconnect_clients()
        uid = imap.deliver(inbound_mail("Still there?", message_id="<s@example.com>"))
        await wait_for(lambda: seen(imap, uid))
    assert imap.logins >= 2
    assert answerer.questions == ["Still there?"]
