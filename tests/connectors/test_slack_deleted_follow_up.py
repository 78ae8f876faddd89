"""A follow-up question in a thread, deleted by its asker before the answer is posted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.slack_deleting import DeletesQuestion
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)


@pytest.mark.parametrize("streaming", ["none", "edit", "native"])
async def test_a_deleted_follow_up_gets_no_answer(tmp_path: Path, streaming: str) -> None:
    answerer = DeletesQuestion(answer_citing(1))
    async with slack_world(tmp_path, answerer, streaming=streaming) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        before = len(w.fake.bot_messages(PUBLIC, root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> my salary is 90k, ok?", ASKER, thread_ts=root)
        answerer.target = (w.fake, PUBLIC, follow)
        await w.post_event(mention("my salary is 90k, ok?", ts=follow, thread_ts=root))
        after = len(w.fake.bot_messages(PUBLIC, root))
        [_, turn] = w.store.turns(f"slack:T0TEAM:{PUBLIC}:{root}")
        # README: "A question deleted before its answer is posted gets none"
        assert (after - before, turn.status) == (0, "failed")


async def test_a_follow_up_is_answered_when_the_check_cannot_read_the_thread(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, streaming="native") as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> and on Windows?", ASKER, thread_ts=root)
        # the history's read goes through; the check's read from the follow-up on does not
        w.fake.fail("conversations.replies", error="access_denied", after=1)
        await w.post_event(mention("and on Windows?", ts=follow, thread_ts=root))
        checks = [c for c in w.fake.calls_to("conversations.replies") if c.args.get("oldest")]
        assert [c.args.get("oldest") for c in checks] == [follow]
        assert len(w.fake.bot_messages(PUBLIC, root)) == 2
        [_, turn] = w.store.turns(f"slack:T0TEAM:{PUBLIC}:{root}")
        assert turn.status == "done"
