"""Platform limits and the splitting that keeps every payload inside them.

Long answers split at block boundaries (:func:`pack`); a single block longer than the limit splits
at a line, then a sentence, then a word boundary (:func:`split_long`), never inside a link or a
protected span, closing and reopening a code fence when the cut falls inside one. Such a block
is cut anyway, so its first piece fills the room the message before it has left
(:func:`split_first`, which never cuts through a word or link to do so). A citation
marker stays in the piece of the text it follows: a sentence ends after its markers
("done.[^1] ", "done. \\[1\\] "), and no cut falls inside a marker or just before one.
No cut parts a character as a reader sees it (a flag, an emoji sequence, a letter and its
combining marks: :mod:`bot.grapheme_cuts`), which would arrive broken in both messages.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from bot.grapheme_cuts import ZWJ, grapheme_cut, is_grapheme_boundary
from bot.markdown import FENCE_OPEN, closing_fence
from renderers.escaping import visible

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

# Markdown links `[..](..)` (one level of brackets in the text, of parentheses in the URL),
# Slack links `<..|..>`, HTML tags, code spans, and bold, italic or struck text (a cut would
# leave each piece with an unpaired mark): never cut inside one. A backtick shown as text
# (escaped "\`", or Slack's joiner-wrapped one) opens no code span: taken for one, it would
# hide the links up to the next backtick from this list, and a cut could fall inside them.
# A link's text or URL stops at a bracket or parenthesis it does not close, so a run of "[" or
# "(" costs one step each (text that ran on to the first "]" or ")" made splitting quadratic).
# Every branch starts with its opening character (an underscore's lookbehind comes after it), so
# the regex engine skips ahead to the next such character instead of trying each branch at
# every position: four times as fast on ordinary text.
_PROTECTED = re.compile(
    r"\[[^\[\]\n]*(?:\[[^\[\]\n]*\][^\[\]\n]*)*\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)"
    r"|<[^<>\n]*>|`(?<!\\`)(?<!\u200d`)(?!\u200d)[^`\n]*(?<!\u200d)`"
    r"|\*[^*\n]{1,1500}\*|_(?<!\w_)[^_\n]{1,1500}_(?!\w)|~[^~\n]{1,1500}~"
)
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


def _protected_spans(text: str) -> list[tuple[int, int]]:
    """The protected spans of ``text``, in order and never overlapping (one regex scan)."""
    return [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]


def _inside(pos: int, spans: Sequence[tuple[int, int]]) -> bool:
    """True when ``pos`` falls strictly inside one of the ordered ``spans``: a binary search,
    since a long line of code spans has thousands of spans and of candidate cut points."""
    i = bisect.bisect_left(spans, (pos,)) - 1
    return i >= 0 and pos < spans[i][1]


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
        for m in _PROTECTED.finditer(text):
            if m.start() > limit:
                break
            spans.append((m.start(), m.end()))
    else:
        # wide enough to see whole any link that starts before the limit and could fit a piece
        spans = _protected_spans(text[: 2 * limit + 1])
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
                not _inside(point, spans)
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
    return _whole_characters(text, max(1, cut), limit)


def _whole_characters(text: str, cut: int, limit: int) -> int:
    """``cut`` moved back to the start of the character it falls in (a flag, an emoji
    sequence, a letter and its marks: :func:`bot.grapheme_cuts.grapheme_cut`), so no
    character is parted across two messages; forward to its end when it starts the text and
    that end is within ``limit`` (a piece must hold something)."""
    if is_grapheme_boundary(text, cut):  # ASCII and most text: one check
        return cut
    back = grapheme_cut(text, cut)
    if back > 0:
        return back
    ahead = cut + 1
    while ahead <= limit and not is_grapheme_boundary(text, ahead):
        ahead += 1
    return ahead if ahead <= limit else cut


def split_long(text: str, limit: int) -> list[str]:
    """Split one block into pieces of at most ``limit`` characters (limit >= 40).

    A cut inside a fenced code block closes the fence at the end of the piece and reopens it
    (with the same info string) at the start of the next one. A fence indented under a list
    item closes at its own indent (a fence at column 0 would end the list item and open an
    empty code block); the next piece starts a new message outside any list, so the fence
    reopens at column 0 and the rest of the code loses the list's indent.
    """
    pieces: list[str] = []
    rest = text
    reopen = ""
    while rest:
        body = reopen + rest
        if len(body) <= limit:
            pieces.append(body)
            break
        piece, rest, reopen = _cut_once(body, limit, len(reopen))
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
    cut, fence = _cut_with_room(text, limit, 0, clean)
    if not cut:  # only a cut through a word or link was left
        return "", text
    piece, rest, reopen = _cut_once(text, limit, 0, (cut, fence))
    return piece, reopen + rest if rest.strip() else ""


def first_piece(text: str, limit: int, clean: bool = True) -> str:
    """The piece of :func:`split_first`, without building the rest (a copy of the whole text):
    for measuring pieces of one long text at many sizes."""
    if len(text) <= limit:
        return text
    cut, fence = _cut_with_room(text, limit, 0, clean)
    return _piece_at(text, cut, fence) if cut else ""


def _piece_at(body: str, cut: int, fence: tuple[str, str, int] | None) -> str:
    """The piece ``body[:cut]`` as sent: the fence it leaves open closed, no trailing space or
    empty quote lines."""
    piece = body[:cut]
    if fence:
        piece = piece.rstrip("\n") + _closing(fence)
    return _EMPTY_QUOTE_TAIL.sub("", piece.rstrip())


def _cut_once(
    body: str, limit: int, keep: int, at: tuple[int, tuple[str, str, int] | None] | None = None
) -> tuple[str, str, str]:
    """One cut of ``body`` (longer than ``limit``; at ``at`` when that was found already):
    the piece, the rest, and the fence line that reopens the code block the cut fell in (""
    when none). The first ``keep`` characters (a reopened fence) stay in the piece."""
    cut, fence = at or _cut_with_room(body, limit, keep)
    if fence:
        marker, info, indent = fence
        reopen = marker + info + "\n"
        at_line_start = body[cut - 1] == "\n"
        rest = _dedent_item(body[cut:], indent, at_line_start, marker)
    else:
        reopen = ""
        rest = body[cut:].lstrip("\n")
        if body[cut - 1] == "\n" or body[cut] == "\n":
            rest = _EMPTY_QUOTE_HEAD.sub("", rest)
            rest = _dedent_item(rest, len(rest) - len(rest.lstrip(" ")), at_line_start=True)
        else:
            # a quote's line cut in two: its second half is still quoted
            line_start = body.rfind("\n", 0, cut) + 1
            quote = _QUOTE_PREFIX.match(body, line_start)
            if quote and quote.end() < cut:
                rest = quote[0].rstrip() + " " + rest
            else:
                # a list item's line cut in two: the item's next lines lose its indent too
                item = _ITEM_INDENT.match(body, line_start)
                indent = item.end() - line_start if item else 0
                rest = _dedent_item(rest, indent, at_line_start=False)
    return _piece_at(body, cut, fence), rest, reopen


def _closing(fence: tuple[str, str, int]) -> str:
    return "\n" + " " * fence[2] + fence[0]


def _cut_with_room(
    body: str, limit: int, keep: int, clean: bool = False
) -> tuple[int, tuple[str, str, int] | None]:
    """Where to cut ``body`` so that the piece, with the closing fence it may need, fits in
    ``limit``; and that open fence. The first ``keep`` characters (a reopened fence) stay.
    With ``clean``, ``(0, None)`` when no line, sentence or space is left to cut at."""
    # the whole limit first: a piece outside code needs no room for a closing fence (4 kept
    # for it made every piece end up to 4 characters short, a sentence missing its last word)
    budget = limit
    while True:
        cut = _cut_point(body, budget, clean)
        if clean and cut <= keep:
            return 0, None
        if cut <= keep:
            cut = min(len(body), keep + max(1, budget - keep))
            start = grapheme_cut(body, cut)
            cut = start if start > keep else cut
        fence = open_fence(body[:cut])
        room = len(_closing(fence)) if fence else 0
        if len(body[:cut].rstrip("\n")) + room <= limit or budget <= keep + 1:
            return cut, fence
        budget = min(budget - 1, limit - room)


def _dedent_item(rest: str, indent: int, at_line_start: bool, fence: str = "") -> str:
    """``rest``, which starts a new message outside the list it was in, without up to
    ``indent`` spaces of that list's indent: on each line of the code block left open (when
    ``fence`` is its marker) up to and including its closing fence, then on each line until one
    is indented less (a line cut mid-way keeps its spaces)."""
    if not indent:
        return rest
    lines = rest.split("\n")
    in_code = bool(fence)
    for i, line in enumerate(lines):
        if i == 0 and not at_line_start:
            continue
        spaces = len(line) - len(line.lstrip(" "))
        if not in_code and line.strip() and spaces < indent:
            break
        lines[i] = line[min(spaces, indent) :]
        stripped = lines[i].strip()
        if in_code and stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
            in_code = False
    return "\n".join(lines)


def open_fence(text: str) -> tuple[str, str, int] | None:
    """The ``(marker, info, indent)`` of a code fence left open at the end of ``text``, if any
    (``indent``: the spaces before the opening fence).

    CommonMark's fence rules (``bot.markdown``), at any indent: a fence may sit in a list item.
    So a line like "```a``b" is a code span, not a fence (a backtick fence's info string holds
    no backtick), and is never closed and reopened around each cut.
    """
    fence: tuple[str, str, int] | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if fence is None:
            m = FENCE_OPEN.match(stripped)
            if m:
                info = stripped[m.end(1) :]
                fence = (m.group(1), info, len(line) - len(line.lstrip(" ")))
        elif closing_fence(stripped, fence[0]):
            fence = None
    return fence
