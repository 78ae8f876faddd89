"""Code spans of the marker grammar, read as mistune (the renderers' parser) reads them.

A backtick run opens a code span only if a run of the same length closes it within MAX_SPAN
characters, in the same paragraph: a span may run across line ends, but not across a blank line
or a line that ends the paragraph (:func:`bot.marker_blocks.breaks_paragraph`: a heading, a
fence, a rule, a list item, a block quote …), and not past the end of an ATX heading, which is a
block of its own line. Used by :class:`bot.markers.MarkerScanner`; the claims' code masking
reads paragraphs with the same rule (:mod:`bot.marker_code_lines`).
"""

from __future__ import annotations

from bot.marker_blocks import Paragraph, breaks_paragraph
from bot.marker_lines import BACKTICKS, BLANK_LINE, MAX_SPAN
from bot.marker_parse import NEED, Hit, Parsed

__all__ = ["code_span"]


def code_span(buf: str, at: int, final: bool, paragraph: Paragraph) -> Parsed:
    """Whether the backtick run at ``at`` opens a code span that closes in time (its end), or
    is text (the run's end); NEED when the text so far cannot tell."""
    n = len(buf)
    opener = BACKTICKS.match(buf, at)
    assert opener is not None
    end = opener.end()
    if end >= n and not final:
        return NEED
    size = end - at
    limit = min(n, at + MAX_SPAN)
    for run in BACKTICKS.finditer(buf, end, limit):
        if run.end() - run.start() == size:
            closer = run.start()
            if buf.find("\n", end, closer) >= 0:
                if paragraph.ends_on_line or BLANK_LINE.search(buf, end, closer):
                    return Hit(end, None)
                crossed = _crosses_block(buf, end, closer, run.end(), final, paragraph)
                if crossed is None:
                    return NEED
                if crossed:
                    return Hit(end, None)
            if run.end() >= n and not final:
                return NEED
            return Hit(run.end(), None)
    if limit >= n and not final and BLANK_LINE.search(buf, end, n) is None:
        return NEED
    return Hit(end, None)


def _crosses_block(
    buf: str, end: int, closer: int, closer_end: int, final: bool, paragraph: Paragraph
) -> bool | None:
    """Whether a line between the opener (ending at ``end``) and the closer ends the
    paragraph; None when the closer's line must be read to its end and has not arrived."""
    nl = buf.find("\n", end, closer)
    while nl >= 0:
        start = nl + 1
        nl = buf.find("\n", start, closer)
        if nl >= 0:
            if breaks_paragraph(buf[start:nl], paragraph):
                return True
            continue
        # the closer's own line, read up to the closer: it holds a backtick, so it is no rule,
        # underline or blank line, and a backtick fence only when the closer is its run
        before = buf[start:closer]
        lead = before.lstrip(" \t")
        if lead[:1] == "`":
            return False  # a fence's run followed by the closer: a backtick in its info
        if lead or closer_end - closer < 3:
            return breaks_paragraph(before + "x", paragraph)  # (x: the span's first character)
        line_end = buf.find("\n", closer_end)
        if line_end < 0 and not final:
            return None
        rest = buf[closer_end : line_end if line_end >= 0 else len(buf)]
        return "`" not in rest and breaks_paragraph(before + "```", paragraph)
    return False
