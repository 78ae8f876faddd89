"""Thread history: every page of a long thread is read, and a failing read costs only history."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Exchange
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)
from tests.fakes.slack_api import FakeSlackAPI

# The fake answers a hung call after this long, past the client's timeout (1 s).
HANG = 1.5


def long_thread(fake: FakeSlackAPI, exchanges: int) -> tuple[str, str]:
    """A thread of ``exchanges`` questions and answers; returns its ts and a follow-up's ts."""
    root = fake.add_message(PUBLIC, "<@U0BOT> question 0", ASKER)
    for n in range(exchanges):
        if n:
            fake.add_message(PUBLIC, f"<@U0BOT> question {n}", ASKER, thread_ts=root)
        fake.add_message(PUBLIC, f"answer {n}", "U0BOT", thread_ts=root, bot_id="B0BOT")
    follow_up = fake.add_message(PUBLIC, "<@U0BOT> and then?", ASKER, thread_ts=root)
    return root, follow_up


async def test_a_long_thread_gives_its_latest_exchanges(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, history_turns=3) as world:
        # 300 exchanges are 600 messages: the latest are on the third page
        root, follow_up = long_thread(world.fake, 300)
        await world.post_event(mention("and then?", ts=follow_up, thread_ts=root))
        assert answerer.calls[0][2] == tuple(
            Exchange(f"question {n}", f"answer {n}") for n in (297, 298, 299)
        )
        reads = world.fake.calls_to("conversations.replies", ok_only=True)
        # the history's pages; the read from the follow-up on checks it is still there
        reads = [call for call in reads if not call.args.get("oldest")]
        assert len(reads) == 4
        assert [bool(call.args.get("cursor")) for call in reads] == [False, True, True, True]


async def test_a_thread_too_long_to_read_gives_no_history(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        # over 2,000 messages: only its oldest part could be read, which is not its latest
        root, follow_up = long_thread(world.fake, 1010)
        await world.post_event(mention("and then?", ts=follow_up, thread_ts=root))
        assert answerer.calls[0][2] == ()
        assert len(world.fake.bot_messages(PUBLIC, thread_ts=root)) == 1011


@pytest.mark.parametrize(
    "failure",
    [{"drop": True}, {"hang": HANG}],
    ids=["dropped", "timed-out"],
)
async def test_a_failing_history_read_answers_without_history(
    tmp_path: Path, failure: dict[str, object]
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as world:
        root, follow_up = long_thread(world.fake, 2)
        world.fake.fail("conversations.replies", times=None, **failure)  # type: ignore[arg-type]
        await world.post_event(mention("and then?", ts=follow_up, thread_ts=root))
        assert answerer.calls[0][2] == ()
        answers = world.fake.bot_messages(PUBLIC, thread_ts=root)[2:]
        assert [m["text"] for m in answers] == ["Fact 1.[1]"]


async def test_questions_sent_also_to_the_channel_or_with_a_file_keep_their_answers(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        fake = world.fake
        root = fake.add_message(PUBLIC, "<@U0BOT> how do I install?", ASKER)
        fake.add_message(PUBLIC, "Run the installer.", "U0BOT", thread_ts=root, bot_id="B0BOT")
        fake.add_message(
            PUBLIC, "<@U0BOT> and upgrade?", ASKER, thread_ts=root, subtype="thread_broadcast"
        )
        fake.add_message(PUBLIC, "Run it again.", "U0BOT", thread_ts=root, bot_id="B0BOT")
        fake.add_message(
            PUBLIC, "<@U0BOT> what is this error?", ASKER, thread_ts=root, subtype="file_share"
        )
        fake.add_message(PUBLIC, "A timeout.", "U0BOT", thread_ts=root, bot_id="B0BOT")
        fake.add_message(PUBLIC, "", "U0OTHER", thread_ts=root, subtype="channel_join")
        follow_up = fake.add_message(PUBLIC, "<@U0BOT> and remove?", ASKER, thread_ts=root)
        await world.post_event(mention("and remove?", ts=follow_up, thread_ts=root))
        assert answerer.calls[0][2] == (
            Exchange("how do I install?", "Run the installer."),
            Exchange("and upgrade?", "Run it again."),
            Exchange("what is this error?", "A timeout."),
        )
