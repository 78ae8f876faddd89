"""Autolinks of the marker grammar: ``<https://…>`` is a link, and nothing in it is a marker.

CommonMark (and mistune, which renders the answer, with the same pattern) reads ``<`` + a
scheme of 2 to 32 characters + ``:`` + characters other than spaces, controls, ``<`` and ``>``
+ ``>`` as a link whose address is the text between the angle brackets. A ``[2]`` in it
(``<https://docs.example.com/g1?x=[2]>``) is part of the address: read as a marker, the
resolver would rewrite the address (``x=[^1]``) and the channels would show a raw footnote. So
an autolink is kept as written, as a code span is.

A model's Slack-style link ``<https://evil.example|[1]>`` is such an autolink too (``|`` may
stand in an address): every channel shows it as the address it opens, ``|[1]`` included, never
as a link labelled ``[1]``, which would look like a citation.

An autolink that has not closed is undecided (:data:`~bot.marker_types.NEED`) while what came
so far can still become one, for at most MAX_AUTOLINK characters: past that, or at a space or a
line end, its ``<`` is text and what follows is read as usual (as one longer than that is by
the batch scan).
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_types import NEED, Hit, Parsed

__all__ = ["MAX_AUTOLINK", "autolink"]

MAX_AUTOLINK: Final = 2048
"""The longest autolink read as one, its angle brackets included (a link destination's bound)."""

# mistune's "auto_link" rule
_AUTOLINK = re.compile(r"<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>")
# what may still grow into one: a start of the scheme, or the scheme, its colon and an address
_AUTOLINK_OPEN = re.compile(
    r"<(?:[A-Za-z][A-Za-z0-9.+-]{0,31}|[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*)?"
)


def autolink(buf: str, at: int, final: bool) -> Parsed:
    """The autolink opening at ``buf[at]`` (a ``<``) as verbatim text (a hit with no marker),
    NEED while the text so far may still close as one, or None (the ``<`` is no autolink's)."""
    limit = at + MAX_AUTOLINK
    found = _AUTOLINK.match(buf, at, limit)
    if found is not None:
        return Hit(found.end(), None)
    n = len(buf)
    if final or n >= limit or _AUTOLINK_OPEN.fullmatch(buf, at) is None:
        return None
    return NEED


def is_autolink(buf: str, at: int) -> bool:
    """Whether an autolink opens at ``buf[at]`` and closes in ``buf`` within the bound."""
    return _AUTOLINK.match(buf, at, at + MAX_AUTOLINK) is not None
