"""The HTML parser every reader of HTML in citecast starts from: Python's, less a crash and its
slowest inputs.

``html.parser`` raises ``AssertionError`` on a marked section it does not know (``<![0``,
``<![ foo ]>``, a stray ``<![``), where a browser reads a bogus comment up to the next ``>``
and shows the rest of the page. In a knowledge-base file that skipped the whole page ("reader
failed"); in a mail or a forum post, where anyone writes the HTML, it failed the message.
:class:`LenientHTMLParser` reads such a section as the browser does.

A comment, declaration, processing instruction or tag that is never closed runs to the end of
the input in a browser. ``html.parser`` instead, at :meth:`close`, shows its ``<`` as text and
searches the rest of the input again from the next ``<``: a megabyte of ``<![``, ``</ `` or
``<?x`` took seconds to minutes (the time grows with the square of the length). Once the
input is complete (in :meth:`close`), such an opening ends the document (as a comment; a tag
is left out), in one step.
"""

from __future__ import annotations

from html.parser import HTMLParser


class LenientHTMLParser(HTMLParser):
    """:class:`html.parser.HTMLParser` that reads an unknown marked section (``<![0``) as a
    bogus comment, as browsers do, instead of raising ``AssertionError``, and ends the document
    at a comment that is never closed instead of searching the rest again and again."""

    _complete = False  # close() was called: no more input will come

    def close(self) -> None:
        self._complete = True
        super().close()

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        try:
            end = super().parse_marked_section(i, report)
        except AssertionError:
            return self.parse_bogus_comment(i, report)
        return self._to_the_end(i, 3, report) if end < 0 else end

    def parse_comment(self, i: int, report: bool = True) -> int:
        end = super().parse_comment(i, report)
        return self._to_the_end(i, 4, report) if end < 0 else end

    def parse_bogus_comment(self, i: int, report: bool = True) -> int:
        end = super().parse_bogus_comment(i, report)
        return self._to_the_end(i, 2, report) if end < 0 else end

    def parse_html_declaration(self, i: int) -> int:
        end = super().parse_html_declaration(i)
        return self._to_the_end(i, 2, True) if end < 0 else end

    def parse_pi(self, i: int) -> int:
        end = super().parse_pi(i)
        return self._to_the_end(i, 2, False) if end < 0 else end

    def parse_endtag(self, i: int) -> int:
        end = super().parse_endtag(i)
        return self._to_the_end(i, 2, True) if end < 0 else end

    def parse_starttag(self, i: int) -> int:
        end = super().parse_starttag(i)
        return self._to_the_end(i, 1, False) if end < 0 else end

    def _to_the_end(self, i: int, opening: int, report: bool) -> int:
        """-1 (wait for more input) until the input is complete; then the comment that opens
        at ``i`` with ``opening`` characters is the rest of the document."""
        if not self._complete:
            return -1
        if report:
            self.handle_comment(self.rawdata[i + opening :])
        return len(self.rawdata)
