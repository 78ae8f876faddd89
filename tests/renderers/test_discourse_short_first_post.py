"""A first post shorter than the forum's minimum gets a note that the answer goes on.

Found while fixing small-limit footnotes: under a small ``capabilities.discourse.max_chars``,
a short block before one that needs a post of its own ("Ok." before a long code block) was a
first post of three characters, which Discourse refuses (``min_post_length``, 20), losing the
answer. A continued post already had its note; the first one now has one too.
"""

from __future__ import annotations

import pytest

from bot.models import Answer
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.discourse import CONTINUES_NOTE, forum_length


@pytest.mark.parametrize("code_chars", [196, 205, 214])
def test_a_short_first_post_is_long_enough_for_the_forum(code_chars: int) -> None:
    caps = capabilities_for("discourse", {"max_chars": 200})
    text = "Ok.\n\n```\n" + "y" * (code_chars - 8) + "\n```"
    payload = render("discourse", Answer(text=text), RenderContext(capabilities=caps))
    posts = [payload["raw"], *payload.get("continued", [])]
    assert len(posts) > 1
    assert payload["raw"] == f"Ok.\n\n{CONTINUES_NOTE}"
    assert all(forum_length(post) >= caps.min_chars and len(post) <= 200 for post in posts)


def test_a_first_post_long_enough_has_no_note() -> None:
    caps = capabilities_for("discourse", {"max_chars": 200})
    text = "A sentence long enough for the forum.\n\n```\n" + "y" * 190 + "\n```"
    payload = render("discourse", Answer(text=text), RenderContext(capabilities=caps))
    assert payload["raw"] == "A sentence long enough for the forum."
