"""Where a link written in the answer's text may lead: the one decision every writer links by.

A link must have an http, https or mailto URL (:func:`renderers.escaping.safe_url`); and a link
whose label reads like a citation marker (``[1]``, ``[1, 3]``, ``[2-4]``, ``[^1]``, ``[1?]``;
decorated: ``[1.]``, ``[#1]``, ``[[1]]``, ``[1]:``; however it was written:
``[\\[1\\]](url)``, ``[&#91;1&#93;](url)``, ``[**[1]**](url)``) must
lead to one of the answer's cited sources. Anywhere else it would be a fake citation a reader
clicks in trust: "[1]" that opens a page no source is. Such a link shows its text alone, as a
link to an unsafe URL does. A cited source's link is its URL or a deep link into it (any
fragment: ``#page=3``, ``#:~:text=…``), its signed download link, or a marker's own deep link.
Ordinary links ("[the guide](url)", "[2023 report](url)") are never touched.

A link whose label reads as an address its link does not open (``[https://docs.example.com/
login](https://evil.example/x)``, ``[www.example.org](…)``) is never drawn as a masked link:
every channel shows its label as text, then the address it really opens
(:func:`label_hides_target`). Model text can be steered by the documents it read, and a reader
trusts the address they see.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Mapping
from urllib.parse import unquote, urlsplit

from mistune.util import escape_url

from bot.markdown import Token
from renderers.base import CitationForm
from renderers.escaping import safe_url
from renderers.url_encoding import encoded_url

_NUMBER = r"[\d\u00b2\u00b3\u00b9\u2070-\u2079]+"
# a label as :func:`_compact` leaves it: one or more bracketed groups of numbers, each maybe a
# footnote ("^1") or weak ("1?"), in any bracket a marker is written with (CJK ones included)
_CITATION_LIKE = re.compile(
    rf"(?:[\[\uff3b\u3010\u3014]\^?{_NUMBER}(?:(?:[,;\-\u2010-\u2015]|and|&){_NUMBER})*\??"
    r"[\]\uff3d\u3011\u3015][,;]?)+",
    re.IGNORECASE,
)
_OPENING = frozenset("[\uff3b\u3010\u3014")
# The same groups as a reader still takes them for markers, decorated: punctuation or symbols
# next to a group's brackets ("[1.]", "[1\u2020]", "[#1]", "[[1]]") and around the groups
# ("[1]:", "[1]<!-- -->"). Inside the brackets a decoration never stands between two numbers
# or holds a separator: "[1.2]" is a section number and "[1-]" no range. Letters are never
# decorations ("[1] guide" is an ordinary label).
_INSIDE = r"[^\w\s,;&\-\u2010-\u2015]"
_AROUND_GROUP = r"[^\w\s\[\]\uff3b\uff3d\u3010\u3011\u3014\u3015]"
_DECORATED_CITATION = re.compile(
    rf"{_AROUND_GROUP}*?(?:[\[\uff3b\u3010\u3014]{_INSIDE}*?\^?{_NUMBER}"
    rf"(?:(?:[,;\-\u2010-\u2015]|and|&){_NUMBER})*\??{_INSIDE}*?"
    rf"[\]\uff3d\u3011\u3015]{_AROUND_GROUP}*?)+",
    re.IGNORECASE,
)
# a decorated label longer than this is read by the plain rule alone: a marker with its
# decorations is short, and the decorated rule backtracks (quadratic in the label's length)
_DECORATED_MAX = 48


def link_url(token: Token, forms: Mapping[int, CitationForm] | None) -> str | None:
    """The URL the link or image ``token`` may be shown linking to, encoded as every channel
    writes it (:func:`renderers.url_encoding.encoded_url`: the parser leaves a ``%`` that
    starts no escape), or None when it shows as text: an unsafe URL, or a citation-like label
    leading to none of ``forms``' sources (the answer's citation forms; None: no cited
    source)."""
    url = safe_url(str((token.get("attrs") or {}).get("url") or ""))
    if url is not None:
        url = encoded_url(url)
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
    ``[^1]``, ``[1][2]``, ``【1】``), decorated or not (``[1.]``, ``[#1]``, ``[[1]]``,
    ``[1]:``), whatever white space, invisible characters or marks it holds."""
    if not any(ch in _OPENING for ch in label):
        return False  # most labels: no bracket at all
    compact = _compact(label)
    if _CITATION_LIKE.fullmatch(compact) is not None:
        return True
    # a run of one decoration reads as it does once ("[1]!!!!" as "[1]!"), so padding alone
    # never takes a label past the bound; the collapse is one linear scan
    collapsed = _REPEATED_DECORATION.sub(r"\1", compact)
    return len(collapsed) <= _DECORATED_MAX and _DECORATED_CITATION.fullmatch(collapsed) is not None


_REPEATED_DECORATION = re.compile(r"([^\w\s])\1+")


# what a reader does not see as a character of its own: format and control characters
# (zero-width spaces, joiners, bidi controls) and combining or enclosing marks (a keycap's
# "\u20e3", an emoji's variation selector "\ufe0f": "[1\ufe0f\u20e3]" reads "[1]")
_UNSEEN = frozenset({"Cf", "Cc", "Mn", "Me"})
# Characters that show nothing but are letters or symbols by category: the Hangul fillers
# (U+115F, U+1160, U+3164, U+FFA0: default-ignorable code points of category Lo) and the
# braille blank U+2800. "[1]\u3164" reads "[1]", and the letter rule must not save it.
_BLANK_GLYPHS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
# The default-ignorable code points not yet assigned (Cn): a later Unicode may give them a
# category, never a glyph (U+2065, U+FFF0-U+FFF8, the rest of U+E0000-U+E0FFF).
_IGNORABLE_RANGES = ((0x2065, 0x2065), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))


def _shows_nothing(ch: str) -> bool:
    """Whether a reader sees nothing of ``ch``: white space, a format or control character, a
    mark, or another default-ignorable code point (a Hangul filler) or the braille blank."""
    if ch.isspace() or unicodedata.category(ch) in _UNSEEN or ch in _BLANK_GLYPHS:
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def _compact(label: str) -> str:
    """``label`` without what shows nothing (white space, format characters, marks, fillers):
    none of it changes what a reader takes the label for."""
    return "".join(ch for ch in label if not _shows_nothing(ch))


def cites_source(url: str, forms: Mapping[int, CitationForm]) -> bool:
    """True when ``url`` leads to one of the cited sources of ``forms`` (any fragment)."""
    wanted = _document(url)
    for form in forms.values():
        for candidate in (form.url, *(o.url for o in form.occurrences)):
            if candidate and _document(candidate) == wanted:
                return True
    return False


def _document(url: str) -> str:
    """``url`` as the parser writes a link's URL (percent-encoded), then as the one rule
    encodes it (a source's ``%zz`` and the parser's differ otherwise), without its fragment."""
    return encoded_url(escape_url(url)).partition("#")[0]


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


# An address as a label may write it: with a scheme ("https://docs.example.com/x"), or a host
# alone ("www.example.org", "docs.example.com/login"): names joined by dots, the last of them
# letters only (so "v1.2" and "3.14" are not hosts), then maybe a port and a path.
# (a scheme starts where no scheme character stands before it: each run is tried once, not
# again from each of its letters, which made a long label's scan quadratic)
_SCHEMED = re.compile(r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://[^\s<>]+", re.IGNORECASE)
_WWW = re.compile(r"(?<![\w.\-@/])www\.[^\s<>]+", re.IGNORECASE)
_HOST_ADDRESS = re.compile(
    r"(?:[^\W_](?:[\w\-]*[^\W_])?\.)+[^\W\d_]{2,63}\.?(?::\d{1,5})?(?:[/?#]\S*)?"
)
# what may stand around an address written in a label without being part of it
_AROUND = "<>()[]{}\"'\u201c\u201d\u2018\u2019"
_AFTER = ".,:;!?" + _AROUND


def label_hides_target(token: Token, url: str) -> bool:
    """True when the label of the link ``token`` (leading to ``url``) reads as an address that
    ``url`` is not, or holds one: the link is then shown as its label followed by ``url``, never
    as a masked link. An address is the label's own when host, port, path and query match
    (letter case of the host, scheme, a fragment and a trailing slash aside)."""
    if label_is_target(token, url):
        return False
    target = _place(url)
    shown = _addresses(label_text(token.get("children") or []))
    return any(_place(address) != target for address in shown)


def label_is_target(token: Token, url: str) -> bool:
    """True when the whole label of the link ``token`` is the address ``url`` itself, brackets
    and all (an autolink: ``<…?x=[2]>``), which trimming it as text in a sentence would cut
    short."""
    whole = label_text(token.get("children") or []).strip()
    return _SCHEMED.fullmatch(whole) is not None and _place(whole) == _place(url)


def _addresses(label: str) -> list[str]:
    """The addresses ``label`` reads as: all of it when it is one (with or without a scheme),
    else each URL with a scheme or "www." in it (a host alone inside a sentence is left: "the
    Node.js guide")."""
    text = "".join(ch for ch in label if unicodedata.category(ch) not in ("Cf", "Cc"))
    whole = text.strip().strip(_AROUND).rstrip(_AFTER)
    if _SCHEMED.fullmatch(whole) or (_HOST_ADDRESS.fullmatch(whole) and _reads_as_host(whole)):
        return [whole]
    if "://" not in text and "ww." not in text.lower():
        return []  # most labels: words alone
    found = (m.group(0) for m in _SCHEMED.finditer(text))
    found_www = (m.group(0) for m in _WWW.finditer(text))
    return [address.rstrip(_AFTER) for address in (*found, *found_www)]


# Endings that make a name read as a file or a product, not a web address: "README.md",
# "setup.py", "Node.js", "config.yaml" link to pages about them, and no reader takes them for a
# site. (Some are country domains too, .md or .py, but not ones an address in a label fakes.)
_NOT_HOST_ENDINGS = (
    frozenset({"md", "markdown", "rst", "txt", "pdf", "html", "htm", "xml", "csv", "tsv", "log"})
    | frozenset({"json", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "lock", "proto"})
    | frozenset({"py", "pyi", "ipynb", "js", "mjs", "cjs", "ts", "tsx", "jsx", "rs", "go"})
    | frozenset({"java", "kt", "swift", "rb", "php", "c", "h", "cc", "cpp", "hpp", "cs", "sql"})
    | frozenset({"sh", "bash", "zsh", "ps1", "dockerfile", "png", "jpg", "jpeg", "gif", "svg"})
)


def _reads_as_host(label: str) -> bool:
    """Whether a label that has the form of a host name (``docs.example.com/login``) reads as
    one: not when it names a file or a product by its ending ("README.md", "Node.js")."""
    if label.lower().startswith("www."):
        return True
    host = re.split(r"[/?#:]", label, maxsplit=1)[0].rstrip(".")
    ending = host.rpartition(".")[2]
    if "/" in label[len(host) :]:
        return True  # a path after it: an address, whatever its ending
    return ending.lower() not in _NOT_HOST_ENDINGS


def _place(address: str) -> tuple[str, str, str]:
    """Where ``address`` leads, as a reader compares two: host (and port, and any user part),
    path without a trailing slash, query; decoded, without scheme or fragment."""
    if "://" not in address and address[:7].lower() != "mailto:":
        address = "https://" + address
    try:
        parts = urlsplit(address)
    except ValueError:  # "https://[bad": an address no one could compare, so never the same
        return (address, "", "")
    host = unquote(parts.netloc).lower().rstrip(".")
    return (host, unquote(parts.path).rstrip("/"), unquote(parts.query))
