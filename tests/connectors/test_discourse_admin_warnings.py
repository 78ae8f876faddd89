"""Warnings an admin should notice: a short webhook secret, a file the forum refuses as too big.

A QA pass found a webhook secret of a few characters accepted silently (the README asks for "a
long random secret"), and an upload refused for its size logged only at INFO, once per answer.
Now a secret shorter than 16 characters is one warning at start, and a file refused on its own
is a warning the first time (per file and process), INFO after. Driven through the real
connector against the loopback fake forum.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.connectors.discourse_settings import MIN_SECRET_LENGTH
from bot.models import Source
from tests.connectors.discourse_harness import (
    PUBLIC,
    SECRET,
    Harness,
    forum,
    harness,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]


def secret_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if "webhook_secret" in r.getMessage() and r.levelno == logging.WARNING
    ]


async def test_a_short_webhook_secret_is_warned_about_at_start(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "s3cret-webhook"
    assert len(secret) < MIN_SECRET_LENGTH
    async with opened_harness(forum, tmp_path, webhook_secret=secret) as h:
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await h.connector.start()
    (message,) = secret_warnings(caplog)
    assert f"only {len(secret)} characters" in message and "DISCOURSE_WEBHOOK_SECRET" in message
    assert secret not in message  # the secret itself is never logged


async def test_a_long_webhook_secret_is_not_warned_about(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    assert len(SECRET) >= MIN_SECRET_LENGTH  # the harness's secret
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.connector.start()
    assert secret_warnings(caplog) == []


async def test_a_file_too_big_is_a_warning_once_per_file(
    harness: Harness, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    forum = harness.forum
    forum.authorized_extensions = ("pdf",)
    forum.max_attachment_bytes = 5
    path = tmp_path / "manual.pdf"
    path.write_bytes(b"%PDF- a manual too big for this forum")
    manual = Source(id="manual", title="Admin manual", path=str(path), filename="manual.pdf",
                    media_type="application/pdf", kind="file")  # fmt: skip
    caplog.set_level(logging.INFO, logger="bot.connectors")
    for question in ("How do I upgrade?", "How do I back up?"):
        harness.script([manual], "The admin manual covers it [1].")
        await harness.deliver(forum.new_topic(question, question, category_id=PUBLIC))
    refusals = [r for r in caplog.records if "refused upload of manual.pdf" in r.getMessage()]
    assert [r.levelno for r in refusals] == [logging.WARNING, logging.INFO]
    assert "too big" in refusals[0].getMessage()
    assert "max attachment size kb" in refusals[0].getMessage()
    assert len(forum.bot_posts()) == 2  # both answers posted, the file by name
