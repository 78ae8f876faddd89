"""Bare URLs too long for any message, shown as a note rather than cut into two dead links.

The platforms link a bare URL in text (``https://…``, ``www.…``) themselves. A cut never falls
inside one (:data:`renderers.protected_spans.CUT_PROTECTED`), but one longer than a message
cannot arrive whole in any: cut in two, each half would be linked to an address that is not
the page. Such a URL, in a block that must be cut, shows as "(link too long to show)" instead,
as a masked link too long for any message does (:data:`renderers.limits.LINK_TOO_LONG`). A URL
in code (a code span or a fenced block, quoted or not) is code: it stays, and is cut as code.
"""

from __future__ import annotations

import re

from renderers.escaping import link_part
from renderers.fence_cuts import Fence, after_line
from renderers.protected_spans import CUT_PROTECTED, is_bare_url

# the room a piece needs around a URL it holds: a quote's "> ", the marker citing it
_ROOM = 100
# where a bare URL may start: a quick look before any scan (most text holds none)
_URL_START = re.compile(r"://|[wW][wW][wW]\.")


def longest_bare_url(limit: int) -> int:
    """The longest bare URL a block cut into pieces of ``limit`` characters keeps: the limit
    less the room around it (100 for a message, as for a masked link: ``*_MAX_LINK``)."""
    return limit - min(_ROOM, limit // 4)


def show_long_urls(text: str, limit: int, note: str) -> str:
    """``text``, to be cut into pieces of at most ``limit`` characters, with every bare URL
    longer than :func:`longest_bare_url` outside code replaced by ``note``; punctuation
    ending it (not part of the link) stays."""
    longest = longest_bare_url(limit)
    if len(text) <= longest or _URL_START.search(text) is None:
        return text
    out: list[str] = []
    last = 0
    code = _FencedLines(text)
    for m in CUT_PROTECTED.finditer(text):
        if m.end() - m.start() <= longest or not is_bare_url(m[0]):
            continue
        url = link_part(m[0])
        if len(url) <= longest or code.in_code(m.start()):
            continue
        out.append(text[last : m.start()])
        out.append(note)
        last = m.start() + len(url)
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


class _FencedLines:
    """Whether a position of a text lies in a fenced code block, for positions asked in
    increasing order: the text's lines are read once, up to the last position asked."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._line_start = 0  # the line read next
        self._fence: Fence | None = None  # the fence open before that line
        self._in_code = False  # whether the line read last is code

    def in_code(self, pos: int) -> bool:
        while self._line_start <= pos:
            end = self._text.find("\n", self._line_start)
            end = len(self._text) if end < 0 else end
            before = self._fence
            self._fence = after_line(before, self._text[self._line_start : end])
            # an opening or closing fence line is part of the block too
            self._in_code = before is not None or self._fence is not None
            self._line_start = end + 1
        return self._in_code
