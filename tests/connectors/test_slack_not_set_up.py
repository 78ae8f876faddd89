"""Slack when citecast is not set up (a refused key, no index): the asker is told so, not "try
again", and the operator's log names the cause and its fix once, not once per question."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.setup_errors import NOT_SET_UP_REPLY
from tests.connectors.setup_cases import (
    CASES,
    NO_INDEX,
    REFUSED_KEY,
    assert_told_once,
    misconfigured,
)
from tests.connectors.slack_harness import DM, PUBLIC, mention, slack_world, slash
from tests.connectors.test_slack_thinking_status import ask_in_assistant_thread, texts


@pytest.mark.parametrize("case", CASES)
async def test_each_question_is_told_citecast_is_not_set_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    async with (
        misconfigured(case, tmp_path) as assistant,
        slack_world(tmp_path, assistant) as world,
    ):
        await world.post_event(mention("how do I install it?", ts="1600000000.000300"))
        await world.post_event(mention("and on Linux?", ts="1600000000.000400"))
        posted = [m["text"] for m in world.fake.bot_messages(PUBLIC)]
        assert posted == [NOT_SET_UP_REPLY, NOT_SET_UP_REPLY]
        assert all("again" not in text.lower() for text in posted)
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.000300")
        assert [t.status for t in turns] == ["failed"]
    assert_told_once(caplog, case)


@pytest.mark.parametrize("streaming", ["native", "edit"])
async def test_a_streamed_answer_is_replaced_by_the_same_reply(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, streaming: str
) -> None:
    async with (
        misconfigured(REFUSED_KEY, tmp_path) as assistant,
        slack_world(tmp_path, assistant, streaming=streaming) as world,
    ):
        thread = await ask_in_assistant_thread(world)
        assert texts(world, thread) == [NOT_SET_UP_REPLY]
    assert_told_once(caplog, REFUSED_KEY)


async def test_the_status_does_not_invite_asking_again_when_nothing_can_be_posted(
    tmp_path: Path,
) -> None:
    async with (
        misconfigured(NO_INDEX, tmp_path) as assistant,
        slack_world(tmp_path, assistant) as world,
    ):
        world.fake.fail("chat.postMessage", status=500, times=None)
        thread = await ask_in_assistant_thread(world)
        assert world.fake.status(DM, thread) == "isn't set up correctly yet"


@pytest.mark.parametrize("case", CASES)
async def test_a_private_answer_says_so_too(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    async with (
        misconfigured(case, tmp_path) as assistant,
        slack_world(tmp_path, assistant) as world,
    ):
        assert await slash(world, "how do I install it?") == 200
        assert [r["text"] for r in world.fake.responses] == [NOT_SET_UP_REPLY]
    assert_told_once(caplog, case)
