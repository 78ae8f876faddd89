"""Where a text may be cut without splitting a character as a reader sees it (a grapheme).

A title shortened by code point lost what the code points after the cut added to the last
character: the voicing mark of a decomposed "ぼ" (U+307B U+3099) went, leaving "ほ"; a flag
(two regional indicators) became a lone letter box; a family emoji (people joined by U+200D)
ended in a joiner with nothing to join. :func:`grapheme_cut` moves a cut back to the start of
the character it falls in, by the rules of Unicode's extended grapheme clusters (UAX #29)
that matter for shortening text, without a dependency:

- a combining mark (Unicode Mn, Mc, Me: accents, Indic vowel signs, the kana voicing marks
  U+3099 and U+309A), a variation selector (U+FE0F emoji, U+FE0E text style), an emoji skin
  tone (U+1F3FB-1F3FF), a tag character (the flags of England or Scotland), the zero-width
  joiners and the half-width kana voicing marks stay with the character before them;
- nothing is cut after a zero-width joiner (UAX #29 keeps it only before a pictograph; a kept
  text ending in a joiner is never what a reader wrote, so this is stricter);
- regional indicators pair up from the start of their run, each pair one flag;
- Hangul jamo that spell one syllable stay together, as does CR LF.

Left out: prepended concatenation marks (Arabic U+0600-0605, rare in titles) and the Indic
conjunct rule (a consonant after a virama), new in Unicode 15.1, which Python 3.11's
``unicodedata`` (14.0) predates.
"""

from __future__ import annotations

import unicodedata
from typing import Final

ZWJ: Final = "\u200d"
# A cluster is a few code points (the longest emoji ZWJ sequences ten, Unicode's stream-safe
# text at most 30 marks in a row): a cut that found no boundary this far back was in no
# character a reader would see whole, and stays where it was.
_MAX_CLUSTER: Final = 32
_REGIONAL_INDICATORS: Final = range(0x1F1E6, 0x1F200)
_EXTENDERS: Final = (
    range(0x200C, 0x200E),  # zero-width non-joiner and joiner
    range(0x1F3FB, 0x1F400),  # emoji skin tones
    range(0xE0020, 0xE0080),  # tags
    range(0xFF9E, 0xFFA0),  # half-width kana voiced and semi-voiced sound marks
)
# Hangul jamo: leading consonants (L), vowels (V), trailing consonants (T), and syllables
_LEADING: Final = (range(0x1100, 0x1160), range(0xA960, 0xA97D))
_VOWELS: Final = (range(0x1160, 0x11A8), range(0xD7B0, 0xD7C7))
_TRAILING: Final = (range(0x11A8, 0x1200), range(0xD7CB, 0xD7FC))
_SYLLABLES: Final = range(0xAC00, 0xD7A4)
_SYLLABLE_VOWELS: Final = 28  # a syllable with no trailing consonant is every 28th (LV)


def _extends(code: int, char: str) -> bool:
    """True when ``char`` belongs to the character before it (UAX #29 Extend, SpacingMark)."""
    return unicodedata.category(char)[0] == "M" or any(code in span for span in _EXTENDERS)


def _in(code: int, spans: tuple[range, ...]) -> bool:
    return any(code in span for span in spans)


def _hangul_joins(before: int, after: int) -> bool:
    """True when jamo or syllable ``before`` and jamo ``after`` spell one syllable."""
    if _in(before, _LEADING):
        return _in(after, _LEADING) or _in(after, _VOWELS) or after in _SYLLABLES
    open_syllable = before in _SYLLABLES and (before - 0xAC00) % _SYLLABLE_VOWELS == 0
    if open_syllable or _in(before, _VOWELS):
        return _in(after, _VOWELS) or _in(after, _TRAILING)
    if before in _SYLLABLES or _in(before, _TRAILING):
        return _in(after, _TRAILING)
    return False


def _odd_indicators_before(text: str, index: int) -> bool:
    """True when an odd number of regional indicators runs up to ``index``: the one at
    ``index`` completes a flag."""
    start = index
    while start > 0 and ord(text[start - 1]) in _REGIONAL_INDICATORS:
        start -= 1
    return (index - start) % 2 == 1


def is_grapheme_boundary(text: str, index: int) -> bool:
    """True when ``text[:index]`` ends with a whole character (grapheme cluster)."""
    if index <= 0 or index >= len(text):
        return True
    before, after = text[index - 1], text[index]
    before_code, after_code = ord(before), ord(after)
    if before_code < 0x300 and after_code < 0x300:  # no mark, joiner or emoji: Latin-1 and on
        return not (before == "\r" and after == "\n")
    if before == ZWJ or _extends(after_code, after):
        return False
    if before_code in _REGIONAL_INDICATORS and after_code in _REGIONAL_INDICATORS:
        return not _odd_indicators_before(text, index)
    return not _hangul_joins(before_code, after_code)


def joins_nothing(text: str, index: int) -> bool:
    """True when ``text[:index]`` ends in a zero-width joiner after an ASCII character and
    ``text[index]`` starts a character of its own: UAX #29 breaks there (a joiner binds only a
    pictograph to the one before it, and ASCII has none). Where the joiner is a renderer's own
    (Slack's around a literal "*"), a cut after it may be the only one that keeps a link whole."""
    if not 1 < index < len(text) or text[index - 1] != ZWJ or ord(text[index - 2]) >= 0x80:
        return False
    return not _extends(ord(text[index]), text[index])


def grapheme_cut(text: str, index: int) -> int:
    """The last place at or before ``index`` where ``text`` may be cut without splitting a
    character (``text[:grapheme_cut(text, i)]`` keeps only whole ones)."""
    floor = max(0, index - _MAX_CLUSTER)
    cut = index
    while cut > floor and not is_grapheme_boundary(text, cut):
        cut -= 1
    return cut if is_grapheme_boundary(text, cut) else index
