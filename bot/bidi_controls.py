"""Characters kept out of shown text: the Unicode bidi controls and the C0/C1 control codes.

U+202A LRE, U+202B RLE, U+202C PDF, U+202D LRO, U+202E RLO, U+2066 LRI, U+2067 RLI, U+2068 FSI
and U+2069 PDI reorder the characters around them on screen (a Trojan-Source display attack:
``"\\u202e91$"`` shows as ``$19``, and an override left open reverses the rest of the line, a
link or a footnote definition). Nothing citecast shows needs them: Arabic, Hebrew and Persian
text reads right to left by itself, and the direction marks U+200E LRM, U+200F RLM, U+061C ALM
and the zero-width (non-)joiners, which only shape the text they touch, are kept.

The C0 and C1 control codes (U+0000–U+001F, U+007F–U+009F) go too: a NUL or an ESC from a
document ("evil\\u0000\\u001b[31m") shows as a missing-glyph box, and platforms may refuse a
message holding a NUL. Tab, line feed and carriage return stay (they lay text out, and the
markdown parser reads a carriage return as a line end); the ones that separate words (vertical
tab, form feed, the information separators U+001C–U+001F, next line U+0085) become a space, so
the words they stood between stay apart.

It costs one scan in C for text without any of these (the usual text); the text is copied
only when it holds one. A URL has them percent-encoded instead, with every other character a
URL may not hold (:func:`renderers.url_encoding.encoded_url`).
"""

from __future__ import annotations

import re

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The nine bidi controls removed from every text a renderer shows."""

_SEPARATORS = "\x0b\x0c\x1c\x1d\x1e\x1f\x85"
CONTROL_CODES = "".join(
    chr(c) for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in "\t\n\r"
)
"""The C0/C1 control codes removed from (or, for word separators, made a space in) shown text."""

_FOUND = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_DROP = str.maketrans(
    {ch: None for ch in BIDI_CONTROLS}
    | {ch: " " if ch in _SEPARATORS else None for ch in CONTROL_CODES}
)


def without_bidi_controls(text: str) -> str:
    """``text`` without the nine bidi embedding, override and isolate controls and without C0/C1
    control codes (tab, line feed and carriage return kept; word separators made spaces)."""
    if _FOUND.search(text) is None:
        return text
    return text.translate(_DROP)
