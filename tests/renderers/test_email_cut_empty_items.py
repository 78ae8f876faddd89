"""The email's HTML part, cut to its budget inside a loose list, ends on no empty item.

Found by QA: an answer of loose list items (each item's text in a ``<p>``) cut by the
budget ended ``<li dir="auto"></li></ul>``, an empty bullet: a cut fell before the ``<p>`` that
opens right at the start of a new item, where nothing of the item had shown yet, and closing
what the cut left open wrote the item empty. A cut never falls inside an element that has shown
nothing yet.
"""

from __future__ import annotations

import re

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.email_cut import cuts, piece
from tests.renderers.payload_checks import check_email

EMPTY_ITEM = re.compile(r"<li\b[^>]*>\s*</li>")


def loose_list(items: int) -> Answer:
    """A loose list (a blank line between items, so each item's text is a paragraph)."""
    text = "\n\n".join(
        f"- Item {n} says what step {n} does and why it matters here [^1]." for n in range(items)
    )
    source = Source(id="s1", title="Guide", url="https://docs.example/guide")
    return Answer(text=text, citations=(Citation(1, source, 1),))


def test_no_cut_opens_a_paragraph_of_an_item_that_has_shown_nothing() -> None:
    block = '<ul><li><p dir="auto">One.</p></li><li><p dir="auto">Two.</p></li></ul>'
    pieces = [piece(block, cut) for cut in cuts(block)]
    assert pieces, block
    for shown in pieces:
        assert not EMPTY_ITEM.search(shown), shown
    # the cut after the first item is still there
    assert '<ul><li><p dir="auto">One.</p></li></ul>' in pieces


def test_an_item_with_text_before_its_paragraph_may_still_be_cut_before_it() -> None:
    block = '<ul><li>Lead<p dir="auto">More.</p></li></ul>'
    assert "<ul><li>Lead</li></ul>" in [piece(block, cut) for cut in cuts(block)]


def test_a_loose_list_cut_by_a_small_budget_ends_on_no_empty_item() -> None:
    answer = loose_list(40)
    for budget in range(2_600, 4_200, 97):
        caps = capabilities_for("email", {"max_chars": budget})
        payload = render("email", answer, RenderContext(capabilities=caps))
        check_email(payload)
        html = str(payload["html"])
        assert len(html.encode("utf-8")) < budget
        assert "Item 0 says" in html, budget  # the answer's start is kept
        assert not EMPTY_ITEM.search(html), (budget, html[html.find("<ul") :][-400:])
