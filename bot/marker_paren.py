"""Parenthesised source words: ``(Source 3)``, ``(sources 1, 3)``, ``(Ref. 2)`` (DESIGN §5).

Models write them where a bracket marker belongs, and the number they show is the registry's,
not the one the reader sees: left as text, they would point at the wrong source. They are also
ordinary prose as often as not, so they are read only in parentheses that hold nothing else and
only when every number names a source of this turn (``Grammar.is_known_number``); anything else
(``(source 3 of 5)``, ``Source: 3``, a number the registry lacks) stays as written. In an
answer from a model told to cite by number (``Grammar.model_cites``) the form alone decides: a
number the registry lacks is the model's invented citation, dropped, never shown.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_parse import (
    MAX_BRACKET,
    NEED,
    NUM_LIST,
    Grammar,
    Hit,
    Marker,
    Parsed,
    expand_numbers,
)

# the citation words read in parentheses: not "result(s)", which prose uses with numbers
_WORDS = (
    "sources|source|src|references|reference|refs|ref|citations|citation|cite|"
    "documents|document|docs|doc|passages|passage"
)
_WORD_SET: Final = frozenset(_WORDS.split("|"))
_LETTERS = re.compile(r"[A-Za-z]+")
_NUMERIC_PARTIAL = re.compile(r"[\d \t,;&\-–—.andAND]*")  # numbers and ranges, partly written
_PAREN = re.compile(
    rf"\([ \t]*(?:{_WORDS})[ \t]*[:#.]?[ \t]*(?P<nums>{NUM_LIST})[ \t]*\)", re.IGNORECASE
)


def parse_paren(buf: str, i: int, final: bool, grammar: Grammar) -> Parsed:
    """``(Source 3)``, ``(sources 1, 3)``, ``(Ref. 2)``: a citation word and registry numbers.

    Only when every number names a registry source (or ``grammar.model_cites``): otherwise,
    and in any other form (``(source 3 of 5)``, ``Source: 3``), it is the writer's text and
    stays as written.
    """
    close = buf.find(")", i + 1, i + MAX_BRACKET)
    if close < 0:
        tail = buf[i + 1 : i + MAX_BRACKET]
        if final or len(buf) - i >= MAX_BRACKET or "\n" in tail or "(" in tail:
            return None
        return NEED if could_be_paren_body(tail) else None
    m = _PAREN.fullmatch(buf, i, close + 1)
    if m is None:
        return None
    numbers = expand_numbers(m["nums"])
    if not numbers:
        return None
    if not grammar.model_cites and not all(grammar.is_known_number(n) for n in numbers):
        return None
    return Hit(close + 1, Marker("word", buf[i : close + 1], i, numbers))


def could_be_paren_body(partial: str) -> bool:
    """Whether an unclosed ``(`` body could still become a ``(Source 3)`` marker."""
    body = partial.lstrip(" \t")
    letters = _LETTERS.match(body)
    if letters is None:
        return not body
    word = letters[0].lower()
    if letters.end() == len(body):
        return any(known.startswith(word) for known in _WORD_SET)
    if word not in _WORD_SET:
        return False
    rest = body[letters.end() :].lstrip(" \t")
    if rest[:1] in (":", "#", "."):
        rest = rest[1:]
    return _NUMERIC_PARTIAL.fullmatch(rest) is not None
