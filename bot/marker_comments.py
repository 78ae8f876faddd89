"""Inline HTML comments in an answer: ``<!-- source: [2] -->`` is a region nothing is read in.

Models sometimes leave a note to themselves in an HTML comment, often naming a source
(``<!-- source: [2] -->``). No renderer shows a comment as one: each escapes raw HTML and shows
it as literal text, and a marker read inside it would be a citation numbered where the reader
sees only a stray comment. So a comment on one line, closed within MAX_COMMENT characters, is
removed whole and what it holds is never read (an ``opener``: it names nothing, and the space
before it is kept as for any removed marker). One that runs over a line break or past the
bound stays text, read as before. Decided within the bound (NEED until then), so streaming
and batch resolution agree.
"""

from __future__ import annotations

from typing import Final

from bot.marker_types import NEED, Hit, Marker, Parsed

MAX_COMMENT: Final = 160

_OPEN: Final = "<!--"
_CLOSE: Final = "-->"


def parse_comment(buf: str, i: int, final: bool) -> Parsed:
    """An inline HTML comment at ``buf[i]`` (a ``<``): removed (a marker naming nothing), text
    (None) or NEED."""
    head = buf[i : i + len(_OPEN)]
    if head != _OPEN:
        if not final and len(head) < len(_OPEN) and _OPEN.startswith(head):
            return NEED
        return None
    limit = min(len(buf), i + MAX_COMMENT)
    body_start = i + len(_OPEN)
    close = buf.find(_CLOSE, body_start, limit)
    if close >= 0:
        if buf.find("\n", body_start, close) >= 0:
            return None
        end = close + len(_CLOSE)
        return Hit(end, Marker("opener", buf[i:end], i))
    if final or limit - i >= MAX_COMMENT or buf.find("\n", body_start, limit) >= 0:
        return None
    return NEED
