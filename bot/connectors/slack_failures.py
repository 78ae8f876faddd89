"""What a Slack answer that failed leaves behind: one log line saying why, the apology (or the
"not set up" reply) in place of anything half-written, and the turn marked failed.

A refusal by Slack (:class:`UndeliverableError`: an archived channel, a revoked token, a question
deleted meanwhile) is its own whole story: one line, and an apology only where one can still
arrive. A shutdown that ran out of ``slack.shutdown_grace_seconds`` (the task cancelled) is a
deploy, not a bug: one warning, no traceback; the question is answered again at the next start
(``slack_unanswered``). Anything else is logged with its traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.connectors.setup_errors import NOT_SET_UP_REPLY, is_setup_error, report_setup_error
from bot.connectors.slack_client import QUESTION_GONE, UndeliverableError
from bot.connectors.slack_sinks import AnswerSink
from bot.errors import StoreError
from bot.runtime import Services

# the connector's own logger: these lines are the connector's account of an answer
log = logging.getLogger("bot.connectors.slack")


async def answer_failed(
    exc: BaseException, services: Services, channel: str, sink: AnswerSink, turn_id: int
) -> None:
    """Say why the answer in ``channel`` failed, tell its asker through ``sink`` and mark turn
    ``turn_id`` failed. The caller re-raises what is not an Exception (a cancellation)."""
    if isinstance(exc, UndeliverableError):
        # a question its asker deleted needs nothing from the admin
        level = logging.WARNING if exc.code == QUESTION_GONE else logging.ERROR
        log.log(level, "Slack answer in %s not delivered: %s", channel, exc)
        if not exc.conversation_closed:
            await sink.fail()
    elif is_setup_error(exc):  # a refused key, no index: asking again cannot help
        report_setup_error(services, "slack", exc)
        await sink.fail(NOT_SET_UP_REPLY)
    elif isinstance(exc, asyncio.CancelledError):
        log.warning(
            "Slack answer in %s cut short by the shutdown; the asker gets the apology, and the "
            "question is answered again at the next start",
            channel,
        )
        await sink.fail()
    else:
        log.error("Slack answer in %s failed: %r", channel, exc, exc_info=True)
        await sink.fail()
    with contextlib.suppress(StoreError):
        services.store.finish_turn(turn_id, None, None, status="failed")
