"""The shared answer page's per-number notes (its description, shown on keyboard focus), added
on the server to the web renderer's real HTML: one per number, each with its own id, holding its
own hover text escaped as text, and the number described by it rather than by the source list."""

from __future__ import annotations

from html.parser import HTMLParser

from bot.connectors.web_turn_page import turn_page
from bot.models import Answer, Citation
from renderers import render
from renderers.base import RenderContext
from tests.connectors.web.conftest import passage


class _Notes(HTMLParser):
    """Each citation link's aria-describedby, and each note's id and text."""

    def __init__(self) -> None:
        super().__init__()
        self.described: list[str | None] = []
        self.notes: dict[str, str] = {}
        self._note: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and "data-n" in found:
            self.described.append(found.get("aria-describedby"))
        elif tag == "span" and found.get("class") == "cc-cite-note":
            self._note = found.get("id") or ""
            self.notes[self._note] = ""
        elif self._note is not None:
            raise AssertionError(f"markup inside a note: <{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self._note = None

    def handle_data(self, data: str) -> None:
        if self._note is not None:
            self.notes[self._note] += data


def test_each_number_gets_its_own_note_with_its_hover_text_as_text() -> None:
    odd = passage(1, title='Guide "A" & <B>', text="Run <script>alert(1)</script> & wait.")
    answer = Answer(
        text="One.[^1] Two.[^1]",
        citations=(Citation(n=1, source=odd, source_number=1, quote=odd.text),),
    )
    page = turn_page(str(render("web", answer, RenderContext(turn_id="7"))["html"]))
    parser = _Notes()
    parser.feed(page)
    assert parser.described == ["cc-note-1", "cc-note-2"]
    assert list(parser.notes) == ["cc-note-1", "cc-note-2"]
    for text in parser.notes.values():
        assert 'Guide "A" & <B>' in text and "Run <script>alert(1)</script> & wait." in text, text
    assert "<script>" not in page
