"""Discourse: shorter footnote definitions are tried before a sentence is cut in two.

At ``max_post_length`` 300 (the smallest allowed) a 136-character sentence and its footnote fit
one post once the footnote is shortened; the richer definition does not fit beside it. The
sentence is posted whole with the shorter footnote, not as "… the same steps as on" and
"Linux [^1]." in two posts.
"""

from __future__ import annotations

from pathlib import Path

from tests.connectors.discourse_harness import PUBLIC, opened_harness, outbox_empty
from tests.fakes.discourse_api import FakeDiscourse
from tests.renderers.test_discourse_fit_levels import GETTING_STARTED, HANDBOOK

FIRST = (
    "On macOS, install Python 3.11 from python.org or with Homebrew (`brew install"
    " python@3.11`), then follow the same steps as on Linux [1]."
)
SECOND = "This handbook is for operators who run citecast for a team [2]."


async def test_a_sentence_that_fits_with_a_shorter_footnote_is_posted_whole(
    tmp_path: Path,
) -> None:
    forum = FakeDiscourse(max_post_length=300, authorized_extensions=("pdf",))
    async with forum, opened_harness(forum, tmp_path, max_post_length=300) as h:
        h.script([GETTING_STARTED, HANDBOOK], f"{FIRST} {SECOND}")
        topic = forum.new_topic("Install", "@citecast install and operate?", category_id=PUBLIC)
        await h.deliver(topic)
        await outbox_empty(h)
        posts = [p["raw"] for p in forum.bot_posts()]
        bodies = [raw.split("\n\n[^")[0].rstrip() for raw in posts]
        assert all(body.endswith(".") for body in bodies), bodies
        assert any("same steps as on Linux\u00a0[^1]." in body for body in bodies), bodies
        assert all(len(raw) <= 300 for raw in posts), [len(raw) for raw in posts]
