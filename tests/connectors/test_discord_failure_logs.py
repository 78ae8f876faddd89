"""Expected failures are one log line with their cause; only a bug keeps its traceback (found in
a QA pass: a model backend's BackendError, and a send that failed after ``max_retries``, each
logged a multi-line traceback)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.assistant.base import Reply, ReplyEvent
from bot.models import Exchange
from tests.connectors.discord_edit_helpers import GUIDE
from tests.connectors.test_discord_files import manual
from tests.connectors.test_discord_harness import Harness, harness
from tests.connectors.test_discord_permissions import deny
from tests.fakes.answerer import BrokenAnswerer
from tests.fakes.discord_access import ATTACH_FILES

__all__ = ["harness"]


class BuggyAnswerer:
    """Fails as a bug does: not one of citecast's errors."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        raise KeyError("answer")

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        raise KeyError("answer")
        yield  # pragma: no cover - makes this an async generator


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("bot.") and r.levelno >= logging.ERROR]


async def ask(h: Harness, caplog: pytest.LogCaptureFixture) -> str:
    question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
    with caplog.at_level(logging.INFO):
        await h.deliver(question)
    return str(question["id"])


async def test_a_backend_error_is_one_error_line_with_its_cause(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.connector.services.assistant = BrokenAnswerer(())
    qid = await ask(harness, caplog)
    (record,) = errors(caplog)
    assert record.exc_info is None
    assert record.getMessage() == f"discord: answering {qid} failed: backend down"
    # the asker still hears of it
    (apology,) = harness.fake.messages_in(harness.world.general)
    assert apology["content"].startswith("Sorry")


async def test_a_send_given_up_after_max_retries_is_one_error_line(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].")
    tries = h.connector.settings.max_retries + 1
    for _ in range(tries):
        h.fake.fail_next("POST", r"/channels/\d+/messages$", 503)
    qid = await ask(h, caplog)
    (record,) = errors(caplog)
    assert record.exc_info is None
    message = record.getMessage()
    assert message.startswith(f"discord: answering {qid} failed: sending a message failed after")
    assert f"after {tries} tries" in message and "503" in message


async def test_a_bug_keeps_its_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.connector.services.assistant = BuggyAnswerer()
    await ask(harness, caplog)
    (record,) = errors(caplog)
    assert record.exc_info is not None and record.exc_info[0] is KeyError


async def test_files_refused_is_logged_with_one_prefix(
    harness: Harness, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    # Attach Files taken away without the bot hearing of it: the sources go again as text
    h = harness
    h.use([manual(tmp_path)], "See the manual [1].")
    deny(h.fake, h.world.general, ATTACH_FILES)
    await ask(h, caplog)
    (record,) = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert record.getMessage().startswith("discord: editing a message with files refused: 403")
