"""The durable outbox against a real aiosmtpd server: retries, restarts, permanent refusals."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.email import EmailConnector
from bot.models import Answer, Citation, Exchange, Source
from bot.store import Store
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer, wait_for

ANSWER = Answer(
    text="See the install guide[^1].",
    citations=(Citation(1, Source(id="g", title="Guide", url="https://docs.example.org/g"), 1),),
)


class OneAnswer:
    """Always the same cited answer."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        return Reply(ANSWER, {})

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        yield Reply(ANSWER, {})


def connector_for(tmp_path: Path, port: int, **email: object) -> EmailConnector:
    return EmailConnector(services(tmp_path, OneAnswer(), email_settings(port, **email)))


async def answer_one(connector: EmailConnector, message_id: str = "<q@example.com>") -> str:
    outcome = await connector.handle_message(inbound_mail(message_id=message_id))
    assert outcome.status == "answered" and outcome.reply_id
    return outcome.reply_id


async def test_refused_with_4xx_then_accepted_is_sent_once(tmp_path: Path) -> None:
    handler = CaptureHandler(refuse_first=2)
    server = CaptureServer(handler)
    server.start()
    connector = connector_for(tmp_path, server.port)
    await connector.start()
    try:
        item_id = await answer_one(connector)
        store = connector.services.store
        await wait_for(lambda: not store.pending("email"))
    finally:
        await connector.stop()
        server.stop()
    assert handler.attempts == 3
    assert len(handler.mails) == 1
    item = store.outbox_item(item_id)
    assert item is not None and item.status == "sent" and item.attempts == 2
    assert item.last_error is not None and "451" in item.last_error


async def test_server_down_then_back_after_a_restart_is_sent_once(tmp_path: Path) -> None:
    probe = CaptureServer(CaptureHandler())
    probe.start()
    port = probe.port
    probe.stop()  # nothing listens on ``port`` now

    first = connector_for(tmp_path, port)
    await first.start()
    try:
        item_id = await answer_one(first)
        store = first.services.store

        def failed_once() -> bool:
            item = store.outbox_item(item_id)
            return item is not None and item.attempts >= 1

        await wait_for(failed_once)
    finally:
        await first.stop()
    pending = store.pending("email")
    assert [p.id for p in pending] == [item_id]
    stored_id = pending[0].payload["message_id"]

    handler = CaptureHandler()
    server = CaptureServer(handler, port=port)
    server.start()
    second = connector_for(tmp_path, port)
    await second.start()
    try:
        again = await second.handle_message(inbound_mail(message_id="<q@example.com>"))
        await wait_for(lambda: not second.services.store.pending("email"))
    finally:
        await second.stop()
        server.stop()
    assert again.status == "duplicate"
    assert len(handler.mails) == 1
    assert handler.mails[0].message()["Message-ID"] == stored_id


async def wait_until_dead(store: Store, item_id: str) -> None:
    """Wait until the outbox gives up on ``item_id``."""

    def dead() -> bool:
        item = store.outbox_item(item_id)
        return item is not None and item.status == "dead"

    await wait_for(dead)


async def test_permanent_refusal_is_not_retried(tmp_path: Path) -> None:
    handler = CaptureHandler(reject_recipients="550 5.1.1 No such user")
    server = CaptureServer(handler)
    server.start()
    connector = connector_for(tmp_path, server.port)
    await connector.start()
    try:
        item_id = await answer_one(connector)
        store = connector.services.store
        await wait_until_dead(store, item_id)
    finally:
        await connector.stop()
        server.stop()
    item = store.outbox_item(item_id)
    assert item is not None and item.attempts == 1
    assert handler.mails == []


async def test_gives_up_after_max_attempts(tmp_path: Path) -> None:
    handler = CaptureHandler(refuse_first=1000)
    server = CaptureServer(handler)
    server.start()
    connector = connector_for(tmp_path, server.port, max_attempts=3)
    await connector.start()
    try:
        item_id = await answer_one(connector)
        store = connector.services.store
        await wait_until_dead(store, item_id)
    finally:
        await connector.stop()
        server.stop()
    assert handler.attempts == 3


async def test_a_corrupt_item_does_not_stop_the_worker(tmp_path: Path) -> None:
    handler = CaptureHandler()
    server = CaptureServer(handler)
    server.start()
    store = Store(tmp_path / "store.db")
    store.enqueue("email", {"not": "a mail"}, "broken")
    store.close()
    connector = connector_for(tmp_path, server.port)
    await connector.start()
    try:
        await answer_one(connector)
        await wait_for(lambda: not connector.services.store.pending("email"))
    finally:
        await connector.stop()
        server.stop()
    broken = connector.services.store.outbox_item("broken")
    assert broken is not None and broken.status == "dead"
    assert len(handler.mails) == 1
