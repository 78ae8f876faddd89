"""Platform limits and the splitting that keeps every payload inside them.

Long answers split at block boundaries (:func:`pack`); a single block longer than the limit splits
at a line, then a sentence, then a word boundary (:func:`split_long`), never inside a link, a
bare URL or a protected span (:mod:`renderers.protected_spans`), closing and reopening a code
fence when the cut falls inside one (in its block quote when it is in one), and a code span
longer than a message with its backtick run; a bare URL longer than a message shows as a note
(:mod:`renderers.long_urls`). Such a block
is cut anyway, so its first piece fills the room the message before it has left
(:func:`split_first`, which never cuts through a word or link to do so). A citation
marker stays in the piece of the text it follows: a sentence ends after its markers
("done.[^1] ", "done. \\[1\\] "), and no cut falls inside a marker or just before one.
No cut parts a character as a reader sees it (a flag, an emoji sequence, a letter and its
combining marks: :mod:`bot.grapheme_cuts`), which would arrive broken in both messages; a cut
moved back to keep a character whole moves out of a link it would fall into, never into it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.grapheme_cuts import ZWJ, grapheme_cut, is_grapheme_boundary, joins_nothing
from renderers.escaping import visible
from renderers.fence_cuts import Fence, closing, code_rest, dedent_item, open_fence, reopening
from renderers.long_urls import show_long_urls
from renderers.protected_spans import (
    OpenCodeSpan,
    cut_protected,
    inside,
    open_code_span,
    protected_spans,
    splits_joined_mark,
)

SLACK_MAX_BLOCKS = 50
SLACK_MAX_SECTION_CHARS = 3000
SLACK_MAX_CONTEXT_ELEMENTS = 10
SLACK_MAX_CONTEXT_TEXT = 2000
SLACK_MAX_HEADER_CHARS = 150
SLACK_MAX_TEXT_CHARS = 40_000
SLACK_FALLBACK_CHARS = 3000
SLACK_MAX_BUTTON_LABEL = 75
SLACK_MAX_BUTTON_URL = 3000
# The text of all blocks of one message, summed. Slack refuses more with `msg_blocks_too_long`,
# a limit it does not document: "12,000 text characters with a buffer for block containers"
# (Slack, bolt-js#2509), and a message of 11,341 summed characters was refused (bolt-js#2867).
# 10,000 stays clear of both and leaves room for blocks the connector adds (feedback buttons).
SLACK_MAX_BLOCKS_TEXT = 10_000
DISCORD_MAX_CONTENT = 2000
DISCORD_MAX_EMBEDS = 10
DISCORD_MAX_TITLE = 256
DISCORD_MAX_DESCRIPTION = 4096
DISCORD_MAX_EMBED_TOTAL = 6000
DISCORD_MAX_FILES = 10
DISCORD_MAX_BUTTON_LABEL = 80
DISCOURSE_MAX_CHARS = 32_000
# the HTML part as a mail client decodes it: its line ends are CRLF (email_html.delivered_bytes)
EMAIL_MAX_HTML_BYTES = 100_000
# A link in the answer's text longer than this shows its text alone, followed by LINK_TOO_LONG:
# no cut falls inside a link, so a longer one could not arrive whole in any message (Discourse:
# half a post, as for its footnotes). Source lists follow the same rule with their own budgets.
SLACK_MAX_LINK = SLACK_MAX_SECTION_CHARS - 100
DISCORD_MAX_LINK = DISCORD_MAX_CONTENT - 100
DISCOURSE_MAX_LINK = DISCOURSE_MAX_CHARS // 2
LINK_TOO_LONG = " (link too long to show)"
# the least room left in a message worth filling with the start of a block that must be cut
# anyway (split_long's smallest limit); less stays empty and the block starts the next one
MIN_FILL = 40

_ANGLE_CLOSE = re.compile(r"[<>\n]")
_QUOTE_PREFIX = re.compile(r"(?: {0,3}>[ \t]?)+")
# empty quote lines where a piece ends or the next begins: they would only show as a bare ">"
# (Discord) or an empty quoted line (a message ends its quote anyway)
_EMPTY_QUOTE_TAIL = re.compile(r"(?:\n[ \t]*>[ \t>]*)+$")
_EMPTY_QUOTE_HEAD = re.compile(r"^(?:[ \t]*>[ \t>]*\n)+")
# where a line's text starts: after its indent, and after a list marker if it has one
_ITEM_INDENT = re.compile(r" *(?:(?:[-+*]|\d{1,9}[.)]) +)?")


def truncate(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis when it was longer: after a whole
    word when one ends in the last third ("expires…", not "expires afte…"), else between two
    whole characters as a reader sees them (a flag, an emoji sequence, a letter and its marks:
    :func:`bot.grapheme_cuts.grapheme_cut`)."""
    if len(text) <= limit:
        return text
    keep = grapheme_cut(text, max(0, limit - 1))
    space = text.rfind(" ", 0, keep + 1)
    if space >= keep * 2 // 3:
        keep = space
    return text[:keep].rstrip().removesuffix(ZWJ) + "\u2026"


# A citation marker as the renderers write it: Discord's (and Discourse's with sources hidden)
# escaped "\[3\]", Discourse's footnote "[^3]", Slack's "[3]" or linked "<url|[3]>"; each but
# the footnote may be weak ("[3?]": a footnote says so in its definition), and a "?" after a
# footnote is taken with it. A marker cites the text before it, so no cut may fall inside one
# or just before one: the sentence would arrive uncited and the next piece open with its marker.
_MARKER = r"(?:\\\[\d+\??\\\]|\[\^\d+\]\??|\[\d+\??\]|<[^<>|\n]*\|\[\d+\??\]>)"
# (the space before a marker may be a no-break one: renderers.glue)
_MARKER_AT = re.compile(r"[ \t\u00a0]*" + _MARKER)
_MARKERS = re.compile(_MARKER)
# the longest marker looked at around a cut in text with no space to cut at ("\[99999?\]")
_MARKER_REACH = 12

# where to cut, best first: a line break, a sentence end (after the markers citing it, as in
# "done.[^1] Next" or "done. \[1\] Next"; a full-width stop needs no space after it, as
# Chinese and Japanese put none), any space
_CUT_PATTERNS = (
    re.compile(r"\n"),
    re.compile(r"[.!?。！？](?:[ \t\u00a0]?" + _MARKER + r")*\s?"),
    re.compile(r"\s"),
)
# A cut ends in a space, except after a full-width stop: "3.5" or "e.g" ends no sentence. (One
# pattern, with the check made on its matches, runs as fast as the single lookbehind it replaced.)
_FULL_WIDTH_STOPS = "。！？"


def _cut_point(text: str, limit: int, clean: bool = False) -> int:
    """The best position <= limit to cut ``text`` at (line, sentence, space, any).

    ``clean`` (filling the room left in a message): 0 rather than a cut through a word, link
    or marker, which only a piece that must start a message takes.
    """
    window = text[: limit + 1]
    if clean:
        # every span that starts before the limit, however far it reaches: when filling, a
        # link cut off could have gone whole into the next message (the scan stops there)
        spans = []
        for m in cut_protected(text, limit).finditer(text):
            if m.start() > limit:
                break
            spans.append((m.start(), m.end()))
    else:
        # wide enough to see whole any link that starts before the limit and could fit a piece;
        # a code span longer than a piece is cut inside anyway (closed and reopened)
        spans = protected_spans(text[: 2 * limit + 1], longest_code=limit)
    for pattern in _CUT_PATTERNS:
        points = [
            m.end()
            for m in pattern.finditer(window)
            if 0 < m.end() <= limit and (m[0][-1].isspace() or m[0][0] in _FULL_WIDTH_STOPS)
        ]
        # the last point outside every link or code span, if it keeps a useful first piece
        # (a space may carry a combining mark: the cut must not part the two)
        for point in reversed(points):
            if (
                inside(point, spans) is None
                and not _MARKER_AT.match(text, point)
                and is_grapheme_boundary(text, point)
            ):
                if point > limit // 4:
                    return point
                break
    if clean:
        return 0
    cut = limit
    for start, end in spans:
        if start < cut < end and start > 0:
            cut = start
    # a span that opens the text cannot be kept whole ("[text <url|x> … ](url)", which is no
    # link, shown as text): still never cut through a link or tag inside it
    opener = text.rfind("<", 0, cut)
    if opener > 0 and "\n" not in text[opener:cut]:
        closer = _ANGLE_CLOSE.search(text, opener + 1)
        if closer is not None and closer.group() == ">" and closer.start() >= cut:
            cut = opener
    # no space to cut at: still never through a marker ("\[1" here, "2\]" in the next piece)
    for m in _MARKERS.finditer(text, max(0, cut - _MARKER_REACH), cut + _MARKER_REACH):
        if m.start() < cut < m.end() and m.start() > 0:
            cut = m.start()
    return _whole_characters(text, max(1, cut), limit, spans)


def _cuttable(text: str, pos: int) -> bool:
    """True when a cut at ``pos`` parts no character: a grapheme boundary, or after a joiner
    that joins nothing (Slack's own, after "<url|[1]>") unless inside a joiner-wrapped mark."""
    if is_grapheme_boundary(text, pos):
        return True
    return joins_nothing(text, pos) and not splits_joined_mark(text, pos)


def _whole_characters(text: str, cut: int, limit: int, spans: Sequence[tuple[int, int]]) -> int:
    """``cut`` moved back to the start of the character it falls in (a flag, an emoji
    sequence, a letter and its marks: :func:`bot.grapheme_cuts.grapheme_cut`), so no
    character is parted across two messages; forward to its end when it starts the text and
    that end is within ``limit`` (a piece must hold something).

    Moved back into a protected span (the joiner Slack writes after "<url|[1]>" belongs to its
    ">"), the cut goes out of it instead: after it when that is within ``limit``, else before
    it. Cut inside, the link's end would open the next piece, read there as a quote marker."""
    if _cuttable(text, cut):  # ASCII and most text: one check
        return cut
    back = grapheme_cut(text, cut)
    span = inside(back, spans) if back > 0 else None
    if span is not None:
        ahead = span[1]
        while ahead <= limit and not (_cuttable(text, ahead) and inside(ahead, spans) is None):
            ahead += 1
        if ahead <= limit:
            return ahead
        back = grapheme_cut(text, span[0])
    if back > 0:
        return back
    ahead = cut + 1
    while ahead <= limit and not _cuttable(text, ahead):
        ahead += 1
    return ahead if ahead <= limit else cut


@dataclass(frozen=True)
class _Cut:
    """Where to cut a body (``at``), and the code the cut leaves open, closed at the end of the
    piece and reopened at the start of the rest: a fenced block (``fence``: its marker, info
    string, indent and quote) or a code span longer than a piece (``span``)."""

    at: int
    fence: Fence | None = None
    span: OpenCodeSpan | None = None


def split_long(text: str, limit: int) -> list[str]:
    """Split one block into pieces of at most ``limit`` characters (limit >= 40).

    A cut inside a fenced code block closes the fence at the end of the piece and reopens it
    (with the same info string) at the start of the next one. A fence indented under a list
    item closes at its own indent (a fence at column 0 would end the list item and open an
    empty code block); the next piece starts a new message outside any list, so the fence
    reopens at column 0 and the rest of the code loses the list's indent. A code span longer
    than a piece is cut inside the same way, closed and reopened with its backtick run: the
    rest of its code would otherwise show as live markdown, its links working. A bare URL too
    long to go whole into a piece shows as "(link too long to show)" (:mod:`renderers.long_urls`).
    """
    pieces: list[str] = []
    rest = show_long_urls(text, limit, LINK_TOO_LONG.lstrip())
    reopen = ""
    continued = False  # the rest starts with the second half of a line cut in two
    while rest:
        body = reopen + rest
        if len(body) <= limit:
            pieces.append(body)
            break
        piece, rest, reopen, continued = _cut_once(body, limit, len(reopen), None, continued)
        pieces.append(piece)
        if reopen and not rest.strip():
            break
    return [p for p in pieces if visible(p)]


def split_first(text: str, limit: int, clean: bool = True) -> tuple[str, str]:
    """The first piece :func:`split_long` would cut from ``text`` at ``limit``, and the rest as
    text that stands alone (a code fence cut open is reopened at its start; "" when nothing
    is left). For filling the room left in a message with the start of a long block.

    ``clean``: only at a line, a sentence end or a space, outside links and after markers,
    else ``("", text)``: a cut through a word or a link is for a piece that must start a
    message, never for filling one (the block can start the next message instead).
    """
    if len(text) <= limit:
        return text, ""
    cut = _cut_with_room(text, limit, 0, clean)
    if not cut.at:  # only a cut through a word or link was left
        return "", text
    piece, rest, reopen, _ = _cut_once(text, limit, 0, cut)
    return piece, reopen + rest if rest.strip() else ""


def first_piece(text: str, limit: int, clean: bool = True) -> str:
    """The piece of :func:`split_first`, without building the rest (a copy of the whole text):
    for measuring pieces of one long text at many sizes."""
    if len(text) <= limit:
        return text
    cut = _cut_with_room(text, limit, 0, clean)
    return _piece_at(text, cut) if cut.at else ""


def _shown(body: str, cut: _Cut) -> str:
    """``body`` up to the cut, before what closes the code it leaves open."""
    return body[: cut.at].rstrip() if cut.span else body[: cut.at].rstrip("\n")


def _closing_of(body: str, cut: _Cut) -> str:
    if cut.fence:
        return closing(cut.fence)
    return cut.span.closing(_shown(body, cut)) if cut.span else ""


def _piece_at(body: str, cut: _Cut) -> str:
    """The piece ``body[:cut]`` as sent: the code fence or span it leaves open closed, no
    trailing space or empty quote lines."""
    piece = _shown(body, cut) + _closing_of(body, cut) if cut.fence or cut.span else body[: cut.at]
    return _EMPTY_QUOTE_TAIL.sub("", piece.rstrip())


def _cut_once(
    body: str, limit: int, keep: int, at: _Cut | None = None, continued: bool = False
) -> tuple[str, str, str, bool]:
    """One cut of ``body`` (longer than ``limit``; at ``at`` when that was found already):
    the piece, the rest, the fence line that reopens the code block the cut fell in (""
    when none), and whether the rest starts with the second half of a line cut in two. The
    first ``keep`` characters (a reopened fence) stay in the piece. ``continued``: ``body``
    starts with such a second half, which is no quote or list item of its own whatever its
    first characters (the ">" of a link cut before, taken for a quote, compounded "> > >")."""
    cut = at or _cut_with_room(body, limit, keep)
    if cut.fence:
        at_line_start = body[cut.at - 1] == "\n"
        rest = code_rest(cut.fence, body[cut.at :], at_line_start)
        return _piece_at(body, cut), rest, reopening(cut.fence), False
    if cut.span:  # the code goes on in the rest, reopened (a code span never holds a line break)
        tail = body[cut.at :].lstrip(" ")
        rest = cut.span.reopening(tail) + tail
    else:
        rest = body[cut.at :].lstrip("\n")
        if body[cut.at - 1] == "\n" or body[cut.at] == "\n":
            rest = _EMPTY_QUOTE_HEAD.sub("", rest)
            rest = dedent_item(rest, len(rest) - len(rest.lstrip(" ")), at_line_start=True)
            return _piece_at(body, cut), rest, "", False
    line_start = body.rfind("\n", 0, cut.at) + 1
    if continued and line_start <= keep:
        return _piece_at(body, cut), rest, "", True
    # a quote's line cut in two: its second half is still quoted
    quote = _QUOTE_PREFIX.match(body, line_start)
    if quote and quote.end() < cut.at:
        return _piece_at(body, cut), quote[0].rstrip() + " " + rest, "", False
    # a list item's line cut in two: the item's next lines lose its indent too
    item = _ITEM_INDENT.match(body, line_start)
    indent = item.end() - line_start if item else 0
    return _piece_at(body, cut), dedent_item(rest, indent, at_line_start=False), "", True


def _cut_with_room(body: str, limit: int, keep: int, clean: bool = False) -> _Cut:
    """Where to cut ``body`` so that the piece, with the closing fence or backtick run it may
    need, fits in ``limit``, and the code the cut leaves open. The first ``keep`` characters (a
    reopened fence) stay. With ``clean``, at 0 when no line, sentence or space is left to cut
    at."""
    # the whole limit first: a piece outside code needs no room for a closing fence (4 kept
    # for it made every piece end up to 4 characters short, a sentence missing its last word)
    budget = limit
    while True:
        at = _cut_point(body, budget, clean)
        if clean and at <= keep:
            return _Cut(0)
        if at <= keep:
            at = min(len(body), keep + max(1, budget - keep))
            start = grapheme_cut(body, at)
            at = start if start > keep else at
        fence = open_fence(body[:at])
        cut = _Cut(at, fence) if fence else _in_code_span(body, at, keep)
        room = len(_closing_of(body, cut))
        if len(_shown(body, cut)) + room <= limit or budget <= keep + 1:
            return cut
        budget = min(budget - 1, limit - room)


def _in_code_span(body: str, at: int, keep: int) -> _Cut:
    """A cut at ``at``, with the code span it falls in (if any) to close and reopen. A cut in
    the span's closing run goes after the span; one that keeps none of its code (in its
    opening run, or after spaces only) goes before it, unless the span starts the piece."""
    span = open_code_span(body, at)
    if span is None:
        return _Cut(at)
    code_start = span.start + len(span.run)
    if at > span.end - len(span.run):
        return _Cut(span.end)
    if at <= code_start or not body[code_start:at].strip():
        return _Cut(span.start) if span.start > keep else _Cut(at)
    return _Cut(at, span=span)
