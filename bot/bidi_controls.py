"""The Unicode bidirectional embedding, override and isolate controls, kept out of shown text.

U+202A LRE, U+202B RLE, U+202C PDF, U+202D LRO, U+202E RLO, U+2066 LRI, U+2067 RLI, U+2068 FSI
and U+2069 PDI reorder the characters around them on screen (a Trojan-Source display attack:
``"\\u202e91$"`` shows as ``$19``, and an override left open reverses the rest of the line, a
link or a footnote definition). Nothing citecast shows needs them: Arabic, Hebrew and Persian
text reads right to left by itself, and the direction marks U+200E LRM, U+200F RLM, U+061C ALM
and the zero-width (non-)joiners, which only shape the text they touch, are kept.

Both functions cost one ``isascii`` check (constant time) for ASCII text and one scan in C for
the rest; the text is copied only when it holds a control.
"""

from __future__ import annotations

import re

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The nine characters removed from every text a renderer shows."""

_FOUND = re.compile("[\u202a-\u202e\u2066-\u2069]")
_DROP = str.maketrans(dict.fromkeys(BIDI_CONTROLS))
# in a URL a control is percent-encoded, as a browser sends it: the address stays the same
_ENCODE = str.maketrans(
    {ch: "".join(f"%{byte:02X}" for byte in ch.encode("utf-8")) for ch in BIDI_CONTROLS}
)


def without_bidi_controls(text: str) -> str:
    """``text`` without the nine bidi embedding, override and isolate controls."""
    if text.isascii() or _FOUND.search(text) is None:
        return text
    return text.translate(_DROP)


def url_without_bidi_controls(url: str) -> str:
    """``url`` with each bidi control percent-encoded (``%E2%80%AE`` for U+202E), so the
    address is unchanged but nothing in it reorders the text shown around it."""
    if url.isascii() or _FOUND.search(url) is None:
        return url
    return url.translate(_ENCODE)
