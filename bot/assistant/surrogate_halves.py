"""Answer text with UTF-16 surrogate halves made whole.

JSON may write a character outside the Basic Multilingual Plane (an emoji) as two ``\\uXXXX``
escapes, and a proxy that slices its stream as UTF-16 can send them in two chunks: each chunk
then decodes to a lone surrogate. Python keeps such a string, but it cannot be encoded as
UTF-8, and the first renderer, log line or database write that tries fails the whole answer.
:class:`SurrogateJoin` holds a high half back until the next chunk brings its low half;
a half that never finds its partner becomes U+FFFD, as a decoder would show it.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_HIGH = range(0xD800, 0xDC00)


def well_formed(text: str) -> str:
    """``text`` with each surrogate pair joined into its character and every lone half
    replaced by U+FFFD."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


class SurrogateJoin:
    """Joins surrogate pairs split across a stream's chunks (see the module's docstring)."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, text: str) -> str:
        """``text`` made well formed, less a trailing high half kept for the next chunk."""
        text = self._held + text
        self._held = ""
        if text and ord(text[-1]) in _HIGH:
            text, self._held = text[:-1], text[-1]
        return well_formed(text)

    def end(self) -> str:
        """What was held back at the stream's end: a lone half, shown as U+FFFD."""
        rest, self._held = self._held, ""
        return well_formed(rest)
