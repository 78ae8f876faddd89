"""The HTML parser every reader of HTML in citecast starts from: Python's, less its one crash.

``html.parser`` raises ``AssertionError`` on a marked section it does not know (``<![0``,
``<![ foo ]>``, a stray ``<![``), where a browser reads a bogus comment up to the next ``>``
and shows the rest of the page. In a knowledge-base file that skipped the whole page ("reader
failed"); in a mail or a forum post, where anyone writes the HTML, it failed the message.
:class:`LenientHTMLParser` reads such a section as the browser does.
"""

from __future__ import annotations

from html.parser import HTMLParser


class LenientHTMLParser(HTMLParser):
    """:class:`html.parser.HTMLParser` that reads an unknown marked section (``<![0``) as a
    bogus comment, as browsers do, instead of raising ``AssertionError``."""

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            return self.parse_bogus_comment(i, report)
