"""A plain Discourse render takes no post only to keep its footnote definitions rich.

Packing is greedy, so the richest definitions could take fewer posts than the shortest (a
paragraph cut elsewhere) and still leave a paragraph's last sentence alone in a post of its own:
at a post limit of 1,293 a long answer took ten posts, the last holding one sentence that the
post before it had room for at the shortest definitions (1,286 characters in all).
"""

from __future__ import annotations

import itertools

from renderers.discourse import render_posts
from tests.renderers.test_packing_channels import (
    assert_whole,
    body,
    context,
    posts,
    sentences_answer,
    shortest_merged,
)

LIMIT = 1293


def test_a_last_sentence_that_fits_the_post_before_at_the_shortest_does_not_take_a_post() -> None:
    answer = sentences_answer(paragraphs=8, sentences=8)
    raws = posts(answer, LIMIT)  # checks every post is within the limit
    assert_whole(answer, raws)
    assert len(raws) == 9, [len(r) for r in raws]
    for first, second in itertools.pairwise(raws):
        assert shortest_merged(answer, first, second) > LIMIT
    # the answer's last sentence shares its post with the sentences before it
    last = "In step 7.7 the gateway a7w007 rebuilds its policy cache from the controller.[^4]"
    assert body(raws[-1]).endswith(last) and body(raws[-1]) != last


def test_the_connector_may_still_take_a_post_more_to_keep_richer_definitions() -> None:
    # where the forum takes more replies in a row, the richer definitions keep their posts
    answer = sentences_answer(paragraphs=8, sentences=8)
    payload = render_posts(answer, context("discourse", LIMIT), max_posts=0)
    raws = [payload["raw"], *payload.get("continued", [])]
    assert_whole(answer, raws)
    assert len(raws) == 10, [len(r) for r in raws]
    assert all("p. " in raw for raw in raws)
