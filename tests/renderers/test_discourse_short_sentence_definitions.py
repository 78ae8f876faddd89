"""Discourse posts under a small ``max_chars`` define every footnote the answer cites.

A block shorter than the smallest piece the fitter cut (80 characters) whose definitions did
not fit beside it was "cut" into itself: ``@everyone[^1] … @here[^2]`` (80 characters) with two
definitions of 54 and 64 characters made a 201-character post under ``max_chars: 200``, so
rendering alone moved ``[^2]`` to a "More sources" list after it and no post defined it.
Rendering alone now cuts such a block at a space, into pieces that each hold their
definitions, as it does a longer one.
"""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.markdown import parse
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.discourse_spill import SPILL_NOTE
from renderers.document import cited_numbers, decide_forms
from tests.renderers.payload_checks import discourse_footnotes
from tests.renderers.test_renderer_properties import answers, contexts

# the answer hypothesis shrank the failure to: one 80-character sentence, two sources
MENTIONS = "@everyone[^1] @everyone @everyone @everyone @everyone @everyone @here[^2]"


def source(n: int, title: str | None) -> Source:
    return Source(
        id=f"s{n}",
        title=title,
        url="https://docs.example/a",
        path="kb/a.pdf" if title else None,
    )


MENTIONS_ANSWER = Answer(
    text=MENTIONS,
    citations=(
        Citation(n=1, source=source(1, None), source_number=1),
        Citation(n=2, source=source(2, "@everyone @everyone @everyone"), source_number=2),
    ),
)


def posts_of(answer: Answer, context: RenderContext, max_chars: int) -> list[str]:
    caps = capabilities_for("discourse", {"max_chars": max_chars})
    payload = render("discourse", answer, dataclasses.replace(context, capabilities=caps))
    return [str(payload["raw"]), *(str(raw) for raw in payload.get("continued", []))]


def check_every_source_defined(
    answer: Answer, context: RenderContext, max_chars: int, posts: list[str]
) -> None:
    """Each post within the limit and defining each footnote it references; each cited source
    the viewer may see defined as a footnote in some post (none only listed after one)."""
    for raw in posts:
        assert len(raw) <= max_chars, raw
        refs, defined = discourse_footnotes(raw)
        assert refs <= defined, (sorted(refs - defined), raw)
    if context.show == "none":
        return
    caps = capabilities_for("discourse", {"max_chars": max_chars})
    forms = decide_forms(answer.citations, caps, context)
    joined = "\n".join(posts)
    for n in cited_numbers(parse(answer.text)):
        if n in forms and forms[n].reachable:
            assert f"[^{n}]: " in joined, (n, posts)


def test_a_short_sentence_whose_definitions_do_not_fit_is_cut_not_spilled() -> None:
    posts = posts_of(MENTIONS_ANSWER, RenderContext(), 200)
    check_every_source_defined(MENTIONS_ANSWER, RenderContext(), 200, posts)
    assert not any(raw.startswith(SPILL_NOTE) for raw in posts)
    assert len(posts) == 2
    # cut at a space, each reference in the post with its definition
    assert posts[0].startswith("@\u200beveryone[^1] @\u200beveryone")
    assert "[^1]: [https://docs.example/a](https://docs.example/a)" in posts[0]
    assert posts[1].startswith("@\u200bhere[^2]\n\n[^2]: ")
    assert "(https://docs.example/a)" in posts[1]  # the link kept, not left out


@settings(
    max_examples=600,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(answer=answers(), context=contexts, max_chars=st.integers(200, 1200))
@example(answer=MENTIONS_ANSWER, context=RenderContext(), max_chars=200)
def test_small_limits_define_every_cited_footnote(
    answer: Answer, context: RenderContext, max_chars: int
) -> None:
    posts = posts_of(answer, context, max_chars)
    check_every_source_defined(answer, context, max_chars, posts)
