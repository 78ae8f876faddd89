"""Slack takes 40,000 characters in a message; the assistant reads at most
``web.max_question_chars`` of a question, when it is asked and when a follow-up in the same
thread brings it back as history."""

from __future__ import annotations

from pathlib import Path

from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

SLACK_MAX_MESSAGE = 40_000


async def test_a_follow_up_brings_back_a_long_question_only_as_far_as_it_was_read(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        pasted = ("<@U0BOT> why does this fail? " + "log line 42: timeout\n" * 2000)[
            :SLACK_MAX_MESSAGE
        ]
        root = world.fake.add_message(PUBLIC, pasted, ASKER)
        world.fake.add_message(PUBLIC, "It timed out.", "U0BOT", thread_ts=root, bot_id="B0BOT")
        follow_up = world.fake.add_message(PUBLIC, "<@U0BOT> and why?", ASKER, thread_ts=root)
        await world.post_event(mention("and why?", ts=follow_up, thread_ts=root))
        limit = world.connector.services.settings.web.max_question_chars
        [(question, _, history)] = answerer.calls
        assert question == "and why?"
        [earlier] = history
        assert earlier.question.startswith("why does this fail?")
        assert len(earlier.question) <= limit
        assert earlier.answer == "It timed out."
