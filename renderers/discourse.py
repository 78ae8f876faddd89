"""The Discourse renderer: a post in markdown with native footnotes.

Payload: ``{"raw": str, "uploads": [{n, path, filename, media_type, placeholder}]}``, plus
``"continued": [raw, ...]`` only when the answer does not fit one post. Citations are ``[^n]``
and every post defines each footnote it references, once, at its end:
``[^n]: [Title](url), p. 12, Section``. Titles are escaped so they cannot break the definition.
The forum numbers a post's footnotes 1, 2, … by first reference in that post, whatever their
labels: a definition it shows under another number than ``n`` begins with ``\\[n\\]``
(``renderers.discourse_numbers``), so a continued post's ``[^13]``, shown as [1], still reads 13.
A forum without the footnote plugin (``Capabilities.footnotes`` false) gets ``\\[n\\]`` markers and
a numbered "Sources" list after the body instead; with ``masked_links`` false each link is its
title, then the bare ``<url>``.

Fitting posts (``Capabilities.max_chars``; Discourse's default ``max_post_length`` is 32,000) is
``renderers.discourse_fit``: the body moves, at a block boundary, to a further post where one is
allowed before definitions are compacted (``renderers.discourse_definitions``). A link longer
than a whole post can hold shows as its title alone. Sources shown but not cited (``show: all``)
are listed under "Other sources" after the body of the last post.

A post Discourse would count as shorter than ``Capabilities.min_chars`` (its ``min_post_length``,
20 by default: "No." is refused as "Body is too short") gets a note saying the answer is short.

Upload seam: a file to attach is written ``[name|attachment](citecast-upload://n)``; the
connector uploads ``path`` and replaces the entry's ``placeholder`` (that URL) in ``raw`` with
the ``upload://…`` short URL Discourse returned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.errors import RenderError
from bot.markdown import Token, parse
from bot.models import Answer
from renderers.base import EMPTY_ANSWER, CitationForm, RenderContext
from renderers.capabilities import LinkStyle, link_style
from renderers.discourse_definitions import (
    LEVELS,
    LINK_LEFT_OUT,
    SHORTEST,
    UPLOAD_SCHEME,
    definition_body,
    placeholder,
    shorter_definitions,
)
from renderers.discourse_fit import PostFitter, PostFitting
from renderers.discourse_spill import spill_posts
from renderers.document import Document, cited_numbers, decide_forms, file_entry, seed
from renderers.escaping import visible
from renderers.limits import DISCOURSE_MAX_CHARS
from renderers.markdown_links import escape_text
from renderers.markdown_writer import MarkdownWriter
from renderers.packing import pack

CHANNEL = "discourse"
SHORT_NOTE = "*(A short answer; it cites no sources.)*"
SHORT_CITED_NOTE = "*(A short answer.)*"
# opens a continued post too short for the forum's minimum (the last few words of a long answer)
CONTINUED_NOTE = "*(Continued from the post above.)*"
CONTINUES_NOTE = "*(The answer goes on in the next post.)*"
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


class DiscourseBlocks:
    """Block step of the Discourse renderer."""

    def __init__(
        self,
        forms: Mapping[int, CitationForm],
        footnotes: bool,
        max_chars: int = DISCOURSE_MAX_CHARS,
        links: LinkStyle = "masked",
    ):
        self._forms = forms
        self._footnotes = footnotes
        # a link in the text longer than half a post shows its text alone: no cut falls inside
        # a link, so under a post limit smaller than the forum's default (max_post_length: 300)
        # a longer one was cut across posts as broken link syntax
        self._writer = MarkdownWriter(
            "discourse", self.cite, longest_link=max_chars // 2, forms=forms, links=links
        )

    def cite(self, n: int) -> str:
        """``[^n]``, or ``\\[n\\]`` with sources hidden or without footnotes (``\\[n?\\]`` when
        weakly supported).

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
    """The block step: footnote references unless sources are hidden (``show: none``) or the
    forum has no footnotes (``footnotes: false``: ``\\[n\\]`` and a numbered source list)."""
    caps = context.caps(CHANNEL)
    footnotes = context.show != "none" and caps.footnotes
    return DiscourseBlocks(forms, footnotes, caps.max_chars, link_style(caps))


def other_sources(
    forms: list[CitationForm], budget: int, masked: bool = True, heading: str = "Other sources"
) -> str:
    """The "Other sources" list (shown, not cited): one whole entry a line, each within
    ``budget`` characters (compacted, or without its link, when one is longer)."""
    return "\n".join([f"**{heading}**", *_source_list_lines(forms, budget, masked)])


def _source_list_lines(forms: list[CitationForm], budget: int, masked: bool) -> list[str]:
    lines = []
    for form in forms:
        prefix = f"- \\[{form.n}\\] "
        entries = [definition_body(form, level, masked=masked) for level in LEVELS]
        entries.append(definition_body(form, SHORTEST, link=False))
        lines.append(prefix + next((e for e in entries if len(prefix + e) <= budget), entries[-1]))
    return lines


def source_list(forms: tuple[CitationForm, ...], limit: int, masked: bool) -> list[str]:
    """``footnotes: false``: every listed source under "Sources", one whole entry a line of at
    most half a post, in blocks of at most half a post (a list longer than a post goes on in
    the next, never cut inside an entry)."""
    if not forms:
        return []
    lines = _source_list_lines(list(forms), limit // 2, masked)
    return pack(["**Sources**", *lines], limit // 2, sep="\n")


def render_posts(answer: Answer, context: RenderContext, max_posts: int | None) -> dict[str, Any]:
    """``render("discourse", answer, context)`` for a forum that takes ``max_posts`` replies in
    a row (0: any number): a long answer may take up to that many posts to keep its richest
    footnote definitions, and a sentence of up to half a post is never cut to make room for its
    definitions: a post may then be over the limit by definitions, which the connector moves to
    the posts after it (``renderers.discourse_fit.PostFitter``). The connector's entry."""
    tokens = parse(answer.text)
    caps = context.caps(CHANNEL)
    forms = decide_forms(answer.citations, caps, context)
    answer_seed = seed(answer.text, context)
    step = block_renderer(forms, context, answer_seed)
    fragments = [step(token) for token in tokens]
    doc = Document(answer, caps, context, forms, tuple(cited_numbers(tokens)), answer_seed)
    return assemble(fragments, doc, PostFitting(max_posts, whole_sentences=True))


def definition_choices(answer: Answer, context: RenderContext) -> dict[int, list[str]]:
    """Each listed footnote's definitions after its fullest, richest first (shorter titles with
    the link, then the title alone): what the connector lists a source with when its fullest
    definition is too long for a post (``renderers.discourse_spill``)."""
    caps = context.caps(CHANNEL)
    if not caps.footnotes:
        return {}  # no definitions: the sources are a list in the body
    forms = decide_forms(answer.citations, caps, context)
    cited = tuple(cited_numbers(parse(answer.text)))
    doc = Document(answer, caps, context, forms, cited, seed(answer.text, context))
    return {form.n: shorter_definitions(form, caps.masked_links) for form in doc.entries}


def assemble(
    fragments: list[str], doc: Document, fitting: PostFitting | None = None
) -> dict[str, Any]:
    """The Discourse payload from rendered blocks (``fitting``: see :func:`render_posts`;
    ``render`` fits the posts by itself: no more posts than the shortest definitions need,
    every post within the limit)."""
    fit = fitting or PostFitting()
    limit, masked, footnotes = doc.caps.max_chars, doc.caps.masked_links, doc.caps.footnotes
    blocks = [fragment for fragment in fragments if visible(fragment)]
    body_end = len(blocks) or 1
    others = [form for form in doc.entries if form.n not in doc.cited]
    if not footnotes:
        blocks += source_list(doc.entries, limit, masked)
    elif others:
        # in the body, not after the definitions: a line after "[^n]: …" would continue it
        blocks.append(other_sources(others, limit // 2, masked))
    blocks = blocks or [EMPTY_ANSWER]
    defined = doc.entries if footnotes else ()
    fitter = PostFitter(defined, limit, fit.max_posts, fit.whole_sentences, masked)
    raws = fitter.posts(blocks)
    if forum_length(raws[0]) < doc.caps.min_chars and (len(raws) == 1 or not footnotes):
        # without footnotes the source list may begin the next post: the note follows the body
        note = SHORT_CITED_NOTE if doc.cited else SHORT_NOTE
        blocks.insert(len(blocks) if footnotes else body_end, note)
        raws = PostFitter(defined, limit, fit.max_posts, fit.whole_sentences, masked).posts(blocks)
    if fitting is None and footnotes:
        raws = _within_limit(raws, doc, limit)
    # A continued post holds what did not fit the one before: it can be a last "Ok." that the
    # forum would refuse as too short, losing the end of the answer.
    raws[1:] = [_long_enough(raw, doc.caps.min_chars, limit) for raw in raws[1:]]
    if len(raws) > 1:
        # so can a first post, when the block after it fits only a post of its own ("Ok."
        # before a long code block): its note says the answer goes on
        raws[0] = _long_enough(raws[0], doc.caps.min_chars, limit, first=True)
    # one upload entry per citation of a file, since each footnote has its own placeholder; the
    # connector uploads a file once however many entries name it
    uploads = [{**file_entry(f), "placeholder": placeholder(f.n)} for f in doc.attachments]
    payload: dict[str, Any] = {"raw": raws[0], "uploads": uploads}
    if len(raws) > 1:
        payload["continued"] = raws[1:]
    return payload


def _within_limit(raws: list[str], doc: Document, limit: int) -> list[str]:
    """Rendering alone: a post whose sentence cannot hold its definitions even at their
    shortest keeps those that fit and lists the other sources after it, as the connector does
    (``renderers.discourse_spill``), each with its link where a post holds it; unchanged when
    even the body is longer than ``limit`` (a limit too small for any sentence)."""
    if all(len(raw) <= limit for raw in raws):
        return raws
    masked = doc.caps.masked_links
    rich = {form.n: definition_body(form, masked=masked) for form in doc.entries}
    shorter = {form.n: shorter_definitions(form, masked) for form in doc.entries}
    try:
        return spill_posts(raws, limit, rich, shorter=shorter)
    except RenderError:
        return raws


def _long_enough(raw: str, min_chars: int, limit: int, *, first: bool = False) -> str:
    """``raw``, or, when the forum would refuse it as shorter than ``min_chars``, with a note
    that it is continued from the post above (or, the ``first``, goes on in the next one)."""
    noted = f"{raw}\n\n{CONTINUES_NOTE}" if first else f"{CONTINUED_NOTE}\n\n{raw}"
    if forum_length(raw) >= min_chars or len(noted) > limit:
        return raw
    return noted


__all__ = [
    "LINK_LEFT_OUT",
    "SHORTEST",
    "UPLOAD_SCHEME",
    "assemble",
    "block_renderer",
    "definition_body",
    "escape_text",
    "forum_length",
    "placeholder",
    "render_posts",
]
