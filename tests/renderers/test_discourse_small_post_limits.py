"""Discourse posts under a small ``max_chars``: never over the limit, every source linked.

``render("discourse", …)`` (``citecast render``, ``citecast preview``) used to leave a post whose
sentence could not hold its footnote definitions, even at their shortest, over the limit
(``capabilities.discourse.max_chars: 300`` gave a 606-character post, its sources without
links): only the connector moved such definitions to the posts after it. Rendering alone now
does the same. The properties run over small limits and realistic long titles, for rendering
alone and for the connector's path (``render_posts`` with whole sentences, then
``spill_posts``), where more posts are allowed and every source is linked.
"""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.connectors.discourse_landed import told_apart
from bot.connectors.discourse_send import SUFFIX_RESERVE
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.discourse import LINK_LEFT_OUT, definition_choices, render_posts
from renderers.discourse_spill import SPILL_NOTE, definitions, spill_posts

WORDS = ["Install", "guide", "for", "Linux", "servers", "and", "proxies", "Configuration"]
PROSE = ["the", "service", "restarts", "after", "install", "proxy", "config"]


def answer_of(sources: list[Source], text: str) -> Answer:
    registry = SourceRegistry(frozenset({"public"}))
    registry.register_all(sources)
    return resolve(text, registry, ResolvePolicy())


def context(max_chars: int) -> RenderContext:
    return RenderContext(capabilities=capabilities_for("discourse", {"max_chars": max_chars}))


def rendered(answer: Answer, max_chars: int) -> list[str]:
    payload = render("discourse", answer, context(max_chars))
    return [str(payload["raw"]), *(str(raw) for raw in payload.get("continued") or [])]


def composed(answer: Answer, limit: int) -> list[str]:
    """The connector's posts, without uploads: sentences whole, then the definitions a post
    cannot hold listed after it, then the sources shown without links relinked
    (``bot.connectors.discourse_publish``)."""
    payload = render_posts(answer, context(limit), 0)
    raws = [str(payload["raw"]), *(str(raw) for raw in payload.get("continued") or [])]
    rich = definitions(str(render_posts(answer, context(10_000_000), 0)["raw"]))[1]
    shorter = definition_choices(answer, context(limit))
    raws = spill_posts(raws, limit, rich, shorter=shorter)
    return spill_posts(raws, limit, rich, shorter=shorter, relink=True)


def cited_urls(answer: Answer) -> set[str]:
    return {c.source.url for c in answer.citations if c.source.url}


CHAPTERS = [
    Source(
        id=f"s{n}",
        title=f"Configuration reference for Linux servers behind proxies, chapter {n}",
        url=f"https://docs.example.org/reference/chapter-{n}/install",
    )
    for n in range(1, 9)
]
TWO_SENTENCES = (
    "restarts config the after restarts restarts after config restarts after proxy service the "
    "restarts config the after restarts restarts after config restarts after proxy service the "
    "[1][2][3][4][5]. config after config after [3][6][7][8]."
)


def test_a_sentence_citing_many_sources_renders_within_300_characters() -> None:
    answer = answer_of(CHAPTERS, TWO_SENTENCES)
    posts = rendered(answer, 300)
    assert all(len(post) <= 300 for post in posts), [len(post) for post in posts]
    joined = "\n".join(posts)
    for source in CHAPTERS:
        assert f"]({source.url})" in joined
    assert LINK_LEFT_OUT.strip() not in joined
    listed = re.findall(r"^- \\\[(\d+)\\\] ", joined, re.M)
    assert len(listed) == len(set(listed))  # [3], cited twice, is listed once
    assert all(post.startswith(SPILL_NOTE) for post in posts if "- \\[" in post)


def test_a_weak_source_moved_out_of_its_post_reads_weak() -> None:
    answer = answer_of(CHAPTERS, TWO_SENTENCES)
    weak = Answer(
        text=answer.text,
        citations=tuple(replace(c, support=0.1) if c.n == 5 else c for c in answer.citations),
    )
    joined = "\n".join(rendered(weak, 300))
    assert "\\[5?\\]" in joined and "weak support?" in joined


titles = st.lists(st.sampled_from(WORDS), min_size=3, max_size=22).map(" ".join)
urls = st.lists(st.integers(0, 99), min_size=1, max_size=8).map(
    lambda segments: "https://docs.example.org/" + "/".join(f"seg{s}" for s in segments)
)
sources = st.lists(
    st.builds(
        lambda title, url, page, section: (title, url, page, section),
        titles,
        urls,
        st.sampled_from([None, 4]),
        st.sampled_from([None, "Setup > Linux"]),
    ),
    min_size=1,
    max_size=8,
).map(
    lambda found: [
        Source(id=f"s{n}", title=title, url=f"{url}/{n}", page=page, section=section)
        for n, (title, url, page, section) in enumerate(found, start=1)
    ]
)


@st.composite
def answers(draw: st.DrawFn) -> Answer:
    found = draw(sources)
    sentences = []
    for _ in range(draw(st.integers(1, 6))):
        words = draw(st.lists(st.sampled_from(PROSE), min_size=4, max_size=30))
        refs = draw(st.lists(st.integers(1, len(found)), min_size=1, max_size=5))
        sentences.append(" ".join(words) + " " + "".join(f"[{n}]" for n in refs) + ".")
    return answer_of(found, " ".join(sentences))


# fewer examples than the profile's: each renders a whole answer at several levels
@settings(max_examples=60)
@given(answers(), st.integers(300, 600))
def test_rendered_posts_fit_and_show_every_source(answer: Answer, max_chars: int) -> None:
    # rendering alone takes no post to keep a link (README: no more posts than the shortest
    # definitions need), so a source may show its title alone, but is never lost
    posts = rendered(answer, max_chars)
    assert all(len(post) <= max_chars for post in posts), [len(post) for post in posts]
    joined = "\n".join(posts)
    for citation in answer.citations:
        n, url = citation.n, citation.source.url
        assert f"[^{n}]: " in joined or f"- \\[{n}\\] " in joined, n
        assert f"]({url})" in joined or LINK_LEFT_OUT in joined, url


# the connector's posts are the forum's limit less room for its unique suffix (300 - 64)
@settings(max_examples=60)
@given(answers(), st.integers(236, 600))
def test_composed_posts_fit_and_link_every_source(answer: Answer, limit: int) -> None:
    posts = composed(answer, limit)
    assert all(len(post) <= limit for post in posts), [len(post) for post in posts]
    joined = "\n".join(posts)
    for url in cited_urls(answer):
        assert f"]({url})" in joined, url
    # parts that read the same are told apart, within the room kept for the unique suffix
    parts = told_apart(posts, limit + SUFFIX_RESERVE)
    assert len(parts) == len(set(parts))
    assert all(len(part) <= limit + SUFFIX_RESERVE for part in parts)
