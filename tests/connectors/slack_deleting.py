"""An answerer whose asker deletes the question while the answer is being written, for the
tests of questions deleted before citecast posts their answer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from bot.assistant.base import Reply, ReplyEvent
from bot.models import Answer, Exchange
from tests.connectors.slack_harness import CannedAnswerer
from tests.fakes.slack_api import FakeSlackAPI


class DeletesQuestion(CannedAnswerer):
    """Answers, but first deletes the message ``target`` names (the fake, its channel and its
    ts: set once the fake runs) from the fake Slack; with no target, answers as it is."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(answer)
        self.target: tuple[FakeSlackAPI, str, str] | None = None

    def _delete(self) -> None:
        if self.target is not None:
            fake, channel, ts = self.target
            fake.delete_message(channel, ts)

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self._delete()
        return await super().reply(question, audience, history)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self._delete()
        async for event in super().stream(question, audience, history):
            yield event
