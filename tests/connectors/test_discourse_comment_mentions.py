"""Discourse: a mention inside an HTML comment is not a mention.

Discourse drops ``<!-- … -->`` from the cooked post and notifies nobody mentioned in it, as
for a mention inside a ``[quote]`` or code (README): such a post is not a question to the bot.
"""

from __future__ import annotations

import pytest

from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness

__all__ = ["forum", "harness"]


async def ask(harness: Harness, raw: str) -> dict[str, object]:
    forum = harness.forum
    topic = forum.new_topic("Q", "How do I install it?", category_id=PUBLIC)
    await harness.deliver(topic)
    response = await harness.deliver(forum.user_posts(topic["topic_id"], raw))
    body = response.json()
    assert isinstance(body, dict)
    return body


@pytest.mark.parametrize(
    "raw",
    [
        "<!-- @citecast --> thanks all, see you",
        "Thanks all.\n\n<!--\nping @citecast later\n-->",
    ],
)
async def test_a_mention_inside_an_html_comment_is_ignored_and_says_why(
    harness: Harness, raw: str
) -> None:
    body = await ask(harness, raw)
    assert body.get("accepted") is None, body
    assert body.get("reason") == (
        "@citecast is mentioned only inside a quote, code or an HTML comment"
    ), body


async def test_a_mention_beside_an_html_comment_still_asks(harness: Harness) -> None:
    body = await ask(harness, "<!-- draft --> @citecast how do I upgrade?")
    assert body.get("accepted") == "mention", body
