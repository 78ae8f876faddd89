"""Discord down for an answer is one error line (found in a QA pass: the failed answer and the
apology that could not be sent either were two). How a give-up line counts its tries is pinned
in ``test_discord_reliability``."""

from __future__ import annotations

import logging

import pytest

from tests.connectors.discord_edit_helpers import GUIDE
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]

POST_MESSAGE = r"/channels/\d+/messages$"


def logged(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name.startswith("bot.") and r.levelno == level
    ]


async def ask(h: Harness, caplog: pytest.LogCaptureFixture) -> str:
    question = h.fake.user_message(h.world.general, h.world.bob, "install?", mention_bot=True)
    with caplog.at_level(logging.INFO):
        await h.deliver(question)
    return str(question["id"])


async def test_discord_refusing_the_answer_and_the_apology_is_one_error_line(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    h.use([GUIDE], "Install it with pip [1].")
    tries = h.connector.settings.max_retries + 1
    for _ in range(2 * tries):  # the answer's tries, then the apology's
        h.fake.fail_next("POST", POST_MESSAGE, 503)
    qid = await ask(h, caplog)
    (error,) = logged(caplog, logging.ERROR)
    assert error.startswith(f"discord: answering {qid} failed: sending a message failed after")
    (untold,) = [w for w in logged(caplog, logging.WARNING) if "answer failed" in w]
    assert untold.startswith(f"discord: could not tell {qid} that the answer failed:")
    assert h.fake.messages_in(h.world.general) == []


async def test_a_notice_that_stands_for_no_failure_is_still_an_error_when_unsent(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    for _ in range(h.connector.settings.max_retries + 1):
        h.fake.fail_next("POST", POST_MESSAGE, 503)
    question = h.fake.user_message(h.world.general, h.world.bob, "", mention_bot=True)
    with caplog.at_level(logging.INFO):
        await h.deliver(question)  # a bare mention: the hint is all the bot sends
    (error,) = logged(caplog, logging.ERROR)
    assert error.startswith("discord: could not send a notice to the user:")
