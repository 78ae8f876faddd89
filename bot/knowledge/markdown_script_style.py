"""Raw HTML ``<script>`` and ``<style>`` elements in Markdown, which a rendered page never shows.

A browser runs the one and applies the other, and GitHub strips both, but a docs site written
in Markdown or MDX embeds them (a ``<style>`` block for one page, an analytics ``<script>``):
read as text, CSS and JavaScript reached search results, quotes and section names. An element
is left out from its start tag to its end tag (any case, with attributes, across lines), as an
HTML comment is; one never closed hides the rest of the file, as in a browser. A code span's
text is kept (``write `<style>` in the head``). In MDX a self-closing ``<script src="…" />``
is a whole element: JSX closes it, where HTML would read on to a ``</script>``. HTML comments
in a line are found in the same pass, since whichever of the two opens first holds the other
(``<!-- <script> -->`` is a comment; in a ``<style>``, "<!--" is CSS).

Every search goes forward from where the last one ended, so a line or a file of many
unclosed ``<script>`` openers is read in linear time; so is a paragraph of many lines that each
leave a comment open (:class:`CommentsAcrossLines`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.knowledge.document import code_spans
from bot.knowledge.markdown_markup import tag_end

# A start tag's name, or an HTML comment's opening. ``re.ASCII``: HTML tag names match in
# ASCII case only ("<ſcript>" is no script).
_OPENING = re.compile(r"<(?:(script|style)|!--)", re.IGNORECASE | re.ASCII)
_CLOSING = {
    name: re.compile(rf"</{name}\s*>", re.IGNORECASE | re.ASCII) for name in ("script", "style")
}
# What may follow a tag's name (CommonMark's HTML block start, and the HTML tokenizer's "/");
# "" is the end of the line
_AFTER_NAME = frozenset((*" \t\n\r\f/>", ""))
# An element that begins its line (after up to three spaces) is an HTML block: it ends a paragraph
_BLOCK_START = re.compile(r" {0,3}<(?:script|style)(?:[ \t\n\r\f/>]|$)", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class ShownLine:
    """A line without its script and style elements."""

    text: str  # what is shown: the line without them
    left_open: str | None = None  # "script" or "style": opened on the line and not closed on it
    open_comment: int = -1  # where a "<!--" that the line does not close begins in ``text``


def begins_element(line: str) -> bool:
    """``line`` begins with a ``<script>`` or ``<style>`` start tag: an HTML block, which
    interrupts a paragraph (indented four spaces it is inline, in the paragraph)."""
    return _BLOCK_START.match(line) is not None


def closing_end(line: str, name: str) -> int:
    """Where in ``line`` the first end tag of the element ``name`` ends (-1: none). Inside an
    open element nothing is Markdown: a code fence or a backtick there closes nothing."""
    found = _CLOSING[name].search(line)
    return found.end() if found else -1


def without_elements(line: str, *, jsx: bool = False) -> ShownLine:
    """``line`` without its ``<script>`` and ``<style>`` elements outside code spans; one left
    open at the end of the line is named, the text after its start tag left out. With ``jsx``
    (MDX) a self-closing start tag (``<script src="a.js" />``) is the whole element.

    Inside a paragraph an element's text is Markdown to the renderer: an end tag in a code
    span there is shown escaped, and closes nothing in the browser either. A line that begins
    with one is raw HTML (CommonMark's HTML block), code spans and all.
    """
    return _without(line, "element", jsx=jsx)


def without_comments(line: str, *, jsx: bool = False) -> str:
    """``line`` without the HTML comments a Markdown renderer hides, outside code spans
    ("write `<!-- more -->` to cut the excerpt" is kept) and elements (in ``<style>``, a
    "<!--" is CSS; ``<!-- <script> -->`` is a comment); one left open stays, as CommonMark
    shows it. Elements are kept, for :func:`without_elements`."""
    return _without(line, "comment", jsx=jsx).text


def _without(line: str, drop: Literal["comment", "element"], *, jsx: bool) -> ShownLine:
    """``line`` without the comments or the elements (``drop``) in it: whichever opens first
    holds the other (leftmost first, as a renderer and a browser read them)."""
    if "<" not in line:
        return ShownLine(line)
    # The code spans of the whole line: one read of it, however many elements it holds
    pieces = [(False, line)] if begins_element(line) else code_spans(line)
    out: list[str] = []
    position = 0  # the text before it is settled
    search_from = 0
    inside: str | None = None  # the element open at search_from, begun at run_start
    run_start = 0
    unclosed = -1  # where the first comment the line leaves open begins in what is shown

    def left_out(kind: str, end: int) -> None:
        nonlocal position
        if kind == drop:
            out.append(line[position:run_start])
            position = end

    piece_end = 0
    for is_code, piece in pieces:
        piece_start, piece_end = piece_end, piece_end + len(piece)
        search_from = max(search_from, piece_start)
        closable = True  # a comment could still close in this piece
        while not is_code and search_from < piece_end:
            if inside is not None:
                closing = _CLOSING[inside].search(line, search_from, piece_end)
                if closing is None:
                    break
                inside, search_from = None, closing.end()
                left_out("element", search_from)
                continue
            opened = _OPENING.search(line, search_from, piece_end)
            if opened is None:
                break
            run_start, search_from = opened.start(), opened.end()
            if opened[1] is None:  # "<!--"
                closing_at = line.find("-->", search_from, piece_end) if closable else -1
                closable = closing_at >= 0  # none closes a later one in the piece either
                if closable:
                    search_from = closing_at + 3
                    left_out("comment", search_from)
                elif unclosed < 0:
                    unclosed = len("".join(out)) + run_start - position
                continue
            if line[search_from : search_from + 1] not in _AFTER_NAME:
                continue  # "<scripts>", "<style-guide>": another name
            inside = opened[1].lower()
            tag = tag_end(line, run_start) if jsx else -1
            if tag > 0 and line[tag - 2 : tag] == "/>":
                inside, search_from = None, tag  # JSX: a self-closing element
                left_out("element", tag)
    if inside is not None and drop == "element":
        out.append(line[position:run_start])
        return ShownLine("".join(out), inside)
    out.append(line[position:])
    return ShownLine("".join(out), open_comment=unclosed)


class CommentsAcrossLines:
    """Finds where a comment that a line of ``lines`` leaves open closes, further down its
    paragraph (``Text <!--`` / ``price rises in May`` / ``--> more.``).

    A renderer hides such a comment, so its lines are not text either; one that no line closes
    before the paragraph ends (a blank line, or a line that ``ends_paragraph``) is text, as
    CommonMark shows the "<!--". The search walks ``lines`` by index from where it is asked to
    start, and remembers how far one that found no closing line went: every later search that
    starts inside that stretch finds none either, so a paragraph of a hundred thousand
    ``a <!--`` lines is read once, not once per line.
    """

    def __init__(
        self, lines: Sequence[str], ends_paragraph: Callable[[str], bool], *, jsx: bool
    ) -> None:
        self._lines = lines
        self._ends_paragraph = ends_paragraph
        self._jsx = jsx
        self._closes_none = range(0)  # the starts from which no line closes a comment
        self.lines_visited = 0  # lines read by the searches: at most about len(lines) in all

    def joined(self, line: str, start: int) -> tuple[str, int] | None:
        """``line`` joined with the rest of the line from ``lines[start]`` on that closes a
        comment ``line`` leaves open, and how many lines from ``start`` that took; None when
        ``line`` leaves none open or none closes it before the paragraph ends. ``start`` must
        not be less than in the call before (the reader walks forward)."""
        open_at = _without(line, "comment", jsx=self._jsx).open_comment
        if open_at < 0 or start in self._closes_none:
            return None
        for index in range(start, len(self._lines)):
            later = self._lines[index]
            self.lines_visited += 1
            if not later.strip() or self._ends_paragraph(later):
                self._closes_none = range(start, index + 1)
                return None
            end = later.find("-->")
            if end >= 0:
                rest = without_comments(later[end + 3 :], jsx=self._jsx)
                return f"{line[:open_at].rstrip()} {rest.lstrip()}".rstrip(), index - start + 1
        self._closes_none = range(start, len(self._lines) + 1)
        return None


def unclosed_warning(left_open: str, line: int) -> str:
    """The ingest summary's word on what hides the rest of a file from ``line`` on: an HTML
    comment (``left_open`` "comment") or an element ("script", "style") never closed."""
    opened, closing = ("HTML comment", "-->")
    if left_open != "comment":
        opened, closing = (f"<{left_open}> element", f"</{left_open}>")
    return (
        f"the {opened} opened on line {line} is never closed ({closing}): "
        "the text after it is left out, as a Markdown renderer hides it"
    )
