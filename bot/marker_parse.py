"""Parsers for one citation marker in square brackets at a known position (DESIGN §5).

Each parser looks at ``buf[i:]`` and answers with a :class:`Hit` (a marker, or a span to keep
verbatim), ``None`` (not a marker: the first character is plain text) or :data:`NEED` (the text
so far could still become a marker; wait for more). ``NEED`` is only ever answered when
``final`` is false and the candidate is shorter than its family's bound, so a stream never holds
back more than a bounded tail, and a decision taken on a prefix is the decision taken on the
whole text: that is what makes streaming and batch resolution agree for every split.

Every pattern here is applied to a bounded slice, so no input can make them backtrack for long.
The types they answer with are in ``bot.marker_types`` (re-exported here); the families that
open with no square bracket (tags, CJK brackets, private-use markers) are ``bot.marker_parse_tags``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from bot.marker_numbers import MAX_DIGITS as MAX_DIGITS
from bot.marker_numbers import MAX_RANGE as MAX_RANGE
from bot.marker_numbers import NUM_LIST as NUM_LIST
from bot.marker_numbers import WORDS as WORDS
from bot.marker_numbers import bare_numbers_ok as bare_numbers_ok
from bot.marker_numbers import expand_numbers as expand_numbers
from bot.marker_types import NEED as NEED
from bot.marker_types import STRAY as STRAY
from bot.marker_types import Family as Family
from bot.marker_types import Hit as Hit
from bot.marker_types import Marker as Marker
from bot.marker_types import Parsed as Parsed
from bot.marker_word_lists import bracket_style

MAX_BRACKET = 64
MAX_URL = 2048
MAX_RECORD = 400

_WORD_NUMS = re.compile(
    rf"[ \t]*(?:(?P<word>{WORDS})[ \t]*[:#.]?[ \t]*)?(?P<nums>{NUM_LIST})[ \t]*", re.IGNORECASE
)
_FOOT_NUMS = re.compile(rf"\^[ \t]*(?P<nums>{NUM_LIST})[ \t]*\^?")
# "[citation needed]", "[Source N]", "[ref #]", and the bare words a model writes where a
# number belongs ("[citation]", "[source]"); not "[docs]" or "[references]", which are as likely
# the reader's text or a shortcut reference link (also read in a tag: bot.marker_parse_tags)
PLACEHOLDER_WORDS = re.compile(
    r"[ \t]*(?:(?:citations?|sources?|references?)[ \t]+(?:needed|required)|needs?[ \t]+"
    rf"(?:citation|source)|(?:{WORDS})"
    r"[ \t]*[:#.]?[ \t]*(?:n|N|x|X|#|\?+|\.\.\.|…|id|num|number)|citation|cite|source|ref)[ \t]*",
    re.IGNORECASE,
)
PLACEHOLDER_SYMBOL = re.compile(r"[ \t]*(?:n|N|#|\?+|\.\.\.|…)[ \t]*")
# "[2†source]": the ChatGPT dagger style of "【2†source】" written in square brackets
_DAGGER_BODY = re.compile(
    rf"[ \t]*(?:(?:{WORDS})[ \t]*[:#]?[ \t]*)?(?P<nums>{NUM_LIST})(?::\d+)*†(?P<label>[^\]\n]*)",
    re.IGNORECASE,
)
# the label of a link to a fragment of the answer's own page ("[2](#install)"): bare numbers
_FRAGMENT_LABEL = re.compile(rf"[ \t]*(?P<nums>{NUM_LIST})[ \t]*")
# "[REF]3[/REF]": the numbers and the closing bracket of a paired word, or a start of them
_PAIR_WORDS = re.compile(r"[ \t]*(?:ref|cite|citation|source)[ \t]*", re.IGNORECASE)
_PAIRED = re.compile(rf"[ \t]*(?P<nums>{NUM_LIST})[ \t]*\[/(?P<word>[A-Za-z]{{1,16}})\]")
_PAIRED_OPEN = re.compile(r"[ \t]*[\d \t,;&\-–—andAND]*(?:\[(?:/[A-Za-z]{0,16})?)?")
# what starts a marker family other than brackets: tags, CJK brackets, private-use markers
_LABEL_MARKER = re.compile("[<【\ue200]")
# A link destination, with balanced parentheses one level deep as CommonMark allows them
# ("https://en.wikipedia.org/wiki/Foo_(bar)"); _URL_OPEN: what may still grow into one.
# (possessive: a destination that does not close fails at once, never backtracking)
_URL = re.compile(r"\(((?:[^\s()<>]++|\([^\s()<>]*+\))++)\)")
_URL_OPEN = re.compile(r"\((?:[^\s()<>]++|\([^\s()<>]*+\))*+(?:\([^\s()<>]*+)?")
# Words in parentheses after "]" that CommonMark cannot read as a link's destination and title
# ("[2](source 1)": no title starts with "1"): the brackets before them are no link's text
# (no quotes: a title may start with one; words holding a marker are _MARKER_START's case)
_PLAIN = "[^\\s()<>\"'\\[\\]【】\ue200-\ue202]"
_NOT_A_LINK = re.compile(rf"\([ \t]*+{_PLAIN}++(?:[ \t]++{_PLAIN}++)++[ \t]*+\)")
# what may open a marker (bot.markers's _SPECIAL, less code, math and escapes, which are kept
# as written): in parentheses that are no link, text the resolver could change, so the brackets
# before them are read as alone whatever the change ("[1](x[9] l)" -> "[^1](x l)")
_MARKER_START = re.compile("[\\[<(^【\ue200-\ue202]")
# the words in parentheses, up to the first ")" (across line breaks: the resolver may join a
# line of removed markers to the one before, "[1](\n[n][2]" -> "[1]([^1]")
_PAREN_WORDS = re.compile(r"\([^)]*+")
_WORD_CHAR = re.compile(r"\w")


@dataclass(frozen=True)
class Grammar:
    """What the grammar needs to know about this turn (kept free of the registry type).

    ``bare_numbers``: bare groups like ``[7]`` are markers (the registry is not empty); a
    callable is asked each time a bare group (or a ``[1]: …`` line) is decided, so a registry
    that fills up during the turn counts from the moment it is not empty.
    ``is_known_url``: a linked number ``[1](url)`` is a marker only for a registry URL (but
    see ``model_cites``).
    ``is_known_number``: a parenthesised ``(Source 3)`` is a marker only when every number it
    names is a registry number (bot.marker_paren).
    ``key_word``: the token word of record keys (``[[source key="…"]]``).
    ``is_source_list``: decides whether a trailing model-written source list (its item lines)
    only repeats registry sources; None disables stripping.
    ``source_named``: the registry number of the one source a file-search dagger's label names
    by filename or title (``【4:0†handbook.md】``), or None (``bot.marker_dagger_labels``).
    ``model_cites``: the text comes from a model told to cite by number, so ``(Source 3)`` and
    ``<sup>3</sup>`` are markers whatever numbers they name, not only registry numbers (one
    naming no source is then dropped; ``bot.resolver_policy.ResolvePolicy.model_cites``), and
    a ``[[3]](url)`` whose URL no source has is the group ``[3]``, its URL dropped.
    """

    bare_numbers: bool | Callable[[], bool] = True
    is_known_url: Callable[[str], bool] = lambda url: False
    is_known_number: Callable[[int], bool] = lambda number: False
    key_word: str = "source"
    is_source_list: Callable[[list[str]], bool] | None = None
    model_cites: bool = False
    source_named: Callable[[str], int | None] = lambda label: None

    def bare_groups(self) -> bool:
        """Whether a bare bracket group decided now is a marker."""
        bare = self.bare_numbers
        return bare() if callable(bare) else bare

    def dagger_numbers(self, numbers: tuple[int, ...], label: str | None) -> tuple[int, ...]:
        """What a dagger marker with ``numbers`` and the ``label`` after its dagger cites: the
        source the label names, if it names one (the number may be a message index), else
        the numbers."""
        named = None if label is None else self.source_named(label)
        return numbers if named is None else (named,)


_VOCABULARY: Final = frozenset(WORDS.split("|")) | {"needed", "required", "needs", "n"}
_NUMERIC_PARTIAL = re.compile(r"[\d \t,;&\-–—?#.:…^andAND]*")
_LETTERS = re.compile(r"[A-Za-z]+")


def could_be_bracket_body(partial: str) -> bool:
    """Whether an unclosed bracket body could still become a marker (errs towards yes)."""
    body = partial.lstrip(" \t")
    if body.startswith("^"):
        body = body[1:]
    if "†" in body:  # "[2†source]": what comes before the dagger decides
        head = body.partition("†")[0]
        return bool(head.strip(" \t")) and could_be_bracket_body(head)
    letters = _LETTERS.match(body)
    if letters is None:
        return _NUMERIC_PARTIAL.fullmatch(body) is not None
    word = letters[0].lower()
    return any(known.startswith(word) or word.startswith(known) for known in _VOCABULARY)


def parse_bracket(buf: str, i: int, final: bool, grammar: Grammar, prev: str) -> Parsed:
    """``[...]`` families: bracket numbers, footnotes, bracket words, linked numbers, keys."""
    n = len(buf)
    if i + 1 >= n:
        return None if final else NEED
    if buf[i + 1] == "[":
        return _parse_double(buf, i, final, grammar, prev)
    close = buf.find("]", i + 1, i + MAX_BRACKET)
    if close < 0:
        tail = buf[i + 1 : i + MAX_BRACKET]
        if final or n - i >= MAX_BRACKET or "\n" in tail or "[" in tail:
            return None
        # whatever the body, it may still close as a link's text ("[install guide](url[1])"):
        # read as text at once, the destination's "[1]" would be read as a marker that the
        # whole text keeps inside its link
        return NEED
    body = buf[i + 1 : close]
    if "\n" in body or "[" in body:
        return None
    end = close + 1
    raw = buf[i:end]
    if body.startswith("^"):  # a footnote reference is never a link label
        m = _FOOT_NUMS.fullmatch(body)
        if m is None:
            return None
        # numbers too long or a range too wide still name no source: dropped, never shown raw
        numbers = expand_numbers(m["nums"])
        if not body.endswith("^"):
            # "[^2]^": the caret closes a "^[2]^"-style superscript, not the reader's text
            if end >= n and not final:
                return NEED
            if end < n and buf[end] == "^":
                end += 1
                raw = buf[i:end]
        return Hit(end, Marker("footnote", raw, i, numbers or ()))
    if end >= n and not final:
        return NEED  # a "(" may follow and make this a link
    if end < n and buf[end] == "(":
        linked = _parse_link(buf, i, end, final, grammar, body, prev)
        if linked is not None:
            return linked
        found = _bracket_body(buf, i, end, final, grammar, body, prev)
        if found is None:
            return None
        # no link: "[2](source 1)" is the group "[2]" and then the reader's parentheses, and
        # "[cite_start](Source 2)" the opener and a marker (the brackets are no link's text)
        plain = _plain_words(buf, end, final)
        return found if plain is True else plain
    return _bracket_body(buf, i, end, final, grammar, body, prev)


def _plain_words(buf: str, paren: int, final: bool) -> Parsed | Literal[True]:
    """Whether the brackets before the parentheses at ``buf[paren]`` (no link destination)
    are read as alone (True), may still be (NEED), or stay text (None, as ``[2](`` reads).

    Alone before plain words no link can hold (``[2](source 1)``), and before words holding
    what may open a marker (``[1](x[9] l)``): the resolver may drop or rewrite it, and the
    brackets kept as text would read as a marker once it is gone (``[1](x l)``); read as alone,
    they are a footnote whatever follows. Decided within MAX_BRACKET characters.
    """
    tail = buf[paren : paren + MAX_BRACKET]
    if _NOT_A_LINK.match(tail) is not None:
        return True
    words = _PAREN_WORDS.match(tail)
    end = len(tail) if words is None else words.end()
    if _MARKER_START.search(tail, 1, end) is not None:
        return True
    if final or len(tail) >= MAX_BRACKET or end < len(tail):
        return None
    return NEED


def _bracket_body(
    buf: str, i: int, end: int, final: bool, grammar: Grammar, body: str, prev: str
) -> Parsed:
    """The marker the bracket body ``body`` (``buf[i:end]``, no footnote and no link) is."""
    raw = buf[i:end]
    m = _WORD_NUMS.fullmatch(body)
    if m is not None:
        word = m["word"]
        if word is None and not (bare_numbers_ok(m["nums"]) and grammar.bare_groups()):
            return None
        numbers = expand_numbers(m["nums"])
        if numbers is None:
            # "[cite: 1234567890]" names no source: dropped; a bare "[2024-2099]" is text
            return Hit(end, Marker("word", raw, i)) if word else None
        return Hit(end, Marker("word" if word else "bracket", raw, i, numbers))
    dagger = _DAGGER_BODY.fullmatch(body)
    if dagger is not None:
        numbers = grammar.dagger_numbers(expand_numbers(dagger["nums"]) or (), dagger["label"])
        return Hit(end, Marker("word", raw, i, numbers))
    style = bracket_style(body, grammar.is_known_number)
    if style is not None:
        return Hit(end, Marker(style[0], raw, i, style[1]))
    if _PAIR_WORDS.fullmatch(body):
        paired = _parse_paired(buf, i, end, final, body)
        if paired is not None:
            return paired
    if PLACEHOLDER_WORDS.fullmatch(body) and not buf.startswith(":", end):
        # "[source]: url" defines a reference link: the reader's text, not a placeholder
        return Hit(end, Marker("word", raw, i, placeholder=True))
    if (
        PLACEHOLDER_SYMBOL.fullmatch(body)
        and not _WORD_CHAR.match(prev or " ")
        and grammar.bare_groups()
    ):
        return Hit(end, Marker("bracket", raw, i, placeholder=True))
    return None


def _parse_paired(buf: str, i: int, end: int, final: bool, word: str) -> Parsed:
    """Mistral's ``[REF]3[/REF]`` (``[REF]1,3[/REF]``): the numbers between a word's opening
    and closing brackets, one marker; without its closing bracket the opening one is no
    pair (None: a placeholder, as before), decided within MAX_BRACKET characters."""
    n = len(buf)
    limit = min(n, end + MAX_BRACKET)
    m = _PAIRED.match(buf, end, limit)
    if m is not None and m["word"].lower() == word.strip(" \t").lower():
        return Hit(m.end(), Marker("word", buf[i : m.end()], i, expand_numbers(m["nums"]) or ()))
    if not final and n < end + MAX_BRACKET and _PAIRED_OPEN.fullmatch(buf, end, n):
        return NEED
    return None


def _parse_link(
    buf: str, i: int, paren: int, final: bool, grammar: Grammar, body: str, prev: str
) -> Parsed:
    m = _URL.match(buf, paren, paren + MAX_URL + 2)
    if m is None:
        tail = buf[paren : paren + MAX_URL + 2]
        opening = _URL_OPEN.match(tail)
        if not final and len(tail) < MAX_URL + 2 and opening and opening.end() == len(tail):
            return NEED
        return None
    end = m.end()
    url = m[1]
    raw = buf[i:end]
    if url.startswith("#") and prev != "!":
        fragment = _number_label(raw, i, body, grammar)
        if fragment is not None:
            return Hit(end, fragment)
    known = prev != "!" and grammar.is_known_url(url)
    if not known and grammar.model_cites and body.startswith("["):
        # "[[1]](https://elsewhere)" from a model told to cite: every channel would show a
        # link labelled "[1]", exactly a citation's look, to a page no source has (a fake
        # citation, phishing-shaped when the page is an attacker's). The number is read as
        # the group "[1]": the source's citation with the source's own link, or dropped.
        # (An image, "![[1]](…)", too: the renderers show an image as a link to it.)
        group = _number_label(raw, i, body, grammar)
        if group is not None:
            return Hit(end, group)
    if not known:
        if _LABEL_MARKER.search(body) and not _LABEL_MARKER.search(url):
            # a tag marker in the link's text ("[the guide <citation>1</citation>](url)") is read
            # like any other: only the "[" is passed over, the destination holds none
            return Hit(i + 1, None)
        return Hit(end, None)
    inner = body[1:-1] if body.startswith("[") and body.endswith("]") else body
    words = _WORD_NUMS.fullmatch(inner)
    numbers = expand_numbers(words["nums"]) if words is not None else None
    if numbers is None:
        return Hit(end, None)  # a real link such as [the guide](url) stays as written
    return Hit(end, Marker("linked", raw, i, numbers, url=url))


def _number_label(raw: str, i: int, body: str, grammar: Grammar) -> Marker | None:
    """A link labelled with bare numbers, read as the bracket group ``[2]`` would be: the
    registry number the model saw. ``[2](#install)``: a same-page fragment cannot be a source;
    ``[[2]](https://elsewhere)`` in a model's answer (``Grammar.model_cites``): no source's URL.
    None when the label is no bare group (``[[2023]](…)``, ``[[0]](…)`` stay links)."""
    inner = body[1:-1] if body.startswith("[") and body.endswith("]") else body
    label = _FRAGMENT_LABEL.fullmatch(inner)
    if label is None or not bare_numbers_ok(label["nums"]) or not grammar.bare_groups():
        return None
    numbers = expand_numbers(label["nums"])
    return Marker("bracket", raw, i, numbers) if numbers else None


def _parse_double(buf: str, i: int, final: bool, grammar: Grammar, prev: str) -> Parsed:
    """``[[1]](url)`` linked numbers (``[[source key="…"]]`` is bot.marker_keys's)."""
    n = len(buf)
    if i + 2 < n and buf[i + 2].isdigit():
        close = buf.find("]", i + 2, i + MAX_BRACKET)
        if close < 0:
            tail = buf[i + 2 : i + MAX_BRACKET]
            if final or n - i >= MAX_BRACKET or "\n" in tail or "[" in tail:
                return None
            return NEED
        if "[" in buf[i + 2 : close] or "\n" in buf[i + 2 : close]:
            return None
        for offset, wanted in ((1, "]"), (2, "(")):
            if close + offset >= n:
                return None if final else NEED
            if buf[close + offset] != wanted:
                return None
        linked = _parse_link(buf, i, close + 2, final, grammar, buf[i + 1 : close + 1], prev)
        if linked is not None:
            return linked
        label = _FRAGMENT_LABEL.fullmatch(buf, i + 2, close) if grammar.model_cites else None
        if label is not None and bare_numbers_ok(label["nums"]):
            # no destination this grammar reads ("[[1]](https://x "title")", "[[1]]( x )",
            # "[[1]](<x>)"): "[[1]]" alone, as a doubled group, so the "[1]" never stays a
            # link's label; what follows stays text, its URL shown as written
            return None
        plain = _plain_words(buf, close + 2, final)
        if plain is True:
            return None  # "[[2]](source 1)": no link, so "[[2]]" is read as it is alone
        # "[[2]](" that is no link destination is text: its inner "[2]" is not a bare group
        return Hit(close + 2, None) if plain is None else plain
    # "[[" and a non-digit opens a record key: bot.marker_keys reads those, never this
    return None
