"""A short sentence citing many sources is posted whole; its other sources follow it.

A QA pass posted, at ``max_post_length: 300`` (and 400), a sentence of 80 characters citing
nine sources as "The timeout can be configured in several places, listed" in one post and
"below [^3][^4][^5]\\[6\\]…" in the next: only its definitions did not fit. The sentence now
stays whole, keeps the first footnotes that fit, and its other sources are listed after it
("*(More sources of the post above.)*"), as the README's "Small posts" says. Driven through the
connector's real client against the loopback fake forum, which refuses posts over its limit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Source
from renderers.discourse_spill import SPILL_NOTE
from tests.connectors.discourse_harness import PUBLIC, forum, opened_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

SENTENCE = "The timeout can be configured in several places, listed below"
ANSWER = (
    "Install the package with pip and then run the setup wizard to create the config file"
    " [1][2].\n\n" + SENTENCE + " " + "".join(f"[{n}]" for n in range(3, 12)) + "."
)


@pytest.mark.parametrize("limit", [300, 400])
async def test_the_sentence_stays_whole_and_every_source_arrives(
    forum: FakeDiscourse, tmp_path: Path, limit: int
) -> None:
    forum.max_post_length = limit
    forum.max_consecutive_replies = 0
    sources = [
        Source(id=f"s{n}", title=f"Document {n}", url=f"https://docs.example/path/d{n}", text="t")
        for n in range(1, 12)
    ]
    async with opened_harness(
        forum, tmp_path, max_post_length=limit, max_consecutive_replies=0
    ) as h:
        h.script(sources, ANSWER)
        await h.deliver(forum.new_topic("Timeout", "Where is the timeout set?", category_id=PUBLIC))
        assert h.store.pending("discourse") == []
    posts = [str(p["raw"]).replace("\xa0", " ") for p in forum.bot_posts()]
    assert all(len(post) <= limit for post in posts)
    (holding,) = [i for i, post in enumerate(posts) if SENTENCE in post]
    assert f"{SENTENCE} [^3]" in posts[holding]
    assert not any(post.rstrip().endswith("listed") for post in posts)
    assert posts[holding + 1].startswith(SPILL_NOTE)  # its other sources, right after it
    joined = "\n".join(posts)
    for source in sources:
        assert f"({source.url})" in joined
