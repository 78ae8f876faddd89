"""The web renderer shows each marker of a citation its own quote, link and weakness.

When a source is cited for two sentences and another passage sentence backs the second
(``Citation.occurrences``), the k-th ``[^n]`` superscript gets occurrence k's hover text, its
link where the marker is a link, ``data-occurrence="k"`` for the page's tooltip, and the payload
lists the occurrences; the source list keeps one entry with the citation's own quote.
"""

from __future__ import annotations

import re
from html import unescape

from bot.grounding import verify
from bot.models import Answer, Citation, CitationAdded, Occurrence, Source, TextDelta
from renderers import render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer
from tests.grounding.two_claims import GUIDE, PIP, SQLITE, TWO_CLAIMS

PIP_LINK = "https://docs.example.org/install.html#:~:text=pip"
SQLITE_LINK = "https://docs.example.org/install.html#:~:text=SQLite"
TEXT = TWO_CLAIMS
SUP_RE = re.compile(r'<sup class="(citation[^"]*)">\u2060<a ([^>]*)>([^<]*)</a></sup>')


def _answer(*marks: Occurrence, text: str = TEXT, support: float | None = 1.0) -> Answer:
    citation = Citation(
        1, GUIDE, 1, quote=PIP, deep_link=PIP_LINK, support=support, occurrences=marks
    )
    return Answer(text=text, citations=(citation,))


TWO = _answer(Occurrence(PIP, PIP_LINK, 1.0), Occurrence(SQLITE, SQLITE_LINK, 1.0))


def _sups(html: str) -> list[tuple[str, dict[str, str], str]]:
    """Each superscript: its class, its link's attributes and its text."""
    out = []
    for match in SUP_RE.finditer(html):
        attrs = {k: unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', match.group(2))}
        out.append((match.group(1), attrs, match.group(3)))
    return out


def test_each_marker_shows_its_own_quote_and_number() -> None:
    payload = render("web", TWO)
    first, second = _sups(payload["html"])
    assert first[1]["title"] == f"Install guide: \u201c{PIP}\u201d"
    assert second[1]["title"] == f"Install guide: \u201c{SQLITE}\u201d"
    assert (first[1]["data-occurrence"], second[1]["data-occurrence"]) == ("1", "2")
    # both still lead to the one source list entry, which quotes the citation's own sentence
    assert first[1]["href"] == second[1]["href"] == f"#{first[1]['aria-describedby']}"
    assert payload["html"].count('<span class="quote"') == 1
    assert f"\u201c{PIP}\u201d</span>" in payload["html"]


def test_without_a_source_list_each_marker_links_its_own_quote() -> None:
    html = render("web", TWO, RenderContext(show="none"))["html"]
    assert [attrs["href"] for _, attrs, _ in _sups(html)] == [PIP_LINK, SQLITE_LINK]


def test_the_payload_lists_each_markers_quote_link_and_weakness() -> None:
    answer = _answer(Occurrence(PIP, PIP_LINK, 1.0), Occurrence(SQLITE, SQLITE_LINK, 0.1))
    (citation,) = render("web", answer)["citations"]
    assert citation["quote"] == PIP and citation["url"] == PIP_LINK
    assert citation["occurrences"] == [
        {"quote": PIP, "url": PIP_LINK},
        {"quote": SQLITE, "url": SQLITE_LINK, "weak": True},
    ]


def test_only_the_weak_marker_is_marked_weak() -> None:
    answer = _answer(
        Occurrence(PIP, PIP_LINK, 1.0), Occurrence(SQLITE, SQLITE_LINK, 0.1), support=0.1
    )
    html = render("web", answer)["html"]
    (first_class, _, first), (second_class, _, second) = _sups(html)
    assert (first_class, first) == ("citation", "[1]")
    assert (second_class, second) == ("citation weak", "[1?]")
    # the source entry is weak: one of its uses is
    assert '<li id="cite-' in html and 'class="weak"' in html


def test_a_marker_the_occurrences_do_not_reach_shows_the_citation() -> None:
    text = TEXT + " It is small [^1]."
    html = render("web", _answer(*TWO.citations[0].occurrences, text=text))["html"]
    third = _sups(html)[2][1]
    assert third["title"] == f"Install guide: \u201c{PIP}\u201d"
    assert third["data-occurrence"] == "3"  # the page finds no third entry: the citation's


def test_a_citation_without_occurrences_renders_as_before() -> None:
    html = render("web", _answer())["html"]
    for _, attrs, _ in _sups(html):
        assert "data-occurrence" not in attrs
        assert attrs["title"] == f"Install guide: \u201c{PIP}\u201d"


def test_a_download_opens_each_marker_at_its_own_quote() -> None:
    notes = Source(id="notes#1", title="Notes", path="/srv/notes.md", media_type="text/markdown")
    citation = Citation(
        1,
        notes,
        1,
        quote=PIP,
        occurrences=(Occurrence(PIP, support=1.0), Occurrence(SQLITE, support=1.0)),
    )
    context = RenderContext(
        show="none", signer=lambda s: "https://bot.example/files/t0k", attach_files=False
    )
    html = render("web", Answer(text=TEXT, citations=(citation,)), context)["html"]
    first, second = (attrs["href"] for _, attrs, _ in _sups(html))
    assert first.startswith("https://bot.example/files/t0k#:~:text=Install")
    assert second.startswith("https://bot.example/files/t0k#:~:text=The%20index")


def test_a_verified_answer_reaches_the_page_through_the_stream() -> None:
    """The streamed answer is grounded after its last token: ``finish`` must render the
    final answer's occurrences, as the web connector's ``done`` event sends them."""
    first = "Install with pip install citecast [^1].\n\n"
    plain = Answer(
        text=f"{first}The index is a single SQLite file [^1].", citations=(Citation(1, GUIDE, 1),)
    )
    final = verify(plain)
    assert len(final.citations[0].occurrences) == 2
    stream = StreamRenderer("web", tail_growth=1.25)
    stream.feed([CitationAdded(plain.citations[0])])
    for piece in (first, "The index is a single ", "SQLite file [^1]."):
        stream.feed([TextDelta(piece)])
        stream.preview()  # a connector's edits render the open paragraph again and again
    done = stream.finish(final)
    assert done == render("web", final)
    titles = [attrs["title"] for _, attrs, _ in _sups(done["html"])]
    assert titles == [f"Install guide: \u201c{PIP}\u201d", f"Install guide: \u201c{SQLITE}\u201d"]


def test_a_stream_that_announced_the_occurrences_first_numbers_its_markers_in_order() -> None:
    """Citations may come with their occurrences before the text (an answerer replaying a
    stored answer): every edit draws the open paragraph again, and the finished answer still
    gives the k-th marker the k-th quote."""
    first = "Install with pip install citecast [^1].\n\n"
    final = verify(
        Answer(
            text=f"{first}The index is a single SQLite file [^1]. It is small [^1].",
            citations=(Citation(1, GUIDE, 1),),
        )
    )
    stream = StreamRenderer("web", tail_growth=1.25)
    stream.feed([CitationAdded(final.citations[0])])
    for piece in ("Install with pip ", first[17:], "The index is a single ", "SQLite file [^1]. "):
        stream.feed([TextDelta(piece)])
        stream.preview()
    stream.feed([TextDelta("It is small [^1].")])
    done = stream.finish(final)
    assert done == render("web", final)
    assert [attrs["data-occurrence"] for _, attrs, _ in _sups(done["html"])] == ["1", "2", "3"]
