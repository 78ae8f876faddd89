"""Long Discord conversations: one stored conversation however long, history still bounded.

The bot records which conversation each message it posts belongs to; a follow-up takes the
conversation from the message it replies to. The reply chain walk (at most ``history_limit``
exchanges) only supplies the history, and the conversation of a message without a record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.models import Exchange, Source
from tests.connectors.test_discord_harness import Harness, harness, start_harness, stop_harness
from tests.fakes.answerer import BrokenAnswerer, ScriptedAnswerer

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


def conversation(h: Harness, question: dict[str, Any]) -> str:
    """The stored conversation named after ``question`` (the root of a reply chain)."""
    return f"discord:{h.world.general}:{question['id']}"


def last_reply_to(h: Harness, question: dict[str, Any]) -> dict[str, Any]:
    """The bot's last message replying to ``question`` (an answer part or an apology)."""
    replies = [
        m
        for m in h.fake.messages_in(h.world.general)
        if (m.get("message_reference") or {}).get("message_id") == question["id"]
    ]
    assert replies, f"the bot did not reply to {question['content']!r}"
    return replies[-1]


async def ask(h: Harness, text: str, reply_to: dict[str, Any] | None = None) -> dict[str, Any]:
    """Alice asks ``text``: a mention, or a reply to the bot message ``reply_to``."""
    if reply_to is None:
        message = h.fake.user_message(h.world.general, h.world.alice, text, mention_bot=True)
    else:
        message = h.fake.user_message(
            h.world.general, h.world.alice, text, reply_to=int(reply_to["id"])
        )
    await h.deliver(message)
    return message


async def converse(h: Harness, follow_ups: int) -> tuple[dict[str, Any], list[ScriptedAnswerer]]:
    """Question 0 by mention, then ``follow_ups`` questions each replying to the last answer.

    Returns the first question and the answerer of each question (its ``calls`` hold the
    history the model got).
    """
    answerers = [h.use([GUIDE], "Answer 0 [1].")]
    first = await ask(h, "question 0")
    question = first
    for i in range(1, follow_ups + 1):
        answerers.append(h.use([GUIDE], f"Answer {i} [1]."))
        question = await ask(h, f"question {i}", reply_to=last_reply_to(h, question))
    return first, answerers


def history_of(answerer: ScriptedAnswerer) -> tuple[Exchange, ...]:
    (call,) = answerer.calls
    return call[2]


async def test_a_conversation_longer_than_history_limit_stays_one_conversation(
    tmp_path: Path,
) -> None:
    h = await start_harness(tmp_path, history_limit=2)
    try:
        first, _ = await converse(h, follow_ups=4)
        turns = h.store.turns(conversation(h, first))
        assert [t.question for t in turns] == [f"question {i}" for i in range(5)]
        assert [t.status for t in turns] == ["done"] * 5
        # no turn went to another conversation
        assert len(h.store.outcomes_since(0)) == 5
    finally:
        await stop_harness(h)


async def test_the_history_of_a_long_conversation_is_still_bounded(tmp_path: Path) -> None:
    h = await start_harness(tmp_path, history_limit=2)
    try:
        first, answerers = await converse(h, follow_ups=4)
        assert [len(history_of(a)) for a in answerers] == [0, 1, 2, 2, 2]
        # the most recent exchanges, oldest first, each answer in its stored markdown (found
        # only when the follow-up is stored in the same conversation as the earlier turns)
        last = history_of(answerers[-1])
        assert [e.question for e in last] == ["question 2", "question 3"]
        stored = [t.answer["text"] for t in h.store.turns(conversation(h, first)) if t.answer]
        assert [e.answer for e in last] == stored[2:4]
        assert last[0].answer.startswith("Answer 2") and last[1].answer.startswith("Answer 3")
    finally:
        await stop_harness(h)


async def test_with_history_limit_0_follow_ups_get_no_history_but_stay_together(
    tmp_path: Path,
) -> None:
    h = await start_harness(tmp_path, history_limit=0)
    try:
        first, answerers = await converse(h, follow_ups=2)
        assert [history_of(a) for a in answerers] == [(), (), ()]
        turns = h.store.turns(conversation(h, first))
        assert [t.question for t in turns] == ["question 0", "question 1", "question 2"]
    finally:
        await stop_harness(h)


async def test_a_reply_to_an_answer_without_a_record_continues_by_the_reply_chain(
    harness: Harness,
) -> None:
    # an answer the bot posted before it kept records: only the walk back can place it
    h = harness
    old_question = h.fake.user_message(
        h.world.general, h.world.alice, "old question", mention_bot=True
    )
    old_answer = h.fake.user_message(
        h.world.general, h.fake.bot_user, "Old answer.", reply_to=int(old_question["id"])
    )
    h.store.add_turn(
        conversation(h, old_question), "discord", "old question", {"text": "Old answer, stored."}
    )

    answerer = h.use([GUIDE], "Answer 1 [1].")
    follow = await ask(h, "question 1", reply_to=old_answer)
    assert history_of(answerer) == (
        Exchange(question="old question", answer="Old answer, stored."),
    )
    # and from there on the record keeps the conversation together
    again = h.use([GUIDE], "Answer 2 [1].")
    await ask(h, "question 2", reply_to=last_reply_to(h, follow))
    assert [e.question for e in history_of(again)] == ["old question", "question 1"]
    turns = h.store.turns(conversation(h, old_question))
    assert [t.question for t in turns] == ["old question", "question 1", "question 2"]


# the unfinished answer, once posted, becomes the apology (no half answer stays on Discord)
@pytest.mark.parametrize(
    "streamed", [["Let me check that for you"], []], ids=["in place of an unfinished answer", "new"]
)
async def test_a_reply_to_a_failed_answer_stays_in_the_conversation(
    tmp_path: Path, streamed: list[str]
) -> None:
    h = await start_harness(tmp_path, history_limit=1)
    try:
        first, _ = await converse(h, follow_ups=1)
        h.connector.services.assistant = BrokenAnswerer(streamed)
        failed = await ask(h, "question 2", reply_to=h.fake.messages_in(h.world.general)[-1])
        (apology,) = [
            m
            for m in h.fake.messages_in(h.world.general)
            if (m.get("message_reference") or {}).get("message_id") == failed["id"]
        ]
        assert apology["content"] == h.connector.settings.failure_message

        h.use([GUIDE], "Answer 3 [1].")
        await ask(h, "try again", reply_to=apology)
        turns = h.store.turns(conversation(h, first))
        assert [(t.question, t.status) for t in turns] == [
            ("question 0", "done"),
            ("question 1", "done"),
            ("question 2", "failed"),
            ("try again", "done"),
        ]
    finally:
        await stop_harness(h)


async def test_a_reply_to_the_hint_for_a_bare_mention_has_no_empty_exchange(
    harness: Harness,
) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    await h.deliver(h.fake.user_message(h.world.general, h.world.alice, "", mention_bot=True))
    (hint,) = h.fake.messages_in(h.world.general)
    assert hint["content"] == h.connector.settings.empty_question_message
    await ask(h, "how to install?", reply_to=hint)
    assert history_of(answerer) == ()  # not ("", "Ask me a question after mentioning me.")
