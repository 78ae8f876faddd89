"""The shared answer page's citation names and keyboard-scrollable blocks, added on the server
to the web renderer's real HTML (the page runs no script)."""

from __future__ import annotations

from html.parser import HTMLParser

from bot.connectors.web_turn_page import turn_page
from bot.connectors.web_turn_page_names import accessible_answer, source_entries
from bot.models import Answer, Citation
from renderers import render
from renderers.base import RenderContext
from tests.connectors.web.conftest import passage


class _Links(HTMLParser):
    """The attributes of every citation link, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and "data-n" in found:
            self.links.append(found)


def rendered(answer: Answer) -> str:
    return str(render("web", answer, RenderContext(turn_id="7"))["html"])


def links(page: str) -> list[dict[str, str | None]]:
    parser = _Links()
    parser.feed(page)
    return parser.links


def test_citations_are_named_as_the_chat_names_them_weak_ones_saying_so() -> None:
    odd = passage(1, title='Guide "A" & <B>', section="Setup > Linux")
    record = passage(2, url=None, section=None, page=None, title="Team plan (CC-TEAM)")
    answer = Answer(
        text="One.[^1] Two.[^2] One again.[^1]",
        citations=(
            Citation(n=1, source=odd, source_number=1, quote=odd.text),
            Citation(n=2, source=record, source_number=2, quote=record.text, support=0.1),
        ),
    )
    page = turn_page(rendered(answer))
    found = links(page)
    assert [link["aria-label"] for link in found] == [
        'Source 1: Guide "A" & <B>, p. 1, Setup > Linux',
        "Source 2 (weakly supported): Team plan (CC-TEAM)",
        'Source 1: Guide "A" & <B>, p. 1, Setup > Linux',
    ]
    # the weak one's hover text says so first; the others' are the renderer's own
    assert str(found[1]["title"]).startswith("Weakly supported (the \u201c?\u201d): ")
    assert not str(found[0]["title"]).startswith("Weakly")
    assert found[0]["aria-describedby"], "still described by its source list entry"


def test_the_entries_come_from_the_answers_own_source_list() -> None:
    answer = Answer(
        text="One.[^1]",
        citations=(Citation(n=1, source=passage(1), source_number=1, quote="q"),),
    )
    assert source_entries(rendered(answer)) == {1: ("Guide 1", "p. 1, Setup > Linux")}


def test_code_blocks_and_tables_take_keyboard_focus_with_a_name() -> None:
    text = "Look:[^1]\n\n| a | b |\n|---|---|\n| x | y |\n\n```\ncode\n```\n"
    answer = Answer(
        text=text, citations=(Citation(n=1, source=passage(1), source_number=1, quote="q"),)
    )
    html = accessible_answer(rendered(answer))
    assert '<pre tabindex="0" role="region" aria-label="Code">' in html
    assert '<table tabindex="0" aria-label="Table">' in html


def test_the_page_links_back_to_the_chat_and_its_sources_heading_keeps_its_words() -> None:
    answer = Answer(
        text="One.[^1]",
        citations=(Citation(n=1, source=passage(1), source_number=1, quote="q"),),
    )
    page = turn_page(rendered(answer))
    assert '<a class="cc-secondary cc-to-chat" href="../">Ask a question in the chat</a>' in page
    assert '<h2 class="sources-title">Sources</h2>' in page
