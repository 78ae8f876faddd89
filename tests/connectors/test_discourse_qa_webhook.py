"""Discourse webhooks: the size cap holds before the body is read in whole, and a mention is
read where Discourse reads it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.connectors.discourse import MAX_WEBHOOK_BYTES
from bot.connectors.discourse_webhook import mentions, strip_mention
from tests.connectors.discourse_harness import PUBLIC, SECRET, Harness, forum, harness
from tests.fakes.discourse_api import webhook_request

__all__ = ["forum", "harness"]

CHUNK = 64 * 1024


async def test_an_oversized_unsigned_body_is_refused_before_it_is_read_in_whole(
    harness: Harness,
) -> None:
    # The webhook URL is public: whoever finds it must not make the server hold any amount
    # of data in memory before the signature can be checked.
    chunks = 2 * MAX_WEBHOOK_BYTES // CHUNK
    sent: list[int] = []

    async def body() -> AsyncIterator[bytes]:
        for _ in range(chunks):
            sent.append(CHUNK)
            yield b" " * CHUNK

    response = await harness.http.post(
        "/discourse/webhook",
        content=body(),
        headers={"X-Discourse-Event": "post_created", "X-Discourse-Event-Signature": "sha256=0"},
    )
    assert response.status_code == 413
    assert sum(sent) <= MAX_WEBHOOK_BYTES + CHUNK
    assert harness.forum.api_posts == []


async def test_a_declared_oversized_body_is_refused_without_reading_it(harness: Harness) -> None:
    sent: list[int] = []

    async def body() -> AsyncIterator[bytes]:
        sent.append(1)
        yield b"{}"

    response = await harness.http.post(
        "/discourse/webhook",
        content=body(),
        headers={"Content-Length": str(MAX_WEBHOOK_BYTES + 1)},
    )
    assert response.status_code == 413
    assert sent == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ask @citecast.bot about it", False),  # the user citecast.bot
        ("ask @citecast.dev-team", False),
        ("cc @citecast.", True),  # the end of a sentence
        ("cc @citecast... anyone?", True),
        ("cc @citecast_, please", True),  # a name never ends in "_"
        ("@citecast: how do I install?", True),
    ],
)
def test_a_mention_ends_where_discourse_ends_it(text: str, expected: bool) -> None:
    assert mentions(text, "citecast") is expected


def test_the_question_keeps_a_mention_of_another_user() -> None:
    assert strip_mention("@citecast.bot knows, ask it", "citecast") == (
        "@citecast.bot knows, ask it"
    )


async def test_a_post_mentioning_a_similarly_named_user_is_not_answered(
    harness: Harness,
) -> None:
    topic = harness.forum.new_topic("Bots", "Which bot answers here?", category_id=PUBLIC)
    reply = harness.forum.user_posts(topic["topic_id"], "Ask @citecast.staging, it is newer.")
    response = await harness.deliver(reply)
    assert response.json()["ignored"] == "no trigger"
    assert harness.forum.api_posts == []


@pytest.mark.parametrize("signature", [b"sha256=\xe9\xe9", "sha256=caf\u00e9".encode()])
async def test_a_signature_with_non_ascii_characters_is_refused_not_a_crash(
    harness: Harness, signature: bytes
) -> None:
    topic = harness.forum.new_topic("Sig", "Is the signature checked?", category_id=PUBLIC)
    body, signed = webhook_request(topic, SECRET)
    headers = [(k.encode(), v.encode()) for k, v in signed.items() if "Signature" not in k]
    headers.append((b"X-Discourse-Event-Signature", signature))
    response = await harness.http.post("/discourse/webhook", content=body, headers=headers)
    assert response.status_code == 403
    assert "does not match" in response.json()["error"]
    assert harness.forum.api_posts == []
