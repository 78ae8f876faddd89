"""Discourse posts move text to a further post before their definitions lose page numbers.

A QA pass rendered a 60-citation answer (each source a PDF page) at the default 32,000
characters: the first post held 31,752 characters and 49 footnotes without their ", p. N",
the second only 7,327. Page numbers are the most useful part of a PDF citation, so trailing
blocks now move to the next post when another post is allowed, and definitions are shortened
only when a post cannot be made to fit otherwise.
"""

from __future__ import annotations

import re

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.discourse import render_posts
from tests.renderers.payload_checks import check_discourse, discourse_footnotes

DEFINITION = re.compile(r"^\[\^(\d+)\]: (.*)$", re.M)


def pdf_sources(count: int) -> tuple[Citation, ...]:
    return tuple(
        Citation(n, Source(id=f"s{n}", title=f"Doc {n} [v{n}] (draft) | *x* _y_ <b>",
                           url=f"https://docs.example/d{n}?a=1&b=(2)", text="t", page=n), n)
        for n in range(1, count + 1)
    )  # fmt: skip


def sixty() -> Answer:
    """The QA pass's answer: 60 sentences of about 560 characters, each citing its page."""
    text = " ".join(
        f"Claim number {n} is explained in great detail with plenty of words here"
        f" {'lorem ipsum dolor sit amet ' * 18}[^{n}]."
        for n in range(1, 61)
    )
    return Answer(text=text, citations=pdf_sources(60))


def posts_of(payload: dict[str, object]) -> list[str]:
    continued = payload.get("continued") or []
    assert isinstance(continued, list)
    return [str(payload["raw"]), *(str(raw) for raw in continued)]


def test_sixty_pdf_citations_keep_their_page_numbers_in_every_post() -> None:
    payload = render("discourse", sixty())
    check_discourse(payload)
    posts = posts_of(payload)
    assert len(posts) == 2  # as many posts as before: only how the text is shared changed
    definitions = [m for post in posts for m in DEFINITION.finditer(post)]
    assert sorted(int(m.group(1)) for m in definitions) == list(range(1, 61))
    for m in definitions:
        assert m.group(2).endswith(f", p. {m.group(1)}"), m.group(0)


def short_answer() -> Answer:
    """Fits one post of 2,000 characters only with the shortest definitions (no page)."""
    text = "\n\n".join(f"Step {n} is described in the manual [^{n}]." for n in range(1, 13))
    citations = tuple(
        Citation(n, Source(id=f"s{n}", title=f"Operations manual, chapter {n}: " + "x" * 90,
                           url=f"https://docs.example/manual/{n}", text="t", page=n), n)
        for n in range(1, 13)
    )  # fmt: skip
    return Answer(text=text, citations=citations)


def context(limit: int) -> RenderContext:
    return RenderContext(capabilities=capabilities_for("discourse", {"max_chars": limit}))


def test_a_further_post_is_taken_only_where_the_forum_allows_it() -> None:
    answer = short_answer()
    alone = posts_of(render("discourse", answer, context(2000)))
    assert len(alone) == 1 and ", p. " not in alone[0]  # rendering alone adds no post
    one = posts_of(render_posts(answer, context(2000), max_posts=1))
    assert one == alone
    for allowed in (0, 3):
        payload = render_posts(answer, context(2000), max_posts=allowed)
        check_discourse(payload, 2000)
        posts = posts_of(payload)
        assert len(posts) == 2
        for post in posts:
            refs, defined = discourse_footnotes(post)
            assert refs == defined
            for m in DEFINITION.finditer(post):
                assert f", p. {m.group(1)}" in m.group(2)


def test_a_sentence_is_not_cut_to_make_room_for_its_definitions() -> None:
    # the QA pass's answer at the smallest max_post_length: the second sentence was posted as
    # "… listed" and "below [^3][^4][^5]…" in two posts
    text = (
        "Install the package with pip and then run the setup wizard to create the config file"
        " [^1][^2].\n\nThe timeout can be configured in several places, listed below "
        + "".join(f"[^{n}]" for n in range(3, 12))
        + "."
    )
    citations = tuple(
        Citation(n, Source(id=f"s{n}", title=f"Document {n}",
                           url=f"https://docs.example/path/d{n}", text="t"), n)
        for n in range(1, 12)
    )  # fmt: skip
    answer = Answer(text=text, citations=citations)
    for limit in (300, 400):
        # (the renderer glues a reference to its word with a no-break space)
        posts = [p.replace("\xa0", " ") for p in posts_of(render_posts(answer, context(limit), 0))]
        sentence = "The timeout can be configured in several places, listed below [^3]"
        assert sum(sentence in post for post in posts) == 1, posts
        assert not any(post.rstrip().endswith("listed") for post in posts)
