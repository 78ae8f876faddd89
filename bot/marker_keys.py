"""Markers that open with ``[[``: record keys, linked numbers and doubled groups.

Record keys are ``[[source key="…" columns="…"]]`` (the token word is configurable); a linked
number ``[[1]](url)`` is read by :func:`bot.marker_parse.parse_bracket`; a marker the model
wrapped in doubled brackets (``[[1]]``, ``[[^2]]``, ``[[source]]``) is one marker, brackets and
all, rather than a citation left between two stray brackets.

Once a model has written the head of one (``[[source key=`` or ``[[source columns=``, also
with a colon after the word, ``[[source: key=``, or ``keys=`` / ``column=``, read as ``key=``
and ``columns=``), the text is a marker whatever follows, like a ``<citation>`` tag: the reader
never wrote it. So a marker that closes is never shown as text. When its attributes are well
formed (in either order, separated by spaces or commas, with straight or curly quotes or none)
its key is looked up; otherwise it carries an empty key and is dropped as ``invalid_token``. A
key that held ``"]]`` (``[[source key="A"]]1"]]``) is one marker too: the rest of it, written
up to its own ``]]`` without a space, belongs to the marker, so no stray ``1"]]`` is left in
the answer.

The decision rules keep streaming and batch resolution equal: a marker is decided at its first
``]]``, which no well-formed key or column list contains; until then it may still close, unless
a line break, a ``[`` or the MAX_RECORD bound comes first (then it stays text, as an unclosed
tag does). The tail of a mangled key is decided at the first space, bracket or ``]]``.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_parse import MAX_RECORD, NEED, Grammar, Hit, Marker, Parsed, parse_bracket

MAX_KEY: Final = 64

_QUOTES = "\"'“”‘’"
# the usual form, decided by one pattern on the hot path; like the loose form, never a "[" or
# a zero-width space in it
_STRICT = (
    r"[ \t]+key[ \t]*=[ \t]*[\"'](?P<key>[^\"'\n\[\]\u200b]{1,64})[\"']"
    r"(?:[ \t]+columns[ \t]*=[ \t]*[\"'](?P<cols>[^\"'\n\[\]\u200b]{0,256})[\"'])?[ \t]*\]\]"
)
# after the token word, a space or a colon ("[[source: key=…]]"); "keys" and "column" are
# read as "key" and "columns"
_LOOSE_HEAD = r"(?:[ \t]*:[ \t]*|[ \t]+)(?=(?:keys?|columns?)[ \t]*=)"
_ALIASES = {"keys": "key", "column": "columns"}
_ATTRIBUTE = re.compile(
    rf"[ \t,]*(?P<name>[A-Za-z_]+)[ \t]*=[ \t]*"
    rf"(?:[{_QUOTES}](?P<quoted>[^{_QUOTES}\n]{{0,256}})[{_QUOTES}]|(?P<bare>[^\s{_QUOTES},]{{1,256}}))"
)
_SEPARATORS = re.compile(r"[ \t,]*")
_CLOSE_OR_STOP = re.compile(r"\]\]|[\n\[\u200b]")
# the rest of a key that held "]]": no space before its own closing "]]"
_KEY_TAIL = re.compile(r"[^\s\[\]]{1,64}\]\]")
_KEY_TAIL_OPEN = re.compile(r"[^\s\[\]]{0,64}\]?")

_PATTERNS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {}


def _patterns(word: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The strict marker and the loose head for the token word ``word``."""
    patterns = _PATTERNS.get(word)
    if patterns is None:
        start = rf"\[\[[ \t]*{re.escape(word)}"
        patterns = (
            re.compile(start + _STRICT, re.IGNORECASE),
            re.compile(start + _LOOSE_HEAD, re.IGNORECASE),
        )
        _PATTERNS[word] = patterns
    return patterns


def parse_double(buf: str, i: int, final: bool, grammar: Grammar, prev: str) -> Parsed:
    """A marker at ``buf[i]``, which starts ``[[``; text (None) or NEED."""
    if buf[i + 2 : i + 3].isdigit():  # "[[1]](url)"
        found = parse_bracket(buf, i, final, grammar, prev)
    else:
        found = parse_record(buf, i, final, grammar.key_word)
    if found is not None:
        return found
    inner = parse_bracket(buf, i + 1, final, grammar, "[")
    if not isinstance(inner, Hit) or inner.marker is None:
        return NEED if inner is NEED else None
    end = inner.end
    if end >= len(buf):
        return None if final else NEED
    if buf[end] != "]":
        return None
    return Hit(end + 1, inner.marker._replace(raw=buf[i : end + 1]))


def parse_record(buf: str, i: int, final: bool, word: str) -> Parsed:
    """A record-key marker at ``buf[i]`` (which starts ``[[``), text, or NEED."""
    n = len(buf)
    limit = i + MAX_RECORD
    strict, loose = _patterns(word)
    m = strict.match(buf, i, limit)
    if m is not None:
        columns = _columns(m["cols"] or "")
        return _with_key_tail(buf, i, m.end(), final, m["key"], columns, m.start("key"))
    head = loose.match(buf, i, limit)
    if head is None:
        return _undecided_head(buf, i, final, word)
    # a marker that has not closed before a line break or a "[" never will: text (and one
    # holding a zero-width space, which the resolver writes where a removal must not join text)
    stop = _CLOSE_OR_STOP.search(buf, head.end(), limit)
    if stop is None:
        return None if final or n >= limit else NEED
    if stop[0] != "]]":
        return None
    key, columns = _attributes(buf[head.end() : stop.start()])
    return _with_key_tail(buf, i, stop.end(), final, key, columns, head.end())


def _undecided_head(buf: str, i: int, final: bool, word: str) -> Parsed:
    """NEED while ``buf[i:]`` could still grow into a record-key head, else text."""
    tail = buf[i : i + MAX_RECORD]
    if final or len(tail) >= MAX_RECORD or "\n" in tail or "]]" in tail:
        return None
    start = tail[2:].lstrip(" \t").lower()
    lowered = word.lower()
    if lowered.startswith(start[: len(lowered)]) or start.startswith(lowered):
        return NEED
    return None


def _with_key_tail(
    buf: str, i: int, end: int, final: bool, key: str, columns: tuple[str, ...], key_at: int
) -> Parsed:
    """The marker ending at ``end``, extended over the rest of a key that held ``"]]``."""
    limit = i + MAX_RECORD
    while True:
        tail = _KEY_TAIL.match(buf, end, limit)
        if tail is None:
            if not final and len(buf) < limit and _KEY_TAIL_OPEN.fullmatch(buf, end):
                return NEED
            return Hit(end, Marker("record_key", buf[i:end], i, key=key, columns=columns))
        end = tail.end()
        # the key as written, quotes and brackets included: it names no source of this turn
        key = buf[key_at : end - 2].strip(" \t" + _QUOTES)
        columns = ()


def _attributes(body: str) -> tuple[str, tuple[str, ...]]:
    """The key and columns of well-formed attributes; an empty key when they are not."""
    found: dict[str, str] = {}
    pos = 0
    while True:
        m = _ATTRIBUTE.match(body, pos)
        if m is None:
            break
        value = m["quoted"] if m["quoted"] is not None else m["bare"]
        name = m["name"].lower()
        found.setdefault(_ALIASES.get(name, name), value)
        pos = m.end()
    if _SEPARATORS.fullmatch(body, pos) is None or len(found.get("key", "")) > MAX_KEY:
        return "", ()
    return found.get("key", ""), _columns(found.get("columns", ""))


def _columns(text: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in text.split(",") if c.strip())
