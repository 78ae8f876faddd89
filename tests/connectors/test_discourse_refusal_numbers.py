"""Discourse: a refusal that names a number is taken for a post length limit only when it is
about the body's length.

The texts are Discourse's own (``config/locales/server.en.yml``: ``too_long_validation``,
``too_short``, ``too_many_links``, ``rate_limiter``), as the API sends them (``"Body "`` +
message); the rate limiter answers with ``error_type: "rate_limit"`` and
``extras.wait_seconds``. Driven through the connector's real httpx client against the loopback
fake forum.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest

from bot.connectors.discourse_limits import limit_named, may_be_too_long, minimum_named
from tests.connectors.discourse_harness import PUBLIC, forum, opened_harness
from tests.connectors.test_discourse_lowered_limit import SOURCES, long_answer, posted
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

WAIT = "You’ve performed this action too many times. Please wait 600 seconds before trying again."


@pytest.mark.parametrize(
    ("errors", "length", "limit"),
    [
        # Discourse's length refusals: the number before "characters" is the limit
        (["Body is limited to 1000 characters; you entered 3102."], 3102, 1000),
        (["Body is too long (maximum is 2000 characters)"], 3102, 2000),
        (["Body is limited to ۱۰۰۰ characters; you entered ۳۱۰۲."], 3102, 1000),
        # English, about something else: no limit, whatever the number
        (["You can only post 500 times per day"], 3102, None),
        ([WAIT], 3102, None),
        (
            ["You’re replying a bit too quickly. Please wait 900 seconds before trying again."],
            3102,
            None,
        ),
        (["Sorry, you can only mention 500 users in a post."], 3102, None),
        (["Title must be at least 15 characters"], 3102, None),
        (["Body is too short (minimum is 400 characters)"], 3102, None),
        (["Sorry, new users can only put 2 links in a post."], 3102, None),
        # another language: its digits, as before
        (["Beitrag ist auf 1000 Zeichen begrenzt; du hast 3102 eingegeben."], 3102, 1000),
        # one length message among others
        (
            [
                "Sorry, you can only mention 500 users in a post.",
                "Body is limited to 1,000 characters; you entered 3,102.",
            ],
            3102,
            1000,
        ),
    ],
)
def test_only_a_length_refusal_names_the_limit(
    errors: list[str], length: int, limit: int | None
) -> None:
    assert limit_named(errors, length) == limit


def test_a_rate_limit_in_another_language_names_no_limit() -> None:
    german = ["Du hast diese Aktion zu oft ausgeführt. Bitte warte 600 Sekunden."]
    assert limit_named(german, 3102) == 600  # nothing marks it: the digits are all there is
    assert limit_named(german, 3102, rate_limited=True) is None
    assert not may_be_too_long(german, rate_limited=True)


@pytest.mark.parametrize(
    ("errors", "maybe"),
    [
        (["Dieser Beitrag ist zu lang."], True),
        (["Body is too long"], True),
        ([], True),
        (["Sorry, you can't reply any more in that topic."], False),
        (["Body seems unclear, is it a complete sentence?"], False),
        (["Body contains the following censored words: spam"], False),
    ],
)
def test_a_refusal_without_a_number_is_halved_only_when_it_may_be_the_length(
    errors: list[str], maybe: bool
) -> None:
    assert may_be_too_long(errors) is maybe


@pytest.mark.parametrize(
    ("errors", "counted", "minimum"),
    [
        (["Body is too short (minimum is 60 characters)"], 3, 60),
        (["Body is too short (minimum is 1 character)"], 0, 1),
        (["Body is too short (minimum is 60 characters)"], 70, None),
        (["Sorry, new users can only put 2 links in a post."], 1, None),
        ([WAIT], 3, None),
        (["Der Beitrag ist zu kurz (mindestens 60 Zeichen)."], 3, 60),
        (["Bitte warte 600 Sekunden."], 3, 600),
        # a too-long refusal of a short post names the length entered above the counted one
        (["Beitrag ist auf 400 Zeichen begrenzt; du hast 600 eingegeben."], 555, None),
    ],
)
def test_the_minimum_named_by_a_refusal(
    errors: list[str], counted: int, minimum: int | None
) -> None:
    assert minimum_named(errors, counted) == minimum
    assert minimum_named(errors, counted, rate_limited=True) is None


def refusal(message: str, **extra: Any) -> dict[str, Any]:
    return {"action": "create_post", "errors": [message], **extra}


async def test_an_english_refusal_naming_another_number_is_not_a_length_limit(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A plugin refuses the reply with a number that is not a length: the answer is not cut
    # into 500-character posts (nor are later answers), and the refusal is logged as it came.
    text, _ = long_answer()
    forum.fail("/posts.json", 422, times=2, body=refusal("You can only post 500 times per day"))
    caplog.set_level(logging.INFO)
    async with opened_harness(forum, tmp_path) as h:
        h.script(SOURCES, text)
        question = forum.new_topic("Operations", "Tell me everything.", category_id=PUBLIC)
        await h.deliver(question)
        topic = int(question["topic_id"])
        assert posted(forum, topic) == []
        assert h.connector._delivery.limit.value is None
        assert [t.status for t in h.store.turns(f"discourse-topic-{topic}")] == ["failed"]
        assert any("500 times per day" in r.getMessage() for r in caplog.records)


async def test_a_refusal_marked_as_a_rate_limit_is_retried_not_split(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # A rate limit answered with 422 in the forum's language (a plugin, a proxy): its number
    # is a wait, so the reply waits in the outbox, whole, and is not split to that "limit".
    text, _ = long_answer()
    german = refusal(
        "Du hast diese Aktion zu oft ausgeführt. Bitte warte 600 Sekunden.",
        error_type="rate_limit",
        extras={"wait_seconds": 600},
    )
    forum.fail("/posts.json", 422, times=1, body=german)
    async with opened_harness(forum, tmp_path) as h:
        h.script(SOURCES, text)
        question = forum.new_topic("Betrieb", "Erzähl mir alles.", category_id=PUBLIC)
        await h.deliver(question)
        topic = int(question["topic_id"])
        assert posted(forum, topic) == []
        assert h.connector._delivery.limit.value is None
        [waiting] = h.store.pending("discourse")
        assert len(str(waiting.payload["raw"])) > 600  # not split
        # retried no sooner than the forum asked
        assert waiting.attempts == 1 and waiting.next_attempt_at > time.time() + 500
        assert "600" in str(waiting.last_error)
        # not sent again at once with the unique suffix: a rate limit passes with time
        assert [s for m, p, s in forum.requests if p == "/posts.json"] == [422]
