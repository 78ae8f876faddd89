"""Long answers split into full posts and messages: Discourse, Discord and Slack.

A QA pass rendered a long answer for Discourse at a post limit of 692 characters and got ten
posts alternating about 657 and 98 characters: each paragraph too long for a post left its last
words, and their footnote definition, alone in a post of their own. A block longer than a post
is cut anyway, so its first piece now fills the room the post before has left; a block a post
holds still moves whole. Every guarantee stays: no cut inside a link or a reference entry, a
marker stays with its sentence, every source arrives, every post defines what it cites.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.discourse import SHORTEST, definition_body
from renderers.discourse_numbers import prefix, shown_numbers
from renderers.document import decide_forms
from tests.renderers.payload_checks import (
    check_discord,
    check_discourse,
    check_slack,
    discourse_footnotes,
)

DEFINITION = re.compile(r"^\[\^\d+\]: .*$", re.M)
WORD = re.compile(r"[a-z]\d+w\d{3}")


def sources(k: int) -> tuple[Citation, ...]:
    return tuple(
        Citation(n, Source(id=f"s{n}", title=f"Operations handbook chapter {n}",
                           url=f"https://docs.example/handbook/chapter-{n}", page=n), n)
        for n in range(1, k + 1)
    )  # fmt: skip


def sentences_answer(paragraphs: int, sentences: int, k: int = 12) -> Answer:
    """A realistic long answer: paragraphs of cited sentences, citing ``k`` sources."""
    text = "\n\n".join(
        " ".join(
            f"In step {p}.{s} the gateway a{p}w{s:03d} rebuilds its policy cache from the"
            f" controller.[^{(p * sentences + s) % k + 1}]"
            for s in range(sentences)
        )
        for p in range(paragraphs)
    )
    return Answer(text=text, citations=sources(k))


def words_answer(paragraphs: int = 5, words: int = 95, marker: str = "[^{n}]") -> Answer:
    """The QA pass's answer: paragraphs of unique words with no sentence end but the last,
    each citing its source at the end (as tests/connectors' lowered-limit answer)."""
    text = "\n\n".join(
        " ".join(f"a{n}w{i:03d}" for i in range(words)) + " " + marker.format(n=n) + "."
        for n in range(1, paragraphs + 1)
    )
    return Answer(text=text, citations=sources(paragraphs))


def context(channel: str, limit: int) -> RenderContext:
    return RenderContext(
        capabilities=dataclasses.replace(capabilities_for(channel), max_chars=limit)
    )


def posts(answer: Answer, limit: int) -> list[str]:
    payload = render("discourse", answer, context("discourse", limit))
    check_discourse(payload, limit)
    return [payload["raw"], *payload.get("continued", [])]


def body(post: str) -> str:
    return DEFINITION.sub("", post).rstrip()


def shortest_merged(answer: Answer, first: str, second: str) -> int:
    """The least a post holding both posts' bodies would take: their bodies and the shortest
    definitions of every footnote either cites (as the renderer measures a post)."""
    forms = decide_forms(answer.citations, capabilities_for("discourse"), RenderContext())
    merged = body(first) + "\n\n" + body(second)
    cited = discourse_footnotes(first)[0] | discourse_footnotes(second)[0]
    # a definition shown under another number than its own names its own (discourse_numbers)
    shown = shown_numbers(merged, cited)
    return len(merged) + 1 + sum(len(f"[^{n}]: ") + len(prefix(n, shown.get(n)))
                                 + len(definition_body(forms[n], SHORTEST)) + 1
                                 for n in cited)  # fmt: skip


def assert_whole(answer: Answer, parts: list[str]) -> None:
    """Every word and every marker arrived, once each, in order."""
    joined = "\n".join(body(p) for p in parts)
    assert WORD.findall(joined) == WORD.findall(answer.text)
    assert re.findall(r"\[\^\d+\]", joined) == re.findall(r"\[\^\d+\]", answer.text)


# --- Discourse at 692 ----------------------------------------------------------------------


def test_the_qa_answer_at_692_fills_its_posts() -> None:
    # before: [657, 98, 657, 98, 657, 98, 657, 98, 657, 98]
    answer = words_answer()
    raws = posts(answer, 692)
    assert_whole(answer, raws)
    total = sum(len(r) for r in raws)
    assert len(raws) <= math.ceil(total / 692) + 1
    assert all(len(raw) >= 692 // 2 for raw in raws[:-1]), [len(r) for r in raws]


def test_a_long_answer_with_twelve_citations_at_692_has_no_near_empty_post() -> None:
    answer = sentences_answer(paragraphs=10, sentences=9)
    raws = posts(answer, 692)
    assert_whole(answer, raws)
    assert all(len(raw) >= 692 // 2 for raw in raws[:-1]), [len(r) for r in raws]
    for first, second in itertools.pairwise(raws):
        assert shortest_merged(answer, first, second) > 692
    # a marker stays with the sentence it cites: no post opens with one
    assert not any(re.match(r"\s*\[\^\d+\]", r) for r in raws)
    # every source arrives
    defined = set().union(*(discourse_footnotes(r)[1] for r in raws))
    assert defined == set(range(1, 13))


def test_a_paragraph_that_fits_a_post_moves_whole() -> None:
    # greedy by block: the start of a block a post holds is not cut off to fill the one before
    answer = sentences_answer(paragraphs=6, sentences=4)
    raws = posts(answer, 692)
    paragraphs = answer.text.split("\n\n")
    for paragraph in paragraphs:
        assert sum(paragraph in body(r) for r in raws) == 1


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 8),
    st.integers(1, 14),
    st.integers(300, 1500),
)
def test_discourse_posts_are_as_full_as_greedy_packing_allows(
    paragraphs: int, sentences: int, limit: int
) -> None:
    answer = sentences_answer(paragraphs, sentences)
    raws = posts(answer, limit)
    assert_whole(answer, raws)
    paragraphs_of = set(answer.text.split("\n\n"))
    for first, second in itertools.pairwise(raws):
        assert shortest_merged(answer, first, second) > limit
        # a short post only before a paragraph that moved whole (see test_packing_fill)
        starts_whole = body(second).split("\n\n")[0] in paragraphs_of
        assert len(first) >= limit // 4 or starts_whole, [len(r) for r in raws]


# --- Discord at 2,000 and Slack sections ---------------------------------------------------


def discord_contents(answer: Answer) -> list[str]:
    payload: dict[str, Any] = render("discord", answer)
    check_discord(payload)
    return [m["content"] for m in payload["messages"]]


def test_discord_paragraphs_longer_than_a_message_fill_each_message() -> None:
    # paragraphs of ~2,100 characters: each used to leave its last sentences alone in a
    # message of their own (about 2,000 then 100, ten times over)
    answer = sentences_answer(paragraphs=8, sentences=24, k=12)
    contents = discord_contents(answer)
    body_parts = [c for c in contents if not c.startswith("**Sources**")]
    assert all(len(c) >= 1000 for c in body_parts[:-1]), [len(c) for c in contents]
    for first, second in itertools.pairwise(contents):
        assert len(first) + 2 + len(second) > 2000
    text = "\n".join(contents)
    assert WORD.findall(text) == WORD.findall(answer.text)
    # every source arrives, as a masked link
    assert all(f"(<https://docs.example/handbook/chapter-{n}>)" in text for n in range(1, 13))


def test_slack_sections_are_full() -> None:
    answer = sentences_answer(paragraphs=6, sentences=34, k=12)
    payload = render("slack", answer)
    check_slack(payload)
    sections = [
        b["text"]["text"]
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]
    assert all(len(s) >= 1500 for s in sections[:-1]), [len(s) for s in sections]
    joined = "\n".join(sections)
    assert WORD.findall(joined) == WORD.findall(answer.text)
