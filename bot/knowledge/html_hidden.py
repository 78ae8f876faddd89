"""Hidden elements in an HTML page, for the HTML reader: where one starts and where it ends.

Scripts, styles and other invisible elements (``hidden``, ``aria-hidden="true"``) and page
furniture (``<nav>``, ``<footer>`` and elements with their ARIA roles) are not text. Each is
skipped up to where a browser's tree builder ends it: its own end tag; for one whose end tag
may be left out (``<p hidden>a<p>b``), the start or end tags that imply its end; and for any
other, also the end tag of an element open around it (``<div><nav>x</div><p>Body``: the
``</div>`` pops the ``<nav>`` as "generate implied end tags" and "pop until" do). Raw text
elements and scope boundaries (``<script>``, ``<template>``, ``<object>``, a ``<table>``)
end only at their own end tag, as in a browser. Waiting for an end tag that never comes
would hide the rest of the page.

Every step costs a constant time (amortized) however deep a hostile page nests elements.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

# Page furniture and invisible content: never indexed. ``nav`` and ``footer`` repeat on every
# page of a site ("Home Pricing …"), so indexing them makes them answers to every question.
_HIDDEN_TAGS = frozenset(
    ("script", "style", "template", "noscript", "svg", "iframe", "object", "nav", "footer")
)
# ``hidden`` / aria-hidden="true" hide an element up to its end tag. A void element has no
# content to hide. One whose end tag may be left out (<p hidden>text<p>next) is hidden up to
# where a browser ends it (:data:`_IMPLIED_END`): waiting for an end tag that never comes
# would hide the rest of the page.
_VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()  # noqa: SIM905
)
_OPTIONAL_END = frozenset(
    """
    p li dt dd tr td th thead tbody tfoot colgroup caption option optgroup rb rt rp
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_P_CLOSERS = frozenset(
    """
    address article aside blockquote details dialog div dl fieldset figcaption figure footer
    form h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre search section table ul
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_CELL_CLOSERS = frozenset(("td", "th", "tr", "tbody", "thead", "tfoot"))
_TABLE_PARTS = frozenset(("table", "tbody", "thead", "tfoot"))
_BLOCK_ENDS = frozenset(("body", "html", "td", "th", "li", "dd", "button")) | _P_CLOSERS
# For an element whose end tag may be left out (HTML's optional-tag rules): the start tags
# that end it, the end tags of the elements around it that end it too, and the elements that,
# open inside it, keep the first from ending it (a nested list's <li>).
_IMPLIED_END: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "p": (_P_CLOSERS, _BLOCK_ENDS, frozenset()),
    "li": (
        frozenset(("li",)),
        frozenset(("ul", "ol", "menu")) | _BLOCK_ENDS,
        frozenset(("ul", "ol", "menu")),
    ),
    "dt": (frozenset(("dt", "dd")), frozenset(("dl",)) | _BLOCK_ENDS, frozenset(("dl",))),
    "dd": (frozenset(("dt", "dd")), frozenset(("dl",)) | _BLOCK_ENDS, frozenset(("dl",))),
    "tr": (frozenset(("tr", "tbody", "thead", "tfoot")), _TABLE_PARTS, frozenset(("table",))),
    "td": (_CELL_CLOSERS, _TABLE_PARTS | {"tr"}, frozenset(("table",))),
    "th": (_CELL_CLOSERS, _TABLE_PARTS | {"tr"}, frozenset(("table",))),
    "thead": (_TABLE_PARTS - {"table"}, _TABLE_PARTS | _BLOCK_ENDS, frozenset(("table",))),
    "tbody": (_TABLE_PARTS - {"table"}, _TABLE_PARTS | _BLOCK_ENDS, frozenset(("table",))),
    "tfoot": (_TABLE_PARTS - {"table"}, _TABLE_PARTS | _BLOCK_ENDS, frozenset(("table",))),
    "option": (
        frozenset(("option", "optgroup")),
        frozenset(("select", "datalist", "optgroup")) | _BLOCK_ENDS,
        frozenset(),
    ),
}
_OTHER_IMPLIED_END = (
    frozenset[str](),
    _BLOCK_ENDS | _TABLE_PARTS | {"tr", "select", "datalist", "ruby"},
    frozenset[str](),
)
# The ARIA roles of <nav> and <footer>, and of a search box: Sphinx's default theme writes its
# sidebar (every page's table of contents) as <div role="navigation">.
_FURNITURE_ROLES = frozenset(("navigation", "contentinfo", "search"))

# Elements that an end tag of an element around them never ends: their content is raw text
# (a browser reads no tags in it) or they are a boundary of every scope (HTML's "has an
# element in scope" stops at them), so such an end tag is ignored while they are open.
_OWN_END_ONLY = frozenset(
    """
    script style template noscript iframe object applet marquee textarea xmp noembed noframes
    title table caption td th html
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# End tags that pop the elements open above theirs (HTML's "in body" rules for these, and
# the table's); any other end tag (</span>, </b>) stops at a "special" element like <nav>.
_CLOSES_AROUND = frozenset(
    """
    address article aside blockquote button center details dialog dir div dl fieldset
    figcaption figure footer form header hgroup listing main menu nav ol pre search section
    summary ul p li dd dt applet marquee object td th tr tbody thead tfoot table caption
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# HTML's scopes: an end tag ends an element only up to the nearest of these open above it.
_DEFAULT_SCOPE = frozenset(
    "applet caption html table td th marquee object template".split()  # noqa: SIM905
)
_TABLE_SCOPE = frozenset(("html", "table", "template"))
_SCOPES: dict[str, frozenset[str]] = {
    "li": _DEFAULT_SCOPE | {"ol", "ul"},
    "p": _DEFAULT_SCOPE | {"button"},
    **dict.fromkeys(
        ("td", "th", "tr", "tbody", "thead", "tfoot", "table", "caption"), _TABLE_SCOPE
    ),
}
_ALL_SCOPES = (_DEFAULT_SCOPE, _TABLE_SCOPE, *_SCOPES.values())


def _scope(tag: str) -> frozenset[str]:
    return _SCOPES.get(tag, _DEFAULT_SCOPE)


def hides(tag: str, values: dict[str, str]) -> bool:
    """Whether a starting ``tag`` with attributes ``values`` is hidden or page furniture
    (a sidebar or banner found by its place in the page is :mod:`html_chrome`'s)."""
    if tag in _HIDDEN_TAGS:
        return True
    if tag in _VOID:
        return False
    if values.get("role", "").strip().lower() in _FURNITURE_ROLES:
        return True
    return "hidden" in values or values.get("aria-hidden", "").strip().lower() == "true"


def is_void(tag: str) -> bool:
    """``tag`` has no content and no end tag (``<br>``, ``<img>``)."""
    return tag in _VOID


def has_optional_end(tag: str) -> bool:
    """``tag``'s end tag may be left out (``<p>``, ``<li>``, ``<td>``)."""
    return tag in _OPTIONAL_END


class _OpenTags:
    """The elements open inside a hidden element: a stack, with counts, so that asking
    whether one is open stays cheap however deep a hostile page nests."""

    def __init__(self) -> None:
        self._stack: list[str] = []
        self._counts: Counter[str] = Counter()

    def push(self, tag: str) -> None:
        self._stack.append(tag)
        self._counts[tag] += 1

    def holds(self, tag: str) -> bool:
        return self._counts[tag] > 0

    def holds_any(self, tags: frozenset[str]) -> bool:
        return any(self._counts[tag] for tag in tags)

    def close(self, tag: str) -> None:
        """End ``tag`` (open) and the elements opened inside it and left open."""
        while self._stack:
            last = self._stack.pop()
            self._counts[last] -= 1
            if last == tag:
                return


class OpenElements:
    """The visible elements open around the parser's position, as HTML's stack of open
    elements, for asking whether an end tag ends one of them (:meth:`in_scope`) in constant
    time: the positions of each tag's open elements and of each scope's boundaries."""

    def __init__(self) -> None:
        self._stack: list[str] = []
        self._at: dict[str, list[int]] = {}  # where each tag's open elements are
        self._fences: dict[frozenset[str], list[int]] = {scope: [] for scope in _ALL_SCOPES}

    def push(self, tag: str) -> None:
        """Record an element that opens (not a void one)."""
        position = len(self._stack)
        self._stack.append(tag)
        self._at.setdefault(tag, []).append(position)
        for scope, fences in self._fences.items():
            if tag in scope:
                fences.append(position)

    def in_scope(self, tag: str) -> bool:
        """Whether an end tag ``tag`` ends an open element (one open, and no boundary of its
        scope opened after it; the element may be a boundary itself, a <td>)."""
        positions = self._at.get(tag)
        if not positions:
            return False
        fences = self._fences[_scope(tag)]
        return not fences or positions[-1] >= fences[-1]

    def close(self, tag: str) -> None:
        """Record an end tag: ``tag``'s element ends with those opened in it and left open;
        a stray one (not :meth:`in_scope`) is ignored, as a browser ignores it."""
        if not self.in_scope(tag):
            return
        while self._stack:
            last = self._stack.pop()
            position = len(self._stack)
            self._at[last].pop()
            for fences in self._fences.values():
                if fences and fences[-1] == position:
                    fences.pop()
            if last == tag:
                return


EndOfHidden = Literal["hiding", "ended", "around"]
"""What an end tag does to a hidden element: nothing (``hiding``), it is the element's own
end (``ended``), or it ends an element open around it and the hidden one with it (``around``:
the end tag is then read as the end of that visible element)."""


class Hidden:
    """A hidden element being skipped: its tag and the elements opened inside it."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self._inside = _OpenTags()

    def ends_at_start(self, tag: str) -> bool:
        """Whether a starting ``tag`` ends the hidden element (``<p hidden>a<p>b``: the second
        paragraph is shown); else it is recorded as opened inside it."""
        if self.tag in _OPTIONAL_END:
            closers, _, shields = _IMPLIED_END.get(self.tag, _OTHER_IMPLIED_END)
            if tag in closers and not self._inside.holds_any(shields):
                return True
        if tag not in _VOID:
            self._inside.push(tag)
        return False

    def end(self, tag: str, around: OpenElements) -> EndOfHidden:
        """What an end ``tag`` does, ``around`` being the visible elements open around."""
        if self._inside.holds(tag):  # an element inside the hidden one ends
            self._inside.close(tag)
            return "hiding"
        if tag == self.tag:
            return "ended"
        if self.tag in _OPTIONAL_END:
            # </ul> after <li hidden>: the end of an element around it ends it too
            implied = _IMPLIED_END.get(self.tag, _OTHER_IMPLIED_END)[1]
            return "around" if tag in implied else "hiding"
        if tag not in _CLOSES_AROUND or self.tag in _OWN_END_ONLY or not around.in_scope(tag):
            return "hiding"
        # a scope boundary open inside (<nav><table><td>x</div>) keeps it from ending
        return "hiding" if self._inside.holds_any(_scope(tag)) else "around"
