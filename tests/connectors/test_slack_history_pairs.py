"""A follow-up's history pairs each earlier answer with the question it was posted for: two
questions asked before the first answer arrived, and a colleague's remark (no mention) in between,
take nothing from each other."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.slack_history import exchanges_from_messages
from bot.models import Answer, Exchange, TextDelta
from tests.connectors.slack_harness import ASKER, PUBLIC, mention, slack_world


class Echo:
    """Answers "Answer to: <question>" and records the history it was given."""

    def __init__(self) -> None:
        self.histories: dict[str, tuple[Exchange, ...]] = {}

    def _answer(self, question: str) -> Answer:
        return Answer(text=f"Answer to: {question}", citations=())

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.histories[question] = tuple(history)
        return Reply(self._answer(question), {"sources": []})

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.histories[question] = tuple(history)
        answer = self._answer(question)
        yield TextDelta(answer.text)
        yield Reply(answer, {"sources": []})


async def test_a_follow_up_after_two_quick_questions_pairs_each_answer_with_its_question(
    tmp_path: Path,
) -> None:
    echo = Echo()
    async with slack_world(tmp_path, echo, feedback_buttons=False) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        # the second question arrives before the first answer is posted
        second = w.fake.add_message(PUBLIC, "<@U0BOT> and on Windows?", ASKER, thread_ts=root)
        await w.post_event(mention("how do I install it?", ts=root), wait=False)
        await w.post_event(mention("and on Windows?", ts=second, thread_ts=root))
        await asyncio.sleep(0)
        third = w.fake.add_message(PUBLIC, "<@U0BOT> and on Mac?", ASKER, thread_ts=root)
        await w.post_event(mention("and on Mac?", ts=third, thread_ts=root))
        history = echo.histories["and on Mac?"]
        assert [(h.question, h.answer) for h in history] == [
            ("how do I install it?", "Answer to: how do I install it?"),
            ("and on Windows?", "Answer to: and on Windows?"),
        ]


async def test_a_colleagues_remark_while_the_bot_answers_does_not_take_the_answer(
    tmp_path: Path,
) -> None:
    echo = Echo()
    async with slack_world(tmp_path, echo, feedback_buttons=False) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I rotate the API key?", ASKER)
        # a colleague chimes in (no mention) before the answer is posted
        w.fake.add_message(PUBLIC, "+1, same question", "U0BOB", thread_ts=root)
        await w.post_event(mention("how do I rotate the API key?", ts=root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> and for staging?", ASKER, thread_ts=root)
        await w.post_event(mention("and for staging?", ts=follow, thread_ts=root))
        history = echo.histories["and for staging?"]
        assert [h.question for h in history] == ["how do I rotate the API key?"]


def test_recorded_replies_pair_with_their_question_wherever_they_stand() -> None:
    messages = [
        {"ts": "1.0", "user": "U1", "text": "<@U0BOT> how do I install it?"},
        {"ts": "2.0", "user": "U1", "text": "<@U0BOT> and on Windows?"},
        {"ts": "2.5", "user": "U2", "text": "+1, same here"},
        {"ts": "3.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "Run the installer."},
        {"ts": "4.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "Run setup.exe."},
        {"ts": "5.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "(an older, unrecorded reply)"},
    ]
    recorded = {"1.0": ["3.0"], "2.0": ["4.0"]}
    history = exchanges_from_messages(
        messages,
        current_ts="6.0",
        bot_user_id="U0BOT",
        bot_id="B0BOT",
        limit=10,
        addressed_only=True,
        replies_of=lambda ts: recorded.get(ts, []),
    )
    assert history == (
        Exchange("how do I install it?", "Run the installer."),
        Exchange("and on Windows?", "Run setup.exe."),
    )


def test_in_a_dm_every_message_is_a_question_and_unrecorded_replies_follow_it() -> None:
    messages = [
        {"ts": "1.0", "user": "U1", "text": "how do I install it?"},
        {"ts": "2.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "Run the installer."},
        {"ts": "3.0", "user": "U1", "text": "and remove it?"},
        {"ts": "4.0", "user": "U0BOT", "bot_id": "B0BOT", "text": "Run the uninstaller."},
    ]
    history = exchanges_from_messages(
        messages, current_ts="5.0", bot_user_id="U0BOT", bot_id="B0BOT", limit=10
    )
    assert [(h.question, h.answer) for h in history] == [
        ("how do I install it?", "Run the installer."),
        ("and remove it?", "Run the uninstaller."),
    ]
