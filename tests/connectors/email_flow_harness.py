"""Email flow test harness: a fixed answerer, SMTP capture fixtures, the connector on loopback.

A flow test takes the ``flow`` fixture (capture server, the cited answerer, its manual) and runs
the connector for as long as an ``async with flow.running(...)`` block; it asserts after the block,
on a stopped connector, as it did with ``try: ... finally: await connector.stop()``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any, cast

import aiosmtplib
import pytest

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.email import EmailConnector
from bot.errors import BackendError
from bot.models import Answer, Citation, Exchange, Source
from tests.fakes.email_world import BOT, USER, email_settings, services
from tests.fakes.smtp_capture import CapturedMail, CaptureHandler, CaptureServer


class StaticAnswerer:
    """Answers every question with one fixed Answer; can fail the first N calls."""

    def __init__(self, answer: Answer, fail_first: int = 0) -> None:
        self.answer = answer
        self.fail_first = fail_first
        self.calls: list[tuple[str, frozenset[str], tuple[Exchange, ...]]] = []

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.calls.append((question, audience, tuple(history)))
        if self.fail_first > 0:
            self.fail_first -= 1
            raise BackendError("backend down")
        return Reply(self.answer, {"sources": []})

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        yield await self.reply(question, audience, history)


FILE_BYTES = bytes(range(256)) * 64


def write_manual(directory: Path) -> Path:
    """The cited PDF file, ``FILE_BYTES``, as "admin manual.pdf" in ``directory``."""
    path = directory / "admin manual.pdf"
    path.write_bytes(FILE_BYTES)
    return path


def cited_answer(manual: Path) -> Answer:
    guide = Source(id="guide", title="Install guide", url="https://docs.example.org/install")
    faq = Source(id="faq", title="FAQ [beta] *draft*", url="https://docs.example.org/faq#arm")
    pdf = Source(
        id="manual", title="Admin manual", path=str(manual), filename="admin manual.pdf",
        media_type="application/pdf", kind="file", page=4,
    )  # fmt: skip
    return Answer(
        text=(
            "Install it with `pip install citecast`[^1]. ARM works too[^2].\n\n"
            "Upgrades are covered in the admin manual[^3]."
        ),
        citations=(
            Citation(1, guide, 1, quote="pip install citecast"),
            Citation(2, faq, 2),
            Citation(3, pdf, 3),
        ),
    )


@contextmanager
def capturing() -> Iterator[CaptureServer]:
    """A capture server on loopback for the connector's outbound replies, stopped on exit."""
    server = CaptureServer(CaptureHandler())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def capture() -> Iterator[CaptureServer]:
    """The capture server alone, for tests that start their connector their own way."""
    with capturing() as server:
        yield server


async def send(connector: EmailConnector, raw: bytes, sender: str = USER) -> None:
    port = connector.listen_port
    assert port
    await aiosmtplib.send(raw, sender=sender, recipients=[BOT], hostname="127.0.0.1", port=port)


def sole_parts(msg: EmailMessage) -> list[EmailMessage]:
    return [cast(EmailMessage, part) for part in msg.iter_parts()]


async def start(
    tmp_path: Path,
    answerer: StaticAnswerer,
    port: int,
    *,
    web: dict[str, Any] | None = None,
    capabilities: dict[str, Any] | None = None,
    index: dict[str, Any] | None = None,
    **email: object,
) -> EmailConnector:
    """The connector on loopback; ``web``, ``index`` and ``capabilities["email"]`` override
    those settings."""
    settings = email_settings(port, **email)
    update: dict[str, Any] = {}
    if web:
        update["web"] = settings.web.model_copy(update=web)
    if index:
        update["index"] = settings.index.model_validate({**settings.index.model_dump(), **index})
    if capabilities:
        update["capabilities"] = {**settings.capabilities, "email": capabilities}
    settings = settings.model_copy(update=update)
    connector = EmailConnector(services(tmp_path, answerer, settings))
    await connector.start()
    return connector


@dataclass(frozen=True)
class EmailFlow:
    """One flow test's world: where its stores go, the capture server, the cited answerer."""

    tmp_path: Path
    capture: CaptureServer
    manual: Path
    answerer: StaticAnswerer

    @property
    def mails(self) -> list[CapturedMail]:
        """The replies the capture server has accepted so far."""
        handler: CaptureHandler = self.capture.handler
        return handler.mails

    @asynccontextmanager
    async def running(
        self,
        answerer: StaticAnswerer | None = None,
        *,
        under: str = "",
        web: dict[str, Any] | None = None,
        capabilities: dict[str, Any] | None = None,
        index: dict[str, Any] | None = None,
        **email: object,
    ) -> AsyncIterator[EmailConnector]:
        """The connector (see ``start``) from entering the block until leaving it, however left.

        ``answerer`` replaces the flow's own; ``under`` names a folder of ``tmp_path`` for the
        store, so that two runs in one test do not share one.
        """
        answerer = self.answerer if answerer is None else answerer
        connector = await start(
            self.tmp_path / under, answerer, self.capture.port,
            web=web, capabilities=capabilities, index=index, **email,
        )  # fmt: skip
        try:
            yield connector
        finally:
            await connector.stop()


@pytest.fixture
def flow(tmp_path: Path) -> Iterator[EmailFlow]:
    """A capture server and ``StaticAnswerer(cited_answer(manual))``, the manual in tmp_path."""
    manual = write_manual(tmp_path)
    with capturing() as capture:
        yield EmailFlow(tmp_path, capture, manual, StaticAnswerer(cited_answer(manual)))
