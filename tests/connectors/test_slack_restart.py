"""Slack redelivers an event (``X-Slack-Retry-Num``) for up to about an hour, and a message can
come as two events: after a restart, the store still knows what was answered."""

from __future__ import annotations

from pathlib import Path

from tests.connectors.slack_harness import (
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)


async def test_a_redelivery_after_a_restart_is_not_answered_again(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    event = mention("answered before the restart", ts="1600000000.810000")
    async with slack_world(tmp_path, answerer) as world:
        await world.post_event(event, event_id="EvBEFORE")
        assert len(world.fake.calls_to("chat.postMessage")) == 1
    # a new process: a new connector and a new fake Slack, the same store file
    async with slack_world(tmp_path, answerer) as world:
        again = await world.post_event(event, event_id="EvBEFORE", retry_num=3)
        paired = await world.post_event(event, event_id="EvPAIRED")  # same message, new id
        assert [again.status_code, paired.status_code] == [200, 200]
        assert world.fake.calls_to("chat.postMessage") == []
    assert len(answerer.calls) == 1
