"""Where one block of the email's HTML part may be cut when only its start fits the budget.

The email renderer shortens its HTML part by whole blocks; a block that does not fit whole (a
list, a long paragraph) is cut inside instead of dropped, so a one-block answer still shows its
start. A cut falls after a list item, a table row or a paragraph inside the block, else at a
sentence end (a line in code), else at a space; never inside a link, a citation marker (the
``<sup>`` after the text it cites), inline code, a table cell or a tag. Every element the cut
leaves open is closed. The blocks are the renderer's own HTML (``renderers.html_writer``), in
which ``<`` and ``>`` only ever delimit tags.
"""

from __future__ import annotations

import re
from typing import NamedTuple

ITEM = 0  # after a list item, a table row, a paragraph or another element inside the block
SENTENCE = 1  # after a sentence end, or a line of code
WORD = 2  # at a space: the cut piece ends with an ellipsis

_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^<>]*>")
_VOID = frozenset({"br", "hr", "img", "wbr"})
# elements that end where a cut may fall (inside a table only a row of its body)
_ENDS = frozenset(
    {"li", "tr", "p", "pre", "blockquote", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6"}
)
# never cut inside: a link or marker would arrive broken, code and cells half shown
_WHOLE = frozenset({"a", "sup", "code", "td", "th", "thead"})
# a sentence ends at a stop and the quotes or brackets closing it, then a space (none after a
# full-width stop); a no-break space is no cut point (renderers.glue holds a marker with it)
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*[ \t\n]+|[\u3002\uff01\uff1f]")
_STOP_AT_END = re.compile(r"[.!?\u3002\uff01\uff1f][\"'\u201d\u2019)\]]*$")
_SPACE = re.compile(r"[ \t\n]+")
_LINE = re.compile(r"\n")
_TEXT = re.compile(r"[^\s\u2060\u00a0]")
ELLIPSIS = "\u2026"


class Cut(NamedTuple):
    """One place to cut a block: before ``at``, then ``closing`` closes what the cut leaves
    open; ``level`` says how clean the cut is (:data:`ITEM`, :data:`SENTENCE`, :data:`WORD`);
    ``drops_table``: a table of the block is left out whole.

    Immutable like a frozen dataclass, but a tuple: a long paragraph has a cut at every space,
    and making tens of thousands of frozen dataclasses took most of the time of a render."""

    at: int
    level: int
    closing: str
    drops_table: bool


def piece(block: str, cut: Cut) -> str:
    """The start of ``block`` up to ``cut``, every element it leaves open closed."""
    head = block[: cut.at].rstrip(" \t\n")
    return head + (ELLIPSIS if cut.level == WORD else "") + cut.closing


def cuts(block: str) -> list[Cut]:
    """Every place ``block`` may be cut, in order: each piece keeps some of its text."""
    found: list[tuple[int, int, str]] = []  # (where, level, closing)
    stack: list[str] = []  # the elements open where the walk is
    # the open elements from this depth on have shown no text yet: a cut inside one ("<li>"
    # before its "<p>") would leave it empty once closed ("<li></li>", an empty bullet)
    blank_from = 0
    pending_stop = False  # a sentence ended just before the marker(s) now being read
    pos = 0
    first_text = len(block)  # where the first text shows: a cut before it keeps nothing
    for tag in _TAG.finditer(block):
        closing, name = tag.group(1) == "/", tag.group(2).lower()
        run = block[pos : tag.start()]
        shown = _TEXT.search(run)
        if shown:
            blank_from = len(stack)
        if "sup" not in stack:  # a marker's text is no run
            if shown and first_text == len(block):
                first_text = pos + shown.start()
            _text_cuts(block, pos, tag.start(), stack, found, pending_stop, tag)
            if name == "sup" and not closing:
                blank = not run.strip(" \t\n")
                pending_stop = bool(_STOP_AT_END.search(run)) or (pending_stop and blank)
            else:
                pending_stop = False
        if closing:
            while stack and stack[-1] != name:
                stack.pop()  # the writer nests properly; a stray one closes what it left open
            if stack:
                stack.pop()
            blank_from = min(blank_from, len(stack))
            if name in _ENDS and _cuttable(stack, name):
                found.append((tag.end(), ITEM, _closing(stack)))
        elif name not in _VOID:
            # before a nested list, a table or a paragraph: the item's own text stays; a
            # table that opens the block is left out whole (the renderer says so)
            opens_inside = tag.start() > 0 or name == "table"
            shown_inside = blank_from == len(stack)  # the innermost open element, if any
            if (
                opens_inside
                and shown_inside
                and name in _ENDS - {"li", "tr"}
                and _cuttable(stack, "")
            ):
                found.append((tag.start(), ITEM, _closing(stack)))
            stack.append(name)
        pos = tag.end()
    _text_cuts(block, pos, len(block), stack, found, pending_stop, None)
    last_table = block.rfind("<table")
    found.sort()  # by place, the cleanest level first at each
    every: list[Cut] = []
    for at, level, closing in found:
        keeps_some = at > first_text or (at == 0 and last_table == 0)
        if keeps_some and at < len(block) and (not every or every[-1].at != at):
            every.append(Cut(at, level, closing, at <= last_table))
    return every


def _closing(stack: list[str]) -> str:
    return "".join(f"</{name}>" for name in reversed(stack))


def _cuttable(stack: list[str], closed: str) -> bool:
    names = set(stack)
    if names & _WHOLE:
        return False
    if "table" in names:
        return closed == "tr" and "tbody" in names
    return True


def _text_cuts(
    block: str,
    start: int,
    end: int,
    stack: list[str],
    found: list[tuple[int, int, str]],
    after_marker: bool,
    next_tag: re.Match[str] | None,
) -> None:
    """The cut points inside the text from ``start`` to ``end``."""
    names = set(stack)
    in_code = "pre" in names
    if (names - {"code"} if in_code else names) & _WHOLE or "table" in names or start == end:
        return
    run = block[start:end]
    closing = _closing(stack)
    # no cut just before a marker: the sentence would arrive without its citation
    before_marker = next_tag is not None and next_tag.group(0).lower().startswith("<sup")
    if after_marker and run[:1] in (" ", "\t", "\n") and not (before_marker and not run.strip()):
        found.append((start, SENTENCE, closing))
    patterns = ((SENTENCE, _LINE),) if in_code else ((SENTENCE, _SENTENCE_END), (WORD, _SPACE))
    for level, pattern in patterns:
        for m in pattern.finditer(run):
            if m.end() == len(run) and (before_marker or next_tag is None):
                continue  # the end of the block, or a marker's: not a cut
            found.append((start + m.end(), level, closing))
