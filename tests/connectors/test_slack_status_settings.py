"""The assistant-thread statuses are settings: what is configured is what Slack is sent.

``slack.thinking_status`` while answering, ``slack.queued_status`` while the answer waits in the
outbox, ``slack.failed_status`` when not even the apology could be posted. Each is one line of
at most 50 characters (Slack shows it after the app's name); anything else fails at start
with the key.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import parse_settings
from bot.errors import ConfigError
from tests.connectors.slack_harness import DM, CannedAnswerer, answer_citing, slack_world
from tests.connectors.test_slack_thinking_status import (
    SERVER_ERRORS,
    ask_in_assistant_thread,
    statuses_set,
    texts,
)
from tests.fakes.answerer import BrokenAnswerer

THINKING = "is looking it up in the handbook"
QUEUED = "Slack is busy; the answer follows in a minute"
FAILED = "could not answer; please ask the help desk"


async def test_the_configured_thinking_and_queued_statuses_reach_slack(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, thinking_status=THINKING, queued_status=QUEUED
    ) as world:
        world.fake.fail("chat.postMessage", status=500, times=SERVER_ERRORS)
        thread = await ask_in_assistant_thread(world)
        assert statuses_set(world, thread) == [THINKING, QUEUED]
        assert world.fake.status(DM, thread) == QUEUED
        assert await world.connector.outbox.flush() == 1
        assert texts(world, thread) == ["Fact 1.[1]"]
        assert world.fake.status(DM, thread) == ""


async def test_the_configured_failed_status_reaches_slack(tmp_path: Path) -> None:
    async with slack_world(tmp_path, BrokenAnswerer(()), failed_status=FAILED) as world:
        world.fake.fail("chat.postMessage", status=500, times=None)
        thread = await ask_in_assistant_thread(world)
        assert texts(world, thread) == []
        assert world.fake.status(DM, thread) == FAILED


def test_the_defaults_are_the_texts_shown_so_far() -> None:
    slack = parse_settings({}).slack
    assert slack.thinking_status == "thinking\u2026"
    assert slack.queued_status == "will post the answer here shortly"
    assert slack.failed_status == "couldn't answer this time; please ask again"


@pytest.mark.parametrize("key", ["thinking_status", "queued_status", "failed_status"])
@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("x" * 51, "at most 50 characters"),
        ("answer follows\nsoon", "one line"),
        ("answer\tfollows", "one line"),
    ],
    ids=["too-long", "two-lines", "tab"],
)
def test_a_status_slack_cannot_show_fails_at_start_with_its_key(
    key: str, value: str, reason: str
) -> None:
    with pytest.raises(ConfigError, match=rf"slack\.{key}: .*{reason}"):
        parse_settings({"slack": {key: value}})


@pytest.mark.parametrize("key", ["thinking_status", "queued_status", "failed_status"])
def test_a_status_may_be_empty_or_use_the_whole_length(key: str) -> None:
    # "" removes the status in Slack: no note at all is a choice a workspace may make
    for value in ("", "x" * 50, "ist gleich da \u2026 \U0001f50e"):
        assert getattr(parse_settings({"slack": {key: value}}).slack, key) == value
