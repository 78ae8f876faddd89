"""Once Slack asked an answer to wait, nothing more is sent for it before that wait is over.

Found in a QA pass: a 429 with a ``Retry-After`` longer than ``retry_max_seconds`` on
``chat.startStream`` (or on the first ``chat.postMessage`` of ``streaming: edit``) was followed
within milliseconds by another ``chat.postMessage`` to the same channel (the fallback to
editing, then the final post), each refused again. The README: such a wait "goes to the
outbox, which tries again no sooner than Slack asked, its first try too".
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

ANSWER_CALLS = (
    "chat.postMessage",
    "chat.startStream",
    "chat.appendStream",
    "chat.stopStream",
    "chat.update",
    "files.getUploadURLExternal",
)


@pytest.mark.parametrize(
    ("streaming", "refused"), [("native", "chat.startStream"), ("edit", "chat.postMessage")]
)
async def test_a_long_wait_queues_the_answer_with_no_other_call(
    tmp_path: Path, streaming: str, refused: str
) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=4)
    async with slack_world(tmp_path, answerer, streaming=streaming, stream_buffer_chars=4) as world:
        fake = world.fake
        fake.fail(refused, status=429, retry_after=90, times=None)
        before = time.time()
        await world.post_event(mention("busy?", ts="1600000000.041000"))
        calls = [c.method for c in fake.calls if c.method in ANSWER_CALLS]
        assert calls == [refused]  # the one call Slack refused, and nothing after it
        [queued] = world.store.pending("slack")
        assert queued.next_attempt_at >= before + 85
        assert await world.connector.outbox.flush() == 0  # not due: not tried
        assert [c.method for c in fake.calls if c.method in ANSWER_CALLS] == [refused]
        assert fake.bot_messages(PUBLIC) == []

        # the wait is over: the outbox posts the whole answer once
        fake.recover(refused)
        world.store.mark_failed_attempt(queued.id, "waited", retry_in=0.0)
        assert await world.connector.outbox.flush() == 1
        [answer] = fake.bot_messages(PUBLIC, thread_ts="1600000000.041000")
        assert answer["text"] == "Fact 1.[1] Fact 2.[2]"
