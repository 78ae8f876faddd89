"""An unknown marked section (``<![0``) in HTML is a bogus comment, as a browser reads it: the
rest of the page is read, in every reader of HTML (a knowledge-base page, a mail, a forum post),
where ``html.parser`` raised ``AssertionError`` and the page or message failed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.connectors.email_text import html_to_new_text
from bot.knowledge.readers import read_document
from bot.lenient_html import LenientHTMLParser

BROKEN = ["<![0", "<![ foo ]>", "<![", "<![0 never closed"]


class _Data(LenientHTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: list[str] = []

    def handle_data(self, data: str) -> None:
        self.data.append(data)


@pytest.mark.parametrize("section", BROKEN)
def test_the_text_after_an_unknown_marked_section_is_read(section: str) -> None:
    parser = _Data()
    parser.feed(f"<p>before</p>{section}<p>after the section</p>")
    parser.close()
    assert "before" in parser.data
    assert "after the section" in "".join(parser.data) or section.endswith("closed")


def test_a_known_marked_section_is_still_one() -> None:
    parser = _Data()
    parser.feed("<![CDATA[x]]><p>after</p>")
    parser.close()
    assert parser.data == ["after"]


@pytest.mark.parametrize("section", ["<![0", "<![ foo ]>"])
def test_a_page_with_one_is_indexed(section: str) -> None:
    page = f"<html><body><p>Otters hold hands while they sleep.</p>{section}</body></html>"
    document = read_document(Path("a.html"), page.encode())
    assert "Otters hold hands" in " ".join(block.text for block in document.blocks)


def test_a_mail_with_one_is_read() -> None:
    # the mail's text was "" (no question) when the parser raised
    assert "How long do links last?" in html_to_new_text(
        "<div>How long do links last?</div><![0<div>See you</div>"
    )


@pytest.mark.parametrize("opening", ["<![", "<!--", "<!x", "<![CDATA[", "</ ", "<!DOCTYPE", "<?x"])
def test_a_megabyte_of_openings_never_closed_is_read_in_a_moment(opening: str) -> None:
    # html.parser searched the rest again from each "<": 1.2 MB of "</ " took 71 s
    parser = _Data()
    began = time.monotonic()
    parser.feed("<p>kept</p>" + opening * (1_000_000 // len(opening)))
    parser.close()
    assert time.monotonic() - began < 5
    assert parser.data == ["kept"]


def test_a_comment_never_closed_ends_the_document_as_in_a_browser() -> None:
    parser = _Data()
    parser.feed("<p>kept</p><!-- never closed <p>hidden")
    parser.close()
    assert parser.data == ["kept"]


def test_input_fed_in_pieces_still_waits_for_the_end_of_a_comment() -> None:
    parser = _Data()
    parser.feed("<p>kept</p><!-- a comment")
    parser.feed(" that ends --><p>after</p>")
    parser.close()
    assert parser.data == ["kept", "after"]
