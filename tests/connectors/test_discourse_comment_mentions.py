"""Discourse: a mention inside an HTML comment is not a mention.

Discourse drops ``<!-- … -->`` from the cooked post and notifies nobody mentioned in it, as
for a mention inside a ``[quote]`` or code (README): such a post is not a question to the bot.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.connectors.discourse_webhook import strip_html_comments
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness

__all__ = ["forum", "harness"]

WHOLE_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)  # what a comment is (quadratic to search)


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


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<!--", "-->", "<!-->", "@citecast", "a", "-", "<", "!", "\n"])))
def test_comments_are_stripped_as_the_pattern_of_a_whole_comment_reads_them(
    pieces: list[str],
) -> None:
    raw = "".join(pieces)
    assert strip_html_comments(raw) == WHOLE_COMMENT.sub(" ", raw)


def test_a_post_of_comments_never_closed_is_read_in_one_pass() -> None:
    # a lazy pattern searched from every "<!--" to the end of the post: a 200,000-character
    # post of openers took minutes on the event loop (32,000, a post's default limit, 1 s)
    hostile = "<!--" * 50_000 + " @citecast"
    assert strip_html_comments(hostile) == hostile
    assert strip_html_comments("<!-- a -->" * 50_000 + "@citecast").endswith(" @citecast")
