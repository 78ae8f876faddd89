"""Where a sentence of any script ends, for cutting a long paragraph into chunks.

A cut goes after a full stop (``.``, ``!``, ``?``, and the Hindi danda ``।``, the Arabic
question mark ``؟``, the Urdu ``۔`` and the others of :data:`bot.sentence_rules.FULL_STOPS`,
Chinese and Japanese ``。！？``, a Greek ``;`` between Greek words) and any closing quotes,
but not after a ``.`` that closes an abbreviation, an initial or a date's ordinal (``Dr.``,
``J. Smith``, ``am 3. Oktober``: :func:`bot.sentence_rules.stop_ends_sentence`, the rule the
answerer and the claim splitter share), before a sentence's first character: a capital of any
script (``П``, ``Ü``, ``Ω``), a letter of a script without capitals (Arabic, Hebrew,
Devanagari), a digit, or the opening quote, bracket or Spanish ``¿``/``¡`` before one. A full
stop before a lower-case word (``citecast reads…``, ``e.g. this``) is a *weak* end: a paragraph
is cut there only when no strong end is near (:func:`weak_end_before`), which is still better
than in mid-sentence.
"""

from __future__ import annotations

import re

from bot.sentence_rules import FULL_STOPS, stop_ends_sentence

# a full stop, the closers that stay with it, then the space before the next sentence
_END = re.compile(rf"[{re.escape(FULL_STOPS)};][\"'”’»)\]*_]*\s+|[。！？][」』）\"'”’)\]*_]*\s*")
_OPENERS = "\"'“‘«([`*¿¡「『（"


def _is_greek(char: str) -> bool:
    return "\u0370" <= char <= "\u03ff" or "\u1f00" <= char <= "\u1fff"


def _starts_sentence(text: str, index: int) -> bool:
    """Whether ``text[index:]`` opens a sentence: its first character past any opener is a
    capital or a letter of a caseless script, or a digit."""
    while index < len(text) and text[index] in _OPENERS:
        index += 1
    if index >= len(text):
        return False
    char = text[index]
    return char.isdigit() or (char.isalpha() and not char.islower())


def _is_end(text: str, match: re.Match[str]) -> bool:
    mark = text[match.start()]
    if mark == ";":
        # the Greek question mark is ";" once normalised: only between Greek words
        before = text[match.start() - 1] if match.start() else ""
        after = text[match.end()] if match.end() < len(text) else ""
        return _is_greek(before) and _is_greek(after) and after.isupper()
    if mark in "。！？":
        return match.end() < len(text)
    return _starts_sentence(text, match.end()) and stop_ends_sentence(text, match.start())


def sentence_cuts(text: str) -> list[tuple[int, int]]:
    """``(end, start)`` of each strong sentence end of ``text``: the previous sentence ends at
    ``end`` (its full stop and closers kept), the next starts at ``start``."""
    return [
        (match.start() + len(match.group().rstrip()), match.end())
        for match in _END.finditer(text)
        if _is_end(text, match)
    ]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``, cut at its strong sentence ends; the
    space between two sentences belongs to neither."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end, next_start in sentence_cuts(text):
        spans.append((start, end))
        start = next_start
    spans.append((start, len(text)))
    return spans


def weak_end_before(text: str, start: int, stop: int) -> int:
    """The end (after the full stop) of the last full stop followed by a space in
    ``text[start:stop]``, or -1: where a sentence most likely ends when none opens with a
    capital."""
    best = -1
    for mark in FULL_STOPS:
        found = text.rfind(mark + " ", start, stop)
        # (not after "Dr." or "z. B.": a cut there is as bad as any in mid-sentence)
        while found >= 0 and not stop_ends_sentence(text, found):
            found = text.rfind(mark + " ", start, found)
        best = max(best, found + 1 if found >= 0 else -1)
    return best
