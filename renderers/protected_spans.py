"""The spans of a message's text that a cut must keep whole, and where a cut may part a code span.

A cut inside a link, a tag, a bare URL or a run of bold, italic or struck text leaves each
piece with half of it (:mod:`renderers.limits` never cuts there). A code span is kept whole too,
unless it is longer than a message: then it is cut inside, closed with its own backtick run at
the end of the piece and reopened with it at the start of the next one (:func:`open_code_span`),
as a fenced code block is, so no piece shows the rest of the code as live markdown (a link in it
working).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.grapheme_cuts import ZWJ

# Markdown links `[..](..)` (one level of brackets in the text, of parentheses in the URL),
# Slack links `<..|..>`, HTML tags, code spans, and bold, italic or struck text (a cut would
# leave each piece with an unpaired mark): never cut inside one. A backtick shown as text
# (escaped "\`", or Slack's joiner-wrapped one) opens no code span: taken for one, it would
# hide the links up to the next backtick from this list, and a cut could fall inside them; a
# joiner-wrapped "*", "_" or "~" (renderers.escaping) opens or closes no bold either.
# A code span opens with a run of backticks and closes at the next run of as many (CommonMark:
# "``a`b``" is one span): group 1 is the opening run past its first backtick. Its text is read
# a run of backticks or of other characters at a time, possessively, so a run never parts.
# A link's text or URL stops at a bracket or parenthesis it does not close, so a run of "[" or
# "(" costs one step each (text that ran on to the first "]" or ")" made splitting quadratic).
# Every branch starts with its opening character (an underscore's lookbehind comes after it), so
# the regex engine skips ahead to the next such character instead of trying each branch at
# every position: four times as fast on ordinary text.
PROTECTED = re.compile(
    r"\[[^\[\]\n]*(?:\[[^\[\]\n]*\][^\[\]\n]*)*\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)"
    r"|<[^<>\n]*>"
    r"|`(?<!\\`)(?<!\u200d`)(?<!``)(?!\u200d)(`*+)(?:[^`\n]++|`++)*?(?<![`\u200d])`\1(?!`)"
    r"|\*(?<!\u200d\*)(?!\u200d)[^*\n]{1,1500}(?<!\u200d)\*"
    r"|_(?<!\w_)(?<!\u200d_)(?!\u200d)[^_\n]{1,1500}(?<!\u200d)_(?!\w)"
    r"|~(?<!\u200d~)(?!\u200d)[^~\n]{1,1500}(?<!\u200d)~"
)
# What a cut keeps whole: the protected spans, and a bare URL (the platform links it, and each
# half of a URL cut in two would be linked to a wrong address). A URL inside a link, a tag or a
# code span is part of that span (the scan takes the first that starts at a position). An "h"
# or "w" may start a URL, so the regex engine stops at each: ten times as slow on most text as
# PROTECTED, which text holding no URL is scanned with instead (:func:`cut_protected`).
CUT_PROTECTED = re.compile(
    PROTECTED.pattern + r"|[hHwW](?:(?<=[hH])[tT][tT][pP][sS]?://|(?<=[wW])[wW][wW]\.)[^\s<>]+"
)
_URL_FIRST = frozenset("hHwW")
# the longest start of a URL before what says it is one ("https://", "www.")
_URL_HEAD = 8


def cut_protected(text: str, end: int) -> re.Pattern[str]:
    """The pattern of the spans a cut keeps whole that start in ``text[:end]``:
    :data:`CUT_PROTECTED` when a bare URL may start there, else :data:`PROTECTED` (the same
    spans when none does)."""
    end += _URL_HEAD
    if text.find("://", 0, end) >= 0 or text.find("ww.", 0, end) >= 0:
        return CUT_PROTECTED
    return CUT_PROTECTED if text.find("WW.", 0, end) >= 0 else PROTECTED


# the marks Slack's text shows literally between two joiners (renderers.escaping.slack_literal)
_JOINED_MARKS = frozenset("*_~`")


def protected_spans(text: str, longest_code: int | None = None) -> list[tuple[int, int]]:
    """The spans of ``text`` a cut keeps whole (:data:`CUT_PROTECTED`), in order and never
    overlapping (one regex scan).

    ``longest_code``: a code span or bare URL longer than this is left out, as it must be cut
    anyway (:func:`open_code_span` says how to close and reopen a code span; a bare URL that
    long outside code shows as a note before any cut: :mod:`renderers.long_urls`)."""
    spans = []
    for m in cut_protected(text, len(text)).finditer(text):
        start, end = m.span()
        if (
            longest_code is None
            or end - start <= longest_code
            or not (text[start] == "`" or is_bare_url(m[0]))
        ):
            spans.append((start, end))
    return spans


def is_bare_url(span: str) -> bool:
    """True when ``span``, a match of :data:`CUT_PROTECTED`, is a bare URL."""
    return span[0] in _URL_FIRST


def inside(pos: int, spans: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """The span of the ordered ``spans`` that ``pos`` falls strictly inside, if any: a binary
    search, since a long line of code spans has thousands of spans and of candidate cut
    points."""
    i = bisect.bisect_left(spans, (pos,)) - 1
    if i >= 0 and pos < spans[i][1]:
        return spans[i]
    return None


@dataclass(frozen=True)
class OpenCodeSpan:
    """A code span that a cut at ``cut`` parts: where it starts and ends in the text, and its
    backtick ``run`` (what closes the piece and reopens the rest)."""

    start: int
    end: int
    run: str

    def closing(self, shown: str) -> str:
        """What closes the piece whose code so far is ``shown``: the run, after a space when
        the code ends in a backtick (which would join the run)."""
        return (" " if shown.endswith("`") else "") + self.run

    def reopening(self, rest: str) -> str:
        """What reopens the code at the start of ``rest``: the run, and a space before a
        backtick."""
        return self.run + (" " if rest.startswith("`") else "")


def open_code_span(text: str, cut: int) -> OpenCodeSpan | None:
    """The code span ``cut`` falls strictly inside, if any (perhaps in a backtick run).

    Code spans never cross a line, so only the line of the cut is read: from its start (or the
    text's) up to the end of the span the cut falls in, or of the line when none does (a scan
    on to the end of the text, at each cut, made cutting a long text quadratic)."""
    line_start = text.rfind("\n", 0, cut) + 1
    if text.find("`", line_start, cut) < 0:
        return None  # no code span opens before the cut on its line
    line_end = text.find("\n", cut)
    for m in PROTECTED.finditer(text, line_start, len(text) if line_end < 0 else line_end):
        if m.start() >= cut:
            break
        if m.end() > cut:
            return OpenCodeSpan(m.start(), m.end(), "`" + m.group(1)) if m[0][0] == "`" else None
    return None


def splits_joined_mark(text: str, pos: int) -> bool:
    """True when ``pos`` falls inside a mark Slack shows literally between two joiners
    ("\\u200d*\\u200d"): either piece would hold an unwrapped mark that could format text."""
    return (
        0 < pos < len(text) - 1
        and text[pos - 1] == ZWJ
        and text[pos] in _JOINED_MARKS
        and text[pos + 1] == ZWJ
    )
