"""What a reader makes of one file: its title, front-matter hints and a list of text blocks."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal["text", "code"]


@dataclass(frozen=True)
class Block:
    """A paragraph-sized piece of a document, with the heading path and page it sits under."""

    text: str
    section: str | None = None
    page: int | None = None
    kind: BlockKind = "text"


@dataclass(frozen=True)
class Document:
    """A parsed file. ``audience`` and ``url`` come from front matter or HTML meta tags."""

    title: str | None
    media_type: str
    blocks: list[Block] = field(default_factory=list)
    audience: tuple[str, ...] | None = None
    url: str | None = None
    pages: int | None = None
    # What was left out of a file that is indexed all the same ("page 5 could not be read"),
    # for the ingest summary: the rest of a 300-page manual is worth keeping.
    warnings: tuple[str, ...] = ()


class Unreadable(Exception):  # noqa: N818 - a reason to skip, not a failure of citecast
    """A reader cannot use this file; the message is the reason shown in the ingest summary."""


# Tried only where a run of spaces starts: tried at each of its spaces, the run was scanned
# again from each one, and a heading with 40,000 spaces in a row took seconds (quadratic).
_CLOSING_HASHES = re.compile(r"(?<!\s)\s+#+\s*$")
_BACKTICKS = re.compile(r"`+")
# A backslash and what it escapes (any ASCII punctuation, CommonMark), or a run of backticks
_ESCAPE_OR_TICK = re.compile(r"\\[!-/:-@\[-`{-~]?|`+")
# Neither the link text nor its target holds a "[", so a match tried at one "[" reads no
# further than the next "[", where the next try starts: the whole line is read about once, and
# a line of "[" or of "[a](" repeated stays linear to scan. (A target read up to any ")" read
# to the end of the line from every "[a](", quadratic in its length.)
_LINK = re.compile(r"!?\[([^\]\[]*)\]\([^)\[]*\)")
# Emphasis as a renderer reads it: a delimiter run that opens before a word and closes after
# one. "chunk_chars", "2 * 3" and "*args and **kwargs" are text, and keep their marks. The text
# between holds no delimiter of its kind (nesting is undone by a second pass), which keeps a
# long run of unmatched marks linear to scan.
_STAR_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3})(?=[^\s*])([^*]+?)(?<=[^\s*])\1(?![\w*])")
_UNDERSCORE_EMPHASIS = re.compile(r"(?<![\w_])(_{1,3})(?=[^\s_])([^_]+?)(?<=[^\s_])\1(?![\w_])")


def code_spans(line: str) -> list[tuple[bool, str]]:
    """``line`` cut into ``(is_code, text)`` pieces, as CommonMark reads code spans: a run of
    backticks and everything up to the next run of the same length; its text keeps its
    backticks. An unmatched run is text, and so is a backtick escaped with a backslash outside
    a code span (``\\` {a} `{b}` `` has one code span, `` `{b}` ``). Inside a code span a
    backslash is literal: `` `a\\` `` is a code span."""
    # Where each run of backticks that could close a span starts, by its length: inside a
    # span backslashes are literal, so every maximal run counts. One lookup per opening run
    # (rather than a scan to the end of the line) keeps a line of unmatched runs linear.
    closers: dict[int, list[int]] = {}
    for run in _BACKTICKS.finditer(line):
        closers.setdefault(len(run[0]), []).append(run.start())
    pieces: list[tuple[bool, str]] = []
    text_start = 0  # where the text piece being read began
    position = 0
    while (found := _ESCAPE_OR_TICK.search(line, position)) is not None:
        position = found.start()
        if found[0].startswith("\\"):
            position = found.end()  # an escape ("\\`", "\\\\"), or a lone backslash
            continue
        opening = found.end() - position
        starts = closers.get(opening, [])
        close = bisect_left(starts, found.end())
        if close == len(starts):
            position = found.end()  # no run closes it: text
            continue
        if text_start < position:
            pieces.append((False, line[text_start:position]))
        text_start = position = starts[close] + opening
        pieces.append((True, line[found.start() : position]))
    if text_start < len(line):
        pieces.append((False, line[text_start:]))
    return pieces


def clean_heading(text: str) -> str:
    """Markdown heading text as a reader sees it: without emphasis marks, code ticks, link
    targets or closing ``#``s. A code span's text is kept as written (`` `max_tokens` `` is
    "max_tokens"), and so is a ``_`` or ``*`` that marks nothing."""
    spans: list[str] = []
    marked: list[str] = []  # the text, each code span replaced by a numbered placeholder
    for is_code, piece in code_spans(_CLOSING_HASHES.sub("", text.strip().replace("\x00", ""))):
        if is_code:
            ticks = len(piece) - len(piece.lstrip("`"))
            inner = piece[ticks:-ticks]
            spans.append(inner.strip() or inner)
            marked.append(f"\x00{len(spans) - 1}\x00")
        else:
            marked.append(piece)
    text = _LINK.sub(r"\1", "".join(marked))
    for emphasis in (_STAR_EMPHASIS, _UNDERSCORE_EMPHASIS, _STAR_EMPHASIS):  # "**_a_**" too
        text = emphasis.sub(r"\2", text)
    text = re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], text)
    return " ".join(text.split())


def plain_heading(text: str) -> str:
    """HTML heading text: already what the page shows, so only spaces and a closing run of
    ``#`` (a permalink mark outside a link) are tidied; ``max_tokens`` stays as it is."""
    return " ".join(_CLOSING_HASHES.sub("", text.strip()).split())


class HeadingPath:
    """The stack of headings above the current line; ``path`` is "A > B > C"."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def enter(self, level: int, text: str) -> None:
        """A heading of ``level`` starts: close every heading at that level or deeper."""
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        if text:
            self._stack.append((level, text))

    @property
    def path(self) -> str | None:
        """The heading path, or None before the first heading."""
        return " > ".join(text for _, text in self._stack) or None
