"""A model's closing line after its own source list: "Let me know if you have other questions!".

A trailing "Sources:" list is removed only when it ends the answer
(:func:`bot.marker_lines.read_source_items`), but models often close with one more line after
it. Such a line, the last paragraph of the answer, does not keep the list: the list goes and
the line stays. Only these phrases count (English, the language models sign off in most), on
one short line with no marker, code or markup, so text that goes on after a list keeps it.
"""

from __future__ import annotations

import re
from typing import Final

MAX_SIGN_OFF: Final = 200
"""A longer last paragraph is the answer's own text (and bounds what a stream waits for)."""

_PHRASES: Final = (
    "let me know",
    "i hope this helps",
    "i hope that helps",
    "hope this helps",
    "hope that helps",
    "feel free to",
    "happy to help",
    "is there anything else",
    "if you have any",
    "if you need",
    "anything else",
)
_REST = re.compile(r"[^\[\]<>`|\n\ue200-\ue202【]*\n?[ \t\r\n]*")


def could_be_sign_off(rest: str, final: bool) -> bool | None:
    """Whether ``rest`` (the text from a line after a source list to the end so far) is a
    sign-off: True or False, or None while more text may still decide it (not ``final``)."""
    body = rest.lstrip(" \t*_").lower()
    if not final and len(rest) <= MAX_SIGN_OFF:
        started = any(p.startswith(body[: len(p)]) for p in _PHRASES)
        if started and _REST.fullmatch(rest) is not None:
            return None
    return (
        len(rest) <= MAX_SIGN_OFF
        and any(body.startswith(p) for p in _PHRASES)
        and _REST.fullmatch(rest) is not None
    )
