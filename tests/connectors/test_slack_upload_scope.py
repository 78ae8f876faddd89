"""A bot token without ``files:write`` cannot upload the cited files: the answer must not say
"(attached: …)" above nothing, and the log says once which scope to add."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.models import Answer, Citation, Source
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    context_texts,
    mention,
    slack_world,
)


def salaries_answer(path: Path) -> Answer:
    path.write_text("# Salaries\n\nBands are reviewed in March.\n")
    source = Source(
        id="salaries", title="", filename="salaries.md", path=str(path),
        media_type="text/markdown",
    )  # fmt: skip
    return Answer(
        text="Bands are reviewed in March.[^1]",
        citations=(Citation(n=1, source=source, source_number=1),),
    )


def scope_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and "files:write" in r.getMessage()
    ]


@asynccontextmanager
async def world_without_files_write(tmp_path: Path) -> AsyncIterator[SlackWorld]:
    """A Slack world whose bot token lacks ``files:write``, answering citing salaries.md."""
    answerer = CannedAnswerer(salaries_answer(tmp_path / "salaries.md"))
    async with slack_world(tmp_path, answerer) as world:
        world.fake.scopes.remove("files:write")
        yield world


async def test_without_files_write_known_at_start_files_are_named_not_attached(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with world_without_files_write(tmp_path) as world:
        await world.connector.start()
        await world.post_event(mention("when are bands reviewed?"))
        await world.post_event(mention("and again?"))
        sources = context_texts(world.fake.bot_messages(PUBLIC))
        assert len(sources) == 2 and all("salaries.md" in s for s in sources)
        assert not any("attached" in s for s in sources)
        assert world.fake.calls_to("files.getUploadURLExternal") == []
    assert len(scope_warnings(caplog)) == 1


async def test_scopes_learned_by_the_first_request_keep_files_from_being_attached(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # not started: learned by the first request
    async with world_without_files_write(tmp_path) as world:
        await world.post_event(mention("when are bands reviewed?"))
        [sources] = context_texts(world.fake.bot_messages(PUBLIC))
        assert "salaries.md" in sources and "attached" not in sources
        assert world.fake.calls_to("files.getUploadURLExternal") == []
    assert len(scope_warnings(caplog)) == 1


async def test_an_upload_refused_later_names_the_scope_once_and_later_answers_name_the_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(salaries_answer(tmp_path / "salaries.md"))
    async with slack_world(tmp_path, answerer) as world:
        await world.post_event(mention("when are bands reviewed?"))
        assert len(world.fake.state.uploads) == 1
        world.fake.scopes.remove("files:write")  # the scope was taken away while serving
        await world.post_event(mention("and again?"))
        await world.post_event(mention("and once more?"))
        assert len(world.fake.calls_to("files.getUploadURLExternal")) == 2
        [last] = context_texts(world.fake.bot_messages(PUBLIC))[2:]
        assert "salaries.md" in last and "attached" not in last
    assert len(scope_warnings(caplog)) == 1
    assert not [r for r in caplog.records if "uploading salaries.md failed" in r.getMessage()]
