"""The Discourse renderer: a post in markdown with native footnotes.

Payload: ``{"raw": str, "uploads": [{n, path, filename, media_type, placeholder}]}``, plus
``"continued": [raw, ...]`` only when the answer does not fit one post. Citations are ``[^n]``
and every post defines each footnote it references, once, at its end:
``[^n]: [Title](url), p. 12, Section``. Titles are escaped so they cannot break the definition.

Fitting a post (``Capabilities.max_chars``; Discourse's default ``max_post_length`` is 32,000):
the definitions are compacted first (:data:`LEVELS`: the quote highlight leaves the link, titles
shorten, page/section and record columns go), never cut inside; only when the shortest
definitions still do not fit does the rest of the body move, at a block boundary, to the next
post. A block longer than a post is cut anyway: its first piece fills the room left in the post
before (with the definitions it needs), so posts are full rather than alternately full and
nearly empty. A link longer than a whole post can hold shows as its title alone. Sources shown
but not cited (``show: all``) are listed under "Other sources" after the body of the last post.

A post Discourse would count as shorter than ``Capabilities.min_chars`` (its ``min_post_length``,
20 by default: "No." is refused as "Body is too short") gets a note saying the answer is short.

Upload seam: a file to attach is written ``[name|attachment](citecast-upload://n)``; the
connector uploads ``path`` and replaces the entry's ``placeholder`` (that URL) in ``raw`` with
the ``upload://…`` short URL Discourse returned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from functools import cached_property, lru_cache
from typing import Any

from bot.markdown import CITATION_MARK, Token
from renderers.base import EMPTY_ANSWER, CitationForm, RenderContext
from renderers.document import Document, file_entry
from renderers.escaping import md_text, no_forum_mentions, visible
from renderers.limits import DISCOURSE_MAX_CHARS, first_piece, split_first, truncate
from renderers.markdown_writer import EntryLevel, MarkdownWriter, escape_text, masked_link

CHANNEL = "discourse"
UPLOAD_SCHEME = "citecast-upload://"
# A definition shows a source's title without its link only where the post could not hold the
# link: when the forum allows more replies in a row the connector lists the source, linked, in a
# post after it (bot.connectors.discourse_spill), so the reader sees this only when it cannot.
LINK_LEFT_OUT = " (link left out to fit the post)"
# the smallest piece a block is cut into to make room for its definitions
MIN_PIECE = 80
SHORT_NOTE = "*(A short answer; it cites no sources.)*"
SHORT_CITED_NOTE = "*(A short answer.)*"
# opens a continued post too short for the forum's minimum (the last few words of a long answer)
CONTINUED_NOTE = "*(Continued from the post above.)*"
# What Discourse's StrippedLengthValidator does not count in full: HTML comments (nothing), an
# :emoji: shortcode, a run of dots and a run of commas (one character each). Its patterns are
# Ruby's: "." stops at a line break (a comment over several lines counts) and \w is ASCII.
_UNCOUNTED = re.compile(r"<!--.*?-->")
_ONE_CHARACTER = re.compile(r":\w+(?::\w+)?:|\.{2,}|,{2,}", re.ASCII)
# what Ruby's String#strip removes (Python's str.strip also removes Unicode spaces)
_RUBY_WHITESPACE = " \t\n\v\f\r\0"


def forum_length(raw: str) -> int:
    """A post's length as Discourse checks it against ``min_post_length``."""
    return len(_ONE_CHARACTER.sub("x", _UNCOUNTED.sub("", raw)).strip(_RUBY_WHITESPACE))


def placeholder(n: int) -> str:
    """The URL a file upload's link carries until the connector substitutes ``upload://``."""
    return f"{UPLOAD_SCHEME}{n}"


class DiscourseBlocks:
    """Block step of the Discourse renderer."""

    def __init__(
        self,
        forms: Mapping[int, CitationForm],
        footnotes: bool,
        max_chars: int = DISCOURSE_MAX_CHARS,
    ):
        self._forms = forms
        self._footnotes = footnotes
        # a link in the text longer than half a post shows its text alone: no cut falls inside
        # a link, so under a post limit smaller than the forum's default (max_post_length: 300)
        # a longer one was cut across posts as broken link syntax
        self._writer = MarkdownWriter("discourse", self.cite, longest_link=max_chars // 2)

    def cite(self, n: int) -> str:
        """``[^n]``, or ``\\[n\\]`` with sources hidden (``\\[n?\\]`` when weakly supported).

        A weak footnote is marked in its definition ("weak support?"), which Discourse shows at
        the foot of the post and in the reference's pop-up: a "?" written after the reference
        stays outside the superscript the forum draws and reads as the sentence's own question
        mark ("… QUIC.²?", "QUIC²?.").
        """
        form = self._forms.get(n)
        if form is None:
            return ""
        if self._footnotes:
            return f"[^{n}]"
        return f"\\[{n}?\\]" if form.weak else f"\\[{n}\\]"

    def __call__(self, token: Token) -> str:
        return self._writer.block(token)


def block_renderer(
    forms: Mapping[int, CitationForm], context: RenderContext, seed: str
) -> DiscourseBlocks:
    """The block step: footnote references unless sources are hidden (``show: none``)."""
    return DiscourseBlocks(forms, context.show != "none", context.caps(CHANNEL).max_chars)


# richest first; every level keeps every link, so a source stays one click away
LEVELS = (
    EntryLevel(title=300, detail=200, columns=300, highlight=True),
    EntryLevel(title=120, detail=100, columns=120, highlight=False),
    EntryLevel(title=60, detail=0, columns=0, highlight=False),
    EntryLevel(title=30, detail=0, columns=0, highlight=False),
)
SHORTEST = LEVELS[-1]


def _text(value: str, limit: int) -> str:
    return no_forum_mentions(md_text(truncate(value, limit)))


@lru_cache(maxsize=4096)  # fitting a post measures the same definitions several times
def definition_body(form: CitationForm, level: EntryLevel = LEVELS[0], link: bool = True) -> str:
    """The text of a footnote definition (one line, never cut inside a link).

    ``link=False`` is for a link the post has no room for: the title shows alone, noted as such
    (an upload placeholder is short and always kept).
    """
    title = _text(form.title, level.title)
    url = level.url(form.url) if form.url else None
    if form.kind in ("link", "download") and url:
        head = masked_link(title, url, "discourse") if link else title + LINK_LEFT_OUT
    elif form.kind == "attachment":
        name = _text(form.filename or form.title, level.title)
        head = f"[{name}|attachment]({placeholder(form.n)})"
        if form.title != form.filename:
            head = f"{title}: {head}"
    elif form.kind == "name" and form.filename and form.filename != form.title:
        head = f"{title} ({_text(form.filename, level.title)})"
    else:
        head = title
    parts = [head]
    if form.detail and level.detail:
        parts.append(_text(form.detail, level.detail))
    record = form.record
    if record and record.columns and level.columns:
        columns = "; ".join(f"{k}: {v}" for k, v in record.columns)
        parts.append(_text(columns, level.columns))
    if record and record.action and link:
        label = _text(record.action.label, min(level.title, 80))
        parts.append(masked_link(label, record.action.url, "discourse"))
    if form.weak:
        parts.append("weak support?")
    return ", ".join(parts)


def _link_length(form: CitationForm) -> int:
    action = form.record.action.url if form.record and form.record.action else ""
    return len(form.url or "") + len(action)


class PostFitter:
    """Splits the body into posts of at most ``limit`` characters, each defining every footnote
    it references."""

    def __init__(self, listed: tuple[CitationForm, ...], limit: int):
        self._forms = {form.n: form for form in listed}
        self._limit = limit

    def posts(self, blocks: list[str]) -> list[str]:
        """The raw posts: blocks in order, as many per post as fit with their definitions at
        the shortest level; then each post gets the richest definitions that fit."""
        whole = "\n\n".join(blocks)
        raw = self._raw(whole, self._referenced_forms(whole), LEVELS[0], frozenset())
        if len(raw) <= self._limit:  # the usual answer: one post, nothing to measure
            return [raw] if blocks else []
        groups: list[list[str]] = []
        length, numbers = 0, set[int]()
        for block in blocks:
            rest, cut = block, False
            while visible(rest):
                # a rest longer than a post is not searched for its references (that would
                # search a long block's text again for each of its pieces)
                refs = self._referenced(rest) if len(rest) <= self._limit else set()
                size = self._size(length + 2 + len(rest), numbers | refs)
                if groups and not cut and size <= self._limit:
                    groups[-1].append(rest)
                    length, numbers = length + 2 + len(rest), numbers | refs
                    break
                if len(rest) <= self._limit and self._size(len(rest), refs) <= self._limit:
                    groups.append([rest])  # greedy by block: a block a post holds moves whole
                    length, numbers = len(rest), refs
                    break
                # A block no post holds is cut anyway: its first piece fills the room left in
                # this post (with its definitions) rather than the post ending short and the
                # block's last piece standing alone in the next one. Two pieces of one block
                # never share a post (they would read as two paragraphs).
                piece = ""
                if groups and not cut:
                    piece, rest = self._cut(rest, length, numbers, clean=True)
                if piece:
                    groups[-1].append(piece)
                else:
                    piece, rest = self._cut(rest, -2, set(), clean=False)
                    if not visible(piece):  # only spaces or quote marks: nothing to post
                        continue
                    groups.append([piece])
                    length, numbers = -2, set()
                length, numbers = length + 2 + len(piece), numbers | self._referenced(piece)
                cut = True
        return [self._post("\n\n".join(pieces)) for pieces in groups]

    @cached_property
    def _linkless(self) -> frozenset[int]:
        # a definition may take at most half a post: a link longer than that shows as its
        # title from the start, rather than pushing the text around it into post after post
        half = self._limit // 2
        return frozenset(
            n for n, form in self._forms.items() if len(definition_body(form, SHORTEST)) + 10 > half
        )

    @cached_property
    def _shortest(self) -> dict[int, int]:
        # each definition line at the shortest level, measured once: posts are filled by size
        forms = list(self._forms.values())
        lines = self._lines(forms, SHORTEST, self._linkless)
        return {form.n: len(line) for form, line in zip(forms, lines, strict=True)}

    def _referenced(self, body: str) -> set[int]:
        # footnote references as the writer emits them: answer text that looks like one is
        # escaped, and one inside code gets a definition it does not need, which is harmless
        return {int(n) for n in CITATION_MARK.findall(body)} & self._forms.keys()

    def _size(self, body_length: int, numbers: set[int]) -> int:
        if not numbers:
            return body_length
        return body_length + 1 + sum(self._shortest[n] + 1 for n in numbers)

    def _cut(self, text: str, length: int, numbers: set[int], clean: bool) -> tuple[str, str]:
        """The largest first piece of ``text`` that fits, with its definitions, in a post whose
        body is ``length`` characters (-2 for a new post) and cites ``numbers``, and the rest:
        cut at the whole room when that fits, else at the size found by bisection.

        ``clean`` (filling a post): ``("", text)`` when no piece of :data:`MIN_PIECE` or more
        fits at a line, sentence or space. A new post always gets a piece, however small.
        """
        room = self._limit - length - 2 - self._size(0, numbers)
        if room >= MIN_PIECE and self._piece_fits(text, room, length, numbers, clean):
            return split_first(text, room, clean)
        best = 0
        low, high = MIN_PIECE, room - 1
        while low <= high:
            mid = (low + high) // 2
            if self._piece_fits(text, mid, length, numbers, clean):
                best, low = mid, mid + 1
            else:
                high = mid - 1
        if best:
            return split_first(text, best, clean)
        return ("", text) if clean else split_first(text, MIN_PIECE, clean=False)

    def _piece_fits(
        self, text: str, size: int, length: int, numbers: set[int], clean: bool
    ) -> bool:
        """Whether the piece cut at ``size`` fits with its definitions (and there is one)."""
        piece = first_piece(text, size, clean)
        total = self._size(length + 2 + len(piece), numbers | self._referenced(piece))
        return bool(piece) and total <= self._limit

    def _post(self, body: str) -> str:
        """``body`` and the richest definitions that fit.

        Past the shortest level (very many footnotes under a small limit), the longest links
        give way to their titles, one at a time.
        """
        forms = self._referenced_forms(body)
        for level in LEVELS:
            raw = self._raw(body, forms, level, self._linkless)
            if len(raw) <= self._limit:
                return raw
        linkless = set(self._linkless)
        for form in sorted(forms, key=_link_length, reverse=True):
            linkless.add(form.n)
            raw = self._raw(body, forms, SHORTEST, linkless)
            if len(raw) <= self._limit:
                break
        return raw  # over the limit only when the limit cannot hold a minimal piece at all

    def _referenced_forms(self, body: str) -> list[CitationForm]:
        return [self._forms[n] for n in sorted(self._referenced(body))]

    def _raw(
        self, body: str, forms: list[CitationForm], level: EntryLevel, linkless: Set[int]
    ) -> str:
        lines = self._lines(forms, level, linkless)
        return f"{body}\n\n" + "\n".join(lines) if lines else body

    @staticmethod
    def _lines(forms: list[CitationForm], level: EntryLevel, linkless: Set[int]) -> list[str]:
        return [f"[^{f.n}]: {definition_body(f, level, f.n not in linkless)}" for f in forms]


def other_sources(forms: list[CitationForm], budget: int) -> str:
    """The "Other sources" list (shown, not cited): one whole entry a line, each within
    ``budget`` characters (compacted, or without its link, when one is longer)."""
    lines = ["**Other sources**"]
    for form in forms:
        prefix = f"- \\[{form.n}\\] "
        entries = [definition_body(form, level) for level in LEVELS]
        entries.append(definition_body(form, SHORTEST, link=False))
        lines.append(prefix + next((e for e in entries if len(prefix + e) <= budget), entries[-1]))
    return "\n".join(lines)


def assemble(fragments: list[str], doc: Document) -> dict[str, Any]:
    """The Discourse payload from rendered blocks."""
    limit = doc.caps.max_chars
    blocks = [fragment for fragment in fragments if visible(fragment)]
    others = [form for form in doc.entries if form.n not in doc.cited]
    if others:
        # in the body, not after the definitions: a line after "[^n]: …" would continue it
        blocks.append(other_sources(others, limit // 2))
    blocks = blocks or [EMPTY_ANSWER]
    raws = PostFitter(doc.entries, limit).posts(blocks)
    if len(raws) == 1 and forum_length(raws[0]) < doc.caps.min_chars:
        blocks.append(SHORT_CITED_NOTE if doc.cited else SHORT_NOTE)
        raws = PostFitter(doc.entries, limit).posts(blocks)
    # A continued post holds what did not fit the one before: it can be a last "Ok." that the
    # forum would refuse as too short, losing the end of the answer.
    raws[1:] = [_long_enough(raw, doc.caps.min_chars, limit) for raw in raws[1:]]
    # one upload entry per citation of a file, since each footnote has its own placeholder; the
    # connector uploads a file once however many entries name it
    uploads = [{**file_entry(f), "placeholder": placeholder(f.n)} for f in doc.attachments]
    payload: dict[str, Any] = {"raw": raws[0], "uploads": uploads}
    if len(raws) > 1:
        payload["continued"] = raws[1:]
    return payload


def _long_enough(raw: str, min_chars: int, limit: int) -> str:
    noted = f"{CONTINUED_NOTE}\n\n{raw}"
    if forum_length(raw) >= min_chars or len(noted) > limit:
        return raw
    return noted


__all__ = ["assemble", "block_renderer", "escape_text", "forum_length", "placeholder"]
