"""Discourse shows a post's footnotes numbered 1, 2, … by first reference in that post
(markdown-it-footnote ignores the label): a definition shown under another number than the
answer's begins with the answer's number, ``[^3]: \\[3\\] [Title](url)``, so a reader can match
it with the answer's other posts and lists; where the numbers agree nothing changes."""

from __future__ import annotations

import re

import pytest

from bot.markdown import parse
from bot.marker_parse import Grammar
from bot.markers import find_markers
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.discourse import render_posts
from renderers.discourse_numbers import numbered_post, shown_numbers, without_number
from renderers.preview_discourse import discourse_posts
from tests.renderers.payload_checks import check_discourse, discourse_footnotes

LIMIT = 700
PDF = "https://docs.example/guide-{}.pdf"
_DEFINITION = re.compile(r"^\[\^(\d+)\]: (.*)$", re.M)


def _sources(count: int) -> tuple[Citation, ...]:
    return tuple(
        Citation(n, Source(f"s{n}", title=f"Guide {n}", url=PDF.format(n), page=n + 3), n)
        for n in range(1, count + 1)
    )


def _long(count: int) -> Answer:
    """Paragraph n cites source n: too long for one post of LIMIT characters."""
    paragraphs = [
        f"Step {n} " + "takes a careful look at the settings " * 6 + f"first.[^{n}]"
        for n in range(1, count + 1)
    ]
    return Answer(text="\n\n".join(paragraphs), citations=_sources(count))


def _posts(answer: Answer, context: RenderContext | None = None) -> list[str]:
    caps = capabilities_for("discourse", {"max_chars": LIMIT})
    payload = render("discourse", answer, context or RenderContext(capabilities=caps))
    check_discourse(payload, limit=LIMIT)
    return [payload["raw"], *payload.get("continued", [])]


def _shown_order(post: str) -> list[int]:
    """The post's footnote numbers in the order Discourse shows them: first reference outside
    code, among those the post defines."""
    refs, defined = discourse_footnotes(post)
    body = "\n".join(line for line in post.split("\n") if not _DEFINITION.match(line))
    order: list[int] = []
    stack = parse(body)
    while stack:
        token = stack.pop(0)
        n = token["attrs"]["n"] if token["type"] == "citation" else None
        if n in defined and n not in order:
            order.append(n)
        stack[0:0] = token.get("children") or []
    assert set(order) == refs
    return order


def test_a_continued_post_names_the_answers_number_in_each_definition() -> None:
    posts = _posts(_long(6))
    assert len(posts) > 2
    later = posts[1]
    first = _shown_order(later)[0]
    assert first != 1  # the post's first footnote shows as [1] there
    assert f"[^{first}]: \\[{first}\\] [Guide {first}]({PDF.format(first)}), p. {first + 3}" in (
        later.split("\n")
    )


def test_every_definition_is_numbered_exactly_where_the_shown_number_differs() -> None:
    for post in _posts(_long(9)):
        shown = {n: i for i, n in enumerate(_shown_order(post), 1)}
        for m in _DEFINITION.finditer(post):
            n, text = int(m.group(1)), m.group(2)
            if shown[n] == n:
                assert not text.startswith("\\["), m.group(0)
            else:
                assert text.startswith(f"\\[{n}\\] [Guide {n}]("), m.group(0)


def test_a_one_post_answer_cited_in_order_is_unchanged() -> None:
    answer = Answer(text="First.[^1] Second.[^2] First again.[^1]", citations=_sources(2))
    raw = render("discourse", answer)["raw"]
    assert raw.endswith(
        f"[^1]: [Guide 1]({PDF.format(1)}), p. 4\n[^2]: [Guide 2]({PDF.format(2)}), p. 5"
    )


def test_a_one_post_answer_cited_out_of_order_names_the_numbers() -> None:
    answer = Answer(text="Second first.[^2] Then one.[^1]", citations=_sources(2))
    raw = render("discourse", answer)["raw"]
    assert raw.endswith(
        f"[^1]: \\[1\\] [Guide 1]({PDF.format(1)}), p. 4\n"
        f"[^2]: \\[2\\] [Guide 2]({PDF.format(2)}), p. 5"
    )


def test_a_reference_inside_code_does_not_count() -> None:
    # "[^2]" in the code span is code on the forum: [^1] is the first footnote shown
    answer = Answer(
        text="Inline `code [^2]` is no citation. One.[^1] Two.[^2]", citations=_sources(2)
    )
    raw = render("discourse", answer)["raw"]
    assert "\\[" not in raw
    assert shown_numbers("`[^2]`\n\n    [^3]\n\nOne.[^1] Two.[^2]", {1, 2, 3}) == {1: 1, 2: 2}


def test_the_number_is_no_marker_link_or_footnote_when_read_back() -> None:
    answer = Answer(text="Second first.[^2] Then one.[^1]", citations=_sources(2))
    raw = render("discourse", answer)["raw"]
    assert "\\[2\\] [Guide 2]" in raw
    # the topic's posts are history for the next turn: "\[2\]" is text, never a marker
    definitions = "\n".join(m.group(2) for m in _DEFINITION.finditer(raw))
    assert find_markers(definitions, Grammar(bare_numbers=True)) == []
    refs, defined = discourse_footnotes(raw)
    assert refs == defined == {1, 2}
    links = [t for p in parse(definitions) for t in p.get("children") or [] if t["type"] == "link"]
    assert [t["attrs"]["url"] for t in links] == [PDF.format(1), PDF.format(2)]


def test_the_preview_shows_the_forums_numbers_and_the_answers_beside_them() -> None:
    caps = capabilities_for("discourse", {"max_chars": LIMIT})
    answer = _long(6)
    context = RenderContext(capabilities=caps)
    payload = render("discourse", answer, context)
    html = discourse_posts(payload, answer, context)[1]
    later = payload["continued"][0]
    first = _shown_order(later)[0]
    # the superscript is the forum's [1]; its note reads "[n] Guide n"
    assert '<a href="#p1-fn-1">[1]</a></sup>' in html
    note = re.search(r'<li id="p1-fn-1">(.*?)</li>', html, re.S)
    assert note is not None
    link = f'<a href="{PDF.format(first)}">Guide {first}</a>'
    assert note.group(1).startswith(f"<p>[{first}] {link}")


def test_numbered_post_follows_references_changed_after_rendering() -> None:
    # the connector made [^1] and [^2] plain "\[n\]" (listed in the post after): [^3] and [^4]
    # now show as [1] and [2]
    raw = "A \\[1\\] B \\[2\\] C [^3] D [^4]\n\n[^3]: [Guide 3](u3)\n[^4]: [Guide 4](u4)"
    numbered = numbered_post(raw)
    assert numbered.endswith("[^3]: \\[3\\] [Guide 3](u3)\n[^4]: \\[4\\] [Guide 4](u4)")
    assert numbered_post(numbered) == numbered
    # a number no longer needed goes: here [^1] shows as [1] again
    stale = "Only [^1].\n\n[^1]: \\[1\\] [Guide 1](u1)"
    assert numbered_post(stale) == "Only [^1].\n\n[^1]: [Guide 1](u1)"
    assert numbered_post("No definitions.\n\nJust text.") == "No definitions.\n\nJust text."
    assert without_number(3, "\\[3\\] [Guide 3](u3)") == "[Guide 3](u3)"
    assert without_number(3, "[Guide 3](u3), weak support?") == "[Guide 3](u3), weak support?"
    # a title that itself begins "[2] …" (escaped as the renderer escapes it) keeps it
    assert without_number(3, "\\[2\\] Notes") == "\\[2\\] Notes"


@pytest.mark.parametrize(("limit", "count"), [(507, 14), (647, 9), (822, 14), (997, 14)])
def test_posts_are_filled_counting_the_numbers_so_pages_stay(limit: int, count: int) -> None:
    # a post filled without room for its definitions' numbers would lose its "p. n" to fit
    caps = capabilities_for("discourse", {"max_chars": limit})
    paragraphs = [
        " ".join(f"Point {n}.{k} is set in the file.[^{n}]" for k in range(3))
        for n in range(1, count + 1)
    ]
    answer = Answer(text="\n\n".join(paragraphs), citations=_sources(count))
    payload = render_posts(answer, RenderContext(capabilities=caps), 0)
    check_discourse(payload, limit=limit)
    posts = [payload["raw"], *payload.get("continued", [])]
    assert len(posts) > 1
    for post in posts:
        for m in _DEFINITION.finditer(post):
            assert m.group(2).endswith(f", p. {int(m.group(1)) + 3}"), m.group(0)


def test_the_preview_draws_repeated_references_as_the_forum_does() -> None:
    # markdown-it-footnote: a footnote's later references read [1:1], [1:2] …
    answer = Answer(text="Oil.[^1] Filter.[^2] Belt.[^1] Fan.[^1]", citations=_sources(2))
    html = discourse_posts(render("discourse", answer), answer, None)[0]
    captions = re.findall(r'<sup class="footnote-ref" id="([^"]+)"><a [^>]*>([^<]*)</a>', html)
    assert captions == [
        ("fnref-1", "[1]"),
        ("fnref-2", "[2]"),
        ("fnref-1:1", "[1:1]"),
        ("fnref-1:2", "[1:2]"),
    ]
