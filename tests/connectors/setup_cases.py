"""Citecast not set up, as the real assistant meets it, for the channels' tests.

Two causes only the operator can fix: the model endpoint refuses the key (the real ``openai``
client against the loopback fake, which answers 401) and no knowledge index was ever built
(the built-in extractive answerer over a path ``citecast ingest`` never wrote). Each channel
must answer both with ``NOT_SET_UP_REPLY`` and log the cause once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.config_file import parse_settings
from tests.fakes.openai_server import FakeOpenAI

REFUSED_KEY = "refused key"
NO_INDEX = "no index"
CASES = (REFUSED_KEY, NO_INDEX)

# what the operator's one log line must say for each cause: what is wrong and how to fix it
CAUSE = {
    REFUSED_KEY: "the key in assistant.openai.api_key was refused",
    NO_INDEX: "run `citecast ingest PATH`",
}


@asynccontextmanager
async def misconfigured(case: str, tmp_path: Path) -> AsyncIterator[Assistant]:
    """The configured assistant, not set up for reason ``case`` (one of :data:`CASES`)."""
    index = {"path": str(tmp_path / "never-ingested" / "index.db")}
    if case == NO_INDEX:
        yield Assistant.from_settings(parse_settings({"index": index}))
        return
    async with FakeOpenAI() as fake:
        openai = {"base_url": fake.base_url, "api_key": "sk-wrong", "max_retries": 0}
        settings = parse_settings(
            {"index": index, "assistant": {"backend": "openai", "openai": openai}}
        )
        yield Assistant.from_settings(settings)


def alarms(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The operator's ERROR lines about citecast not being set up."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "bot.connectors.setup_errors" and record.levelname == "ERROR"
    ]


def assert_told_once(caplog: pytest.LogCaptureFixture, case: str) -> None:
    """One ERROR line for the cause, naming it and its fix, and no traceback for it."""
    [line] = alarms(caplog)
    assert CAUSE[case] in line, line
    assert "not set up correctly" in line
    tracebacks = [r for r in caplog.records if r.exc_info and r.name.startswith("bot.")]
    assert tracebacks == []
