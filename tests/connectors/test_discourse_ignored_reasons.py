"""Discourse webhook responses say why a post was not answered, and how to fix a webhook that
sends its body as a form: an admin reads them in the webhook's event list."""

from __future__ import annotations

import hashlib
import hmac
import logging
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.connectors.discourse_harness import (
    PUBLIC,
    SECRET,
    Harness,
    forum,
    harness,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

__all__ = ["forum", "harness"]

UNLISTED = 77


async def reason(h: Harness, post: dict[str, object]) -> str:
    response = await h.deliver(post)
    body = response.json()
    assert body["ignored"] == "no trigger"
    return str(body["reason"])


async def test_each_ignored_post_names_its_reason(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.connectors.discourse")
    f = harness.forum
    topic = f.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
    await harness.deliver(topic)
    tid = topic["topic_id"]
    unlisted = f.new_topic("Elsewhere", "A question", category_id=UNLISTED)
    assert await reason(harness, unlisted) == f"category {UNLISTED} is not in discourse.categories"
    whisper = f.user_posts(tid, "@citecast psst", post_type=4)
    assert await reason(harness, whisper) == "a whisper (post_type 4)"
    system = f.new_topic(
        "About", "(Replace this paragraph.)", category_id=PUBLIC, username="system"
    )
    assert await reason(harness, system) == "a post by the built-in user system"
    private = f.user_posts(tid, "@citecast hi", topic_archetype="private_message")
    assert await reason(harness, private) == "a private message"
    quoted = f.user_posts(tid, '[quote="bob, post:1"]\n@citecast help\n[/quote]\nSame here.')
    assert (
        await reason(harness, quoted)
        == "@citecast is mentioned only inside a quote, code or an HTML comment"
    )
    chat = f.user_posts(tid, "Thanks all, see you tomorrow.")
    assert await reason(harness, chat) == (
        "not a new topic, a mention of @citecast or a reply to one of its posts"
    )
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any("ignored: a private message" in m for m in logged), logged


async def test_switched_off_triggers_are_named(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(forum, tmp_path, answer_new_topics=False) as h:
        post = forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
        assert await reason(h, post) == (
            "new topics are not answered (discourse.answer_new_topics: false)"
        )


async def test_a_form_encoded_webhook_is_told_to_send_json(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    post = harness.forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
    json_body, headers = webhook_request(post, SECRET)
    # Discourse's other content type: the JSON as a "payload" form field, signed as sent
    body = urlencode({"payload": json_body.decode()}).encode()
    signature = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    headers = {**headers, "Content-Type": "application/x-www-form-urlencoded",
               "X-Discourse-Event-Signature": f"sha256={signature}"}  # fmt: skip
    response = await harness.http.post("/discourse/webhook", content=body, headers=headers)
    assert response.status_code == 400
    assert "set the webhook's Content Type to application/json" in response.json()["error"]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and "application/x-www-form-urlencoded" in warned[0], warned
    assert harness.forum.api_posts == []
