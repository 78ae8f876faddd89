"""Slack announces a cited file as attached only when it uploads it: within
``slack.max_file_bytes`` and within ``capabilities.slack.max_file_bytes`` (the smaller decides).

Found in a config-key audit: a set capability replaced the slack key when the citation was
rendered, while the upload checked only the slack key, so a 5,000-byte PDF with
``slack.max_file_bytes: 1000`` and the capability at 10,000,000 read "(attached: handbook.pdf)"
and never arrived.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tests.connectors.slack_harness as harness
from bot.config import Settings
from tests.connectors.slack_harness import PUBLIC, CannedAnswerer, context_texts, mention
from tests.connectors.test_slack_delivery import file_answer

TS = "1600000000.032000"
SIZE = 5000


def with_capability(monkeypatch: pytest.MonkeyPatch, max_file_bytes: int) -> None:
    """The harness's deployment with ``capabilities.slack.max_file_bytes`` set."""

    def settings(**sections: Any) -> Settings:
        return Settings(capabilities={"slack": {"max_file_bytes": max_file_bytes}}, **sections)

    monkeypatch.setattr(harness, "Settings", settings)


async def posted(tmp_path: Path, slack_bytes: int) -> tuple[int, list[str]]:
    """How many uploads a 5,000-byte cited PDF started, and the source list shown."""
    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(b"%PDF-1.4 " + b"x" * (SIZE - 9))
    answerer = CannedAnswerer(file_answer(pdf))
    async with harness.slack_world(tmp_path, answerer, max_file_bytes=slack_bytes) as world:
        await world.post_event(mention("leave?", ts=TS))
        uploads = len(world.fake.calls_to("files.getUploadURLExternal"))
        return uploads, context_texts(world.fake.bot_messages(PUBLIC))


@pytest.mark.parametrize(("slack_bytes", "capability"), [(1000, 10_000_000), (10_000_000, 1000)])
async def test_a_file_over_either_limit_is_named_not_attached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slack_bytes: int, capability: int
) -> None:
    with_capability(monkeypatch, capability)
    uploads, sources = await posted(tmp_path, slack_bytes)
    assert uploads == 0
    assert any("handbook.pdf" in s for s in sources), sources
    assert not any("attached" in s for s in sources), sources


async def test_a_file_within_both_limits_is_attached_and_uploaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_capability(monkeypatch, 10_000_000)
    uploads, sources = await posted(tmp_path, 6000)
    assert uploads == 1
    assert any("attached" in s and "handbook.pdf" in s for s in sources), sources
