"""The subject of an answer mail that has none given (``citecast render``/``preview``, a mail
that came without one): the answer's first line with words, leaving out tables and lists."""

from __future__ import annotations

import re
from collections.abc import Sequence, Set

from renderers.base import shown
from renderers.document import Document
from renderers.escaping import one_line, visible
from renderers.limits import truncate

# a citation marker as the text part writes it ("[3]", "[3?]"), with the space before it
# (a no-break space when it holds the marker to its word: renderers.glue)
_MARKER = re.compile(r"[ \u00a0]?\[(\d+)\??\]")
# the address the text part writes after a link's label ("the guide <https://…>"): a subject
# shows the words, and a mail client shows no link there
_LINK_TARGET = re.compile(r" <(?:https?://|mailto:)[^<>\s]*>")
_QUOTE_MARKS = re.compile(r"^(?:> ?)+")
# a code span as the text part writes it (renderers.text_writer.code_span): a run of backticks,
# the code (padded with a space where it starts or ends with a backtick), the same run again.
# A run longer than real code needs is left as written: an opening run that nothing closes
# costs a scan of the rest of the line, and a line can hold one such run per length.
_CODE_SPAN = re.compile(r"(?<!`)(`{1,16})(?!`)(.*?[^`])\1(?!`)")


def subject_for(doc: Document, fragments: Sequence[tuple[str, str]]) -> str:
    """The context's subject, or the first line with words of the answer's first heading,
    paragraph, quote or code block (each fragment an (html, text) pair, one per top-level
    block), without its quote marks, citation markers and link addresses.

    A table or a list is passed over: its first line is a row of data ("Plan | Price",
    "- Team: Price: 19; Seats: 50"), no name for a mail. An answer with nothing else is "Your
    answer". (``citecast ask --channel email`` and the email connector give the question or the
    incoming mail's subject, which wins.)
    """
    if doc.context.subject:
        # the incoming mail's subject: a bidi override in it would reorder the reply's
        return truncate(one_line(shown(doc.context.subject)), 200)
    for markup, text in fragments:
        if _ROWS.match(markup) is None:
            line = _first_line(text, doc.forms.keys())
            if line:
                return line
    return "Your answer"


# a block of rows: a table, a bulleted or numbered list (as the HTML writer opens them)
_ROWS = re.compile(r"\s*<(?:table|ul|ol)\b")


def _first_line(text: str, cited: Set[int]) -> str:
    """The first line of ``text`` that has words, as a subject shows it; "" when none has."""
    for line in text.split("\n"):
        # an answer may open with a quote ("> …"), a rule or a heading of markers alone
        first = _outside_code(one_line(_QUOTE_MARKS.sub("", line)), cited)
        # the backticks still guard the code's own "-" or "#" from this strip
        first = _unwrap_code(first.strip("=-#* "))
        if visible(first):
            return truncate(first, 78)
    return ""


def _outside_code(line: str, cited: Set[int]) -> str:
    """``line`` without its link addresses and its citation markers ("[1]" in a subject line
    points at nothing: the references are in the body), both left alone inside code
    ("`arr[1]`")."""

    def plain(part: str) -> str:
        part = _LINK_TARGET.sub("", part)
        return _MARKER.sub(lambda m: "" if int(m.group(1)) in cited else m.group(0), part)

    out, start = [], 0
    for match in _CODE_SPAN.finditer(line):
        out += [plain(line[start : match.start()]), match.group(0)]
        start = match.end()
    return "".join([*out, plain(line[start:])])


def _unwrap_code(line: str) -> str:
    """Code spans as their code: a subject line shows no markup ("Install it with pip install
    citecast."), as it shows bold or a link's label without theirs."""

    def code(match: re.Match[str]) -> str:
        inner = match.group(2)
        padded = len(inner) > 2 and inner.startswith(" ") and inner.endswith(" ")
        return inner[1:-1] if padded and inner.strip(" ") else inner

    return _CODE_SPAN.sub(code, line)
