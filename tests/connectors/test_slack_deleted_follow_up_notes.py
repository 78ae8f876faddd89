"""A follow-up deleted before its answer is posted gets nothing at all: no note about its files,
no greeting, no apology when the backend then fails (README "Questions")."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.slack_answer import GREETING
from bot.errors import BackendError
from bot.models import Exchange
from tests.connectors.slack_deleting import DeletesQuestion
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

LOG_FILE = [{"id": "F0LOG", "name": "install.log", "mimetype": "text/plain", "size": 10}]


class DeletesThenBreaks(DeletesQuestion):
    """The asker deletes the follow-up; then the backend fails."""

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self._delete()
        if self.target is not None:
            raise BackendError("the model is down")
        async for event in super().stream(question, audience, history):
            yield event

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self._delete()
        if self.target is not None:
            raise BackendError("the model is down")
        return await super().reply(question, audience, history)


async def test_a_deleted_follow_up_with_a_file_gets_no_note(tmp_path: Path) -> None:
    answerer = DeletesQuestion(answer_citing(1))
    async with slack_world(tmp_path, answerer) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        before = len(w.fake.bot_messages(PUBLIC, root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> what about this log?", ASKER, thread_ts=root)
        answerer.target = (w.fake, PUBLIC, follow)
        await w.post_event(
            mention("what about this log?", ts=follow, thread_ts=root, files=LOG_FILE)
        )
        after = [m["text"] for m in w.fake.bot_messages(PUBLIC, root)]
        assert after[before:] == []


async def test_a_follow_up_with_a_file_gets_its_note_before_the_answer(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        before = len(w.fake.bot_messages(PUBLIC, root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> what about this log?", ASKER, thread_ts=root)
        await w.post_event(
            mention("what about this log?", ts=follow, thread_ts=root, files=LOG_FILE)
        )
        after = [m["text"] for m in w.fake.bot_messages(PUBLIC, root)][before:]
        assert len(after) == 2 and "file" in after[0].lower(), after


async def test_a_deleted_follow_up_gets_no_apology_when_the_backend_fails(
    tmp_path: Path,
) -> None:
    answerer = DeletesThenBreaks(answer_citing(1))
    async with slack_world(tmp_path, answerer, streaming="native") as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        before = len(w.fake.bot_messages(PUBLIC, root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> my salary is 90k?", ASKER, thread_ts=root)
        answerer.target = (w.fake, PUBLIC, follow)
        await w.post_event(mention("my salary is 90k?", ts=follow, thread_ts=root))
        after = [m["text"] for m in w.fake.bot_messages(PUBLIC, root)][before:]
        [_, turn] = w.store.turns(f"slack:T0TEAM:{PUBLIC}:{root}")
        assert (after, turn.status) == ([], "failed")


async def test_an_empty_follow_up_deleted_before_the_greeting_gets_none(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        before = len(w.fake.bot_messages(PUBLIC, root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT>", ASKER, thread_ts=root)
        w.fake.delete_message(PUBLIC, follow)
        await w.post_event(mention("", ts=follow, thread_ts=root))
        assert w.fake.bot_messages(PUBLIC, root)[before:] == []


async def test_an_empty_follow_up_still_there_gets_the_greeting(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        before = len(w.fake.bot_messages(PUBLIC, root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT>", ASKER, thread_ts=root)
        await w.post_event(mention("", ts=follow, thread_ts=root))
        assert [m["text"] for m in w.fake.bot_messages(PUBLIC, root)[before:]] == [GREETING]
