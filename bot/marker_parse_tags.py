"""Parsers for the citation markers that are not square brackets: tags, CJK brackets, private use.

``<CIT id />`` and ``<citation>…</citation>`` tags (:func:`parse_angle`), ``【2】``,
``【4:0†source】`` and full-width ``［1］`` (:func:`parse_cjk`) and the private-use markers
U+E200 … U+E201 (:func:`parse_private`). They answer as every parser of
:mod:`bot.marker_parse` does (a :class:`~bot.marker_types.Hit`, ``None`` or
:data:`~bot.marker_types.NEED`, each within its family's bound), and read a placeholder in a
tag with that module's placeholder patterns.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_numbers import NUM_LIST, WORDS, bare_numbers_ok, expand_numbers
from bot.marker_parse import MAX_BRACKET, PLACEHOLDER_SYMBOL, PLACEHOLDER_WORDS, Grammar
from bot.marker_types import NEED, STRAY, Hit, Marker, Parsed

MAX_TAG = 1024
MAX_CIT = 160
MAX_PRIVATE = 256

_CJK_BODY = re.compile(
    rf"[ \t]*(?:(?:{WORDS})[ \t]*[:#]?[ \t]*)?(?P<nums>{NUM_LIST})(?::\d+)*"
    r"(?:†(?P<label>[^】\n]*))?[ \t]*",
    re.IGNORECASE,
)
# the closing bracket of each CJK opening one (parse_cjk)
CJK_CLOSERS: Final = {"【": "】", "［": "］"}
_FULL_WIDTH_SEPARATORS: Final = str.maketrans("，、；　", ",,; ")
_CIT_STOP = re.compile(r"[\n<>]")
# Ids may contain "/" (paths, "table/row") as long as it does not start the closing "/>".
# (never a zero-width space: the resolver writes one where a removal must not join text)
_CIT = re.compile(r"<CIT[ \t]+(?P<id>(?:[^\s/<>\"'\u200b]|/(?!>)){1,128})[ \t]*/?>", re.IGNORECASE)
_CIT_START = "<cit"
_CITATION_OPEN = "<citation>"
_CITATION_CLOSE = "</citation>"
_CITATION_CLOSE_ANY_CASE = re.compile(re.escape(_CITATION_CLOSE), re.IGNORECASE)
_TAG_BODY = re.compile(rf"\s*(?P<nums>{NUM_LIST})\s*(?:[|:](?P<quote>.*))?", re.DOTALL)
# quotation marks around a quote, and an ellipsis at its end (what the deep link must not hold)
_QUOTE_ENDS = re.compile(r"^[\s\"'“”‘’„«»]+|(?:[\s\"'“”‘’«»]|\.\.\.|…)+$")
_ID_BODY = re.compile(r"\s*(?P<id>[^\s|<>]{1,128})\s*")
_PRIVATE = re.compile(
    "\ue200(?P<kind>[a-z_]{0,16})(?P<ids>(?:\ue202[^\ue200-\ue202\n]{1,64})*)\ue201"
)


def parse_angle(buf: str, i: int, final: bool) -> Parsed:
    """``<CIT id />`` and ``<citation>…</citation>`` tags."""
    n = len(buf)
    head = buf[i : i + len(_CITATION_OPEN)].lower()
    if head.startswith("<cit") and len(head) > 4 and head[4] in " \t":
        m = _CIT.match(buf, i, i + MAX_CIT)
        if m is not None:
            return Hit(m.end(), Marker("file_id", m[0], i, ids=(m["id"],)))
        tail = buf[i : i + MAX_CIT]
        if final or len(tail) >= MAX_CIT or _CIT_STOP.search(tail, 1):
            return None
        return NEED
    if head == _CITATION_OPEN:
        body_start = i + len(_CITATION_OPEN)
        close = buf.find("</", body_start, i + MAX_TAG)
        if close >= 0 and not buf.startswith(_CITATION_CLOSE, close):
            # not the usual "</citation>" first: "</Citation>", or another tag in the body
            found = _CITATION_CLOSE_ANY_CASE.search(buf, body_start, i + MAX_TAG)
            close = found.start() if found else -1
        if close < 0:
            if final or n - i >= MAX_TAG:
                return None
            return NEED
        end = close + len(_CITATION_CLOSE)
        body = buf[body_start:close]
        raw = buf[i:end]
        m = _TAG_BODY.fullmatch(body)
        if m is not None:
            numbers = expand_numbers(m["nums"])
            if numbers is not None:
                quote = quoted_words(m["quote"] or "") or None
                return Hit(end, Marker("tag", raw, i, numbers, quote=quote))
        if PLACEHOLDER_WORDS.fullmatch(body) or PLACEHOLDER_SYMBOL.fullmatch(body):
            return Hit(end, Marker("tag", raw, i, placeholder=True))
        ident = _ID_BODY.fullmatch(body)
        if ident is not None:
            return Hit(end, Marker("tag", raw, i, ids=(ident["id"],)))
        return Hit(end, Marker("tag", raw, i))
    if not final and len(head) < len(_CITATION_OPEN) and _CITATION_OPEN.startswith(head):
        return NEED  # also covers a partial "<CIT"
    return None


def quoted_words(quote: str) -> str:
    """The words a tag quotes, without the quotation marks and the trailing ellipsis a model
    puts around them (``"Python 3.11 is required."``, ``“…”``, ``required...``): the deep link
    made from the quote finds the words on the page, never the marks, which the page lacks."""
    return _QUOTE_ENDS.sub("", quote.strip())


def parse_cjk(buf: str, i: int, final: bool, grammar: Grammar | None = None) -> Parsed:
    """``【2】`` and ``【4:0†source】``; a label naming a source cites that source
    (``Grammar.source_named``). Full-width square brackets (``［1］``, ``［1，3］``), as models
    write ``[1]`` in CJK text, are read as ``[1]`` is: numbers a reader's bracket would not
    hold (``［0］``) stay text."""
    opener = buf[i]
    closer = CJK_CLOSERS[opener]
    close = buf.find(closer, i + 1, i + MAX_BRACKET)
    if close < 0:
        tail = buf[i + 1 : i + MAX_BRACKET]
        if final or len(buf) - i >= MAX_BRACKET or "\n" in tail or opener in tail:
            return None
        return NEED
    m = _CJK_BODY.fullmatch(buf[i + 1 : close].translate(_FULL_WIDTH_SEPARATORS))
    if m is None:
        return None
    numbers = expand_numbers(m["nums"]) or ()
    if opener == "［":
        if m["label"] is not None or not bare_numbers_ok(m["nums"]):
            return None
        return Hit(close + 1, Marker("bracket", buf[i : close + 1], i, numbers))
    if grammar is not None:
        numbers = grammar.dagger_numbers(numbers, m["label"])
    return Hit(close + 1, Marker("word", buf[i : close + 1], i, numbers))


def parse_private(buf: str, i: int, final: bool) -> Parsed:
    """Private-use markers: U+E200 kind (U+E202 id)… U+E201; a stray one is stripped."""
    if buf[i] != "\ue200":
        return Hit(i + 1, STRAY)
    m = _PRIVATE.match(buf, i, i + MAX_PRIVATE)
    if m is not None:
        ids = tuple(part for part in m["ids"].split("\ue202") if part)
        return Hit(m.end(), Marker("private", m[0], i, ids=ids))
    tail = buf[i : i + MAX_PRIVATE]
    if not final and len(tail) < MAX_PRIVATE and "\n" not in tail and "\ue201" not in tail:
        return NEED
    return Hit(i + 1, STRAY)
