"""A question cut short by a crash is one turn in the store, finished when it is answered after
the restart (as the Discord connector keeps it, tests/connectors/test_discord_restart_turns.py).

Found in a QA pass: after a kill -9 mid-answer and a restart, the store held the question as a
failed turn (``citecast serve`` marks the turns an earlier run left pending as failed) and as a
done one, so ``citecast report`` counted one question twice, once as failed.
"""

from __future__ import annotations

from pathlib import Path

from bot.usage_report import build_report
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    settle,
    slack_world,
)
from tests.connectors.test_slack_left_over import _crash_mid_answer


async def test_a_question_answered_after_a_crash_counts_once_as_answered(tmp_path: Path) -> None:
    (tmp_path / "before").mkdir()
    question, messages = await _crash_mid_answer(
        tmp_path, streaming="native", stream_buffer_chars=10
    )
    answerer = CannedAnswerer(answer_citing(1, "The deploy runs on Fridays.[^1]"))
    async with slack_world(tmp_path / "after", answerer) as world:
        world.fake.state.messages.update(messages)
        assert world.store.fail_pending_turns() == 1  # what the next `citecast serve` does first
        await world.connector.start()
        await settle(world.connector)
        assert len(answerer.calls) == 1
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:{question}")
        assert turn.status == "done"
        assert turn.answer is not None and "Fridays" in turn.answer["text"]
        [slack] = build_report(world.store, since=0.0, days=1.0).channels
        assert (slack.asked, slack.failed, slack.cited) == (1, 0, 1)
