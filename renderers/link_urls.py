"""Where a link written in the answer's text may lead: the one decision every writer links by.

A link must have an http, https or mailto URL (:func:`renderers.escaping.safe_url`); and a link
whose label reads like a citation marker (``[1]``, ``[1, 3]``, ``[2-4]``, ``[^1]``, ``[1?]``;
however it was written: ``[\\[1\\]](url)``, ``[&#91;1&#93;](url)``, ``[**[1]**](url)``) must
lead to one of the answer's cited sources. Anywhere else it would be a fake citation a reader
clicks in trust: "[1]" that opens a page no source is. Such a link shows its text alone, as a
link to an unsafe URL does. A cited source's link is its URL or a deep link into it (any
fragment: ``#page=3``, ``#:~:text=…``), its signed download link, or a marker's own deep link.
Ordinary links ("[the guide](url)", "[2023 report](url)") are never touched.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Mapping

from mistune.util import escape_url

from bot.markdown import Token
from renderers.base import CitationForm
from renderers.escaping import safe_url

_NUMBER = r"[\d\u00b2\u00b3\u00b9\u2070-\u2079]+"
# a label as :func:`_compact` leaves it: one or more bracketed groups of numbers, each maybe a
# footnote ("^1") or weak ("1?"), in any bracket a marker is written with (CJK ones included)
_CITATION_LIKE = re.compile(
    rf"(?:[\[\uff3b\u3010\u3014]\^?{_NUMBER}(?:(?:[,;\-\u2010-\u2015]|and|&){_NUMBER})*\??"
    r"[\]\uff3d\u3011\u3015][,;]?)+",
    re.IGNORECASE,
)
_OPENING = frozenset("[\uff3b\u3010\u3014")


def link_url(token: Token, forms: Mapping[int, CitationForm] | None) -> str | None:
    """The URL the link or image ``token`` may be shown linking to, or None when it shows as
    text: an unsafe URL, or a citation-like label leading to none of ``forms``' sources (the
    answer's citation forms; None: no cited source)."""
    url = safe_url(str((token.get("attrs") or {}).get("url") or ""))
    if url is None or not reads_like_citation(label_text(token.get("children") or [])):
        return url
    return url if cites_source(url, forms or {}) else None


def label_text(tokens: Iterable[Token]) -> str:
    """What a link's label shows, its entities decoded, without the citations in it (they
    follow the link as real markers)."""
    out: list[str] = []
    for token in tokens:
        kind = token["type"]
        if kind == "citation":
            continue
        if kind == "text":
            out.append(html.unescape(str(token.get("raw", ""))))
        elif "children" in token:
            out.append(label_text(token["children"]))
        else:
            out.append(str(token.get("raw", "")))
    return "".join(out)


def reads_like_citation(label: str) -> bool:
    """True when ``label`` reads as citation markers (``[1]``, ``[1, 3]``, ``[2-4]``,
    ``[^1]``, ``[1][2]``, ``【1】``), whatever white space or invisible characters it holds."""
    if not any(ch in _OPENING for ch in label):
        return False  # most labels: no bracket at all
    return _CITATION_LIKE.fullmatch(_compact(label)) is not None


def _compact(label: str) -> str:
    """``label`` without white space and format characters (zero-width spaces, joiners, bidi
    controls): none of them changes what a reader takes the label for."""
    return "".join(
        ch for ch in label if not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Cc")
    )


def cites_source(url: str, forms: Mapping[int, CitationForm]) -> bool:
    """True when ``url`` leads to one of the cited sources of ``forms`` (any fragment)."""
    wanted = _document(url)
    for form in forms.values():
        for candidate in (form.url, *(o.url for o in form.occurrences)):
            if candidate and _document(candidate) == wanted:
                return True
    return False


def _document(url: str) -> str:
    """``url`` as the parser writes a link's URL (percent-encoded), without its fragment."""
    return escape_url(url).partition("#")[0]


def has_lookalike_links(tokens: Iterable[Token]) -> bool:
    """True when some link or image of ``tokens`` is labelled like a citation (whatever it
    leads to): how it shows then depends on the citation forms known when it was written."""
    for token in tokens:
        kind = token["type"]
        if kind in ("link", "image"):
            if reads_like_citation(label_text(token.get("children") or [])):
                return True
        elif token.get("children") and has_lookalike_links(token["children"]):
            return True
    return False
