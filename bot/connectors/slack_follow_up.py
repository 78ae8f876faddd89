"""A follow-up question deleted before its answer is posted gets none.

A question that starts a thread and is deleted meanwhile is caught by Slack itself (a reply to it
lands outside any thread, or its stream is refused: see ``slack_delivery``). A follow-up, a
reply in a thread, leaves no such trace: the thread is still there, so the answer would be
posted under a question its asker withdrew. So before an answer to a follow-up shows anything
(its first streamed piece, or its messages), :class:`FollowUpCheck` reads whether the question is
still in the thread, once per answer; when it is gone the answer ends as the thread-starter's
does, with :class:`UndeliverableError` (``invalid_thread_ts``): nothing posted, not even the
apology, and its turn marked failed. The same holds for what comes before the answer (the note
that the question was cut or its files are not read: :attr:`FollowUpCheck.before` posts it
once the question was found still there) and for the apology when the answer fails.

A thread that cannot be read is answered: withholding an answer needs Slack's word that the
question is gone. So the read is tried once, never waited for: a 429 (Slack limits
``conversations.replies`` hard, to one a minute for an app outside the Marketplace) or a server
error means "answer it" at once, not after Slack's ``Retry-After``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.slack_client import (
    QUESTION_GONE,
    SLACK_CALL_ERRORS,
    UndeliverableError,
    error_code,
    without_retries,
)
from bot.connectors.slack_events import SlackQuestion
from bot.connectors.slack_sinks import AnswerSink, Payload
from bot.models import Answer

log = logging.getLogger(__name__)


class FollowUpCheck:
    """Whether a follow-up question is still in its thread, asked of Slack once.

    ``before`` (the question's notes, say) runs once, after the question was found still there
    and before anything of the answer is shown."""

    def __init__(
        self,
        client: AsyncWebClient,
        question: SlackQuestion,
        before: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._client = client
        self._question = question
        self._checked = False
        self.before = before

    async def ensure(self) -> None:
        """Raise UndeliverableError (``invalid_thread_ts``) when the question was deleted; the
        first call asks Slack, later ones do nothing."""
        if self._checked:
            return
        self._checked = True
        if not await self._still_there():
            raise UndeliverableError(
                f"Slack: the follow-up question {self._question.ts} was deleted before its "
                "answer was posted; nothing is posted for it",
                QUESTION_GONE,
            )

    async def shown(self) -> None:
        """:meth:`ensure`, then (the first time) ``before``: call before showing the answer."""
        await self.ensure()
        before, self.before = self.before, None
        if before is not None:
            await before()

    async def _still_there(self) -> bool:
        question = self._question
        try:
            # the thread from the question on: its parent (Slack keeps it first) and the
            # question itself, when it is still there
            response = await without_retries(self._client).conversations_replies(
                channel=question.channel,
                ts=question.thread_ts,
                oldest=question.ts,
                inclusive=True,
                limit=2,
            )
        except SLACK_CALL_ERRORS as exc:
            log.info(
                "slack: cannot tell whether question %s is still there (%s); answering it",
                question.ts,
                error_code(exc),
            )
            return True
        return any(
            isinstance(message, dict)
            and message.get("ts") == question.ts
            and message.get("subtype") != "tombstone"
            for message in response.get("messages") or []
        )


class FollowUpSink:
    """``sink``, showing nothing of an answer until ``check`` found its question still there."""

    def __init__(self, sink: AnswerSink, check: FollowUpCheck) -> None:
        self._sink = sink
        self._check = check

    async def text(self, delta: str, partial: Answer) -> None:
        """As :meth:`AnswerSink.text`, after the check."""
        await self._check.shown()
        await self._sink.text(delta, partial)

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """As :meth:`AnswerSink.finish`, after the check."""
        await self._check.shown()
        await self._sink.finish(payload, turn_id, revised=revised)

    async def fail(self, text: str | None = None) -> None:
        """As :meth:`AnswerSink.fail`, after the check (a deleted question gets no apology)."""
        try:
            await self._check.ensure()
        except UndeliverableError as exc:
            log.warning("%s", exc)
            return
        await self._sink.fail(text)


def checked_sinks(
    sink: AnswerSink, fallback: Callable[[], AnswerSink], check: FollowUpCheck
) -> tuple[AnswerSink, Callable[[], AnswerSink]]:
    """``sink`` and ``fallback`` (as ``choose_sinks`` gives them), both showing nothing until
    ``check`` (asked once for the two) found the question still there."""
    return FollowUpSink(sink, check), lambda: FollowUpSink(fallback(), check)


__all__ = ["FollowUpCheck", "FollowUpSink", "checked_sinks"]
