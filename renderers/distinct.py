"""Source entries that would read the same, told apart by the start of what each one cites.

Two passages of one file and one section are two sources, and every channel's source list would
show them as the same line ("[1] citecast (attached: README.md) · Slack" twice). Where two
entries of one answer would read the same, each gets a short start of its quote (or, lacking
one, of its passage), cut at a word: ``“Set the bot token…”``. A different page needs nothing:
the page is part of the entry's detail already. Entries that read differently are unchanged,
and so is a restricted source, whose words the viewer may not see.

Pure functions of the listed forms; each channel escapes the words as it escapes any detail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from renderers.base import CitationForm, shown
from renderers.limits import truncate
from renderers.quote_text import quote_plain

# the start of each quote, cut at a word: longer only while two starts are still the same
SNIPPET_LENGTHS = (60, 100, 150)
# a passage is read only this far: its start is all an entry shows
_PASSAGE_READ = 600


def snippet(text: str, limit: int = SNIPPET_LENGTHS[0]) -> str:
    """The start of ``text`` (markdown shown as plain text, on one line) within ``limit``
    characters, cut after a whole word, in quotation marks: ``“Set the bot token…”`` ("" when
    it shows nothing)."""
    words = quote_plain(text)
    return f"\u201c{truncate(words, limit)}\u201d" if words else ""


def entry_key(form: CitationForm, quotes_shown: bool) -> tuple[Any, ...]:
    """What a source entry shows besides its number in every channel: equal keys may read the
    same somewhere.

    A link, a download and a name read alike: Slack, Discord and Discourse show a link's title,
    not its address, and Discourse a download's title alone. An attached file is named in
    every channel. ``quotes_shown``: the channel's list shows each quote (web, email HTML).
    """
    attached = form.kind == "attachment"
    quote = quote_plain(form.quote) if quotes_shown and form.quote else None
    filename = form.filename if attached else None
    return (attached, form.title, filename, form.detail, form.record, quote)


def told_apart(
    forms: tuple[CitationForm, ...],
    passage: Callable[[int], str | None],
    *,
    quotes_shown: bool = False,
) -> tuple[CitationForm, ...]:
    """``forms`` (one answer's source list) with what tells apart entries that would read the
    same added to their ``detail`` (``Slack, “Set the bot token…”``); the others unchanged.

    ``passage(n)`` is the text of citation ``n``'s source (for a citation without a quote).
    With nothing to tell apart, ``forms`` itself is returned.
    """
    groups: dict[tuple[Any, ...], list[CitationForm]] = {}
    for form in forms:
        if form.reachable:
            groups.setdefault(entry_key(form, quotes_shown), []).append(form)
    if all(len(group) == 1 for group in groups.values()):
        return forms  # the usual case: every entry reads differently already
    added: dict[int, str] = {}
    for group in groups.values():
        if len(group) > 1:
            added.update(_distinctions(group, passage, quotes_shown))
    return tuple(_with_detail(form, added[form.n]) if form.n in added else form for form in forms)


def _distinctions(
    group: list[CitationForm], passage: Callable[[int], str | None], quotes_shown: bool
) -> dict[int, str]:
    """A snippet per entry of ``group`` (entries that read the same); {} when none helps."""

    def own_words(form: CitationForm) -> str | None:
        # a channel that shows the quotes shows these ones alike: only the passage can help
        quote = None if quotes_shown else form.quote
        return quote or _passage_start(passage(form.n))

    def passage_words(form: CitationForm) -> str | None:
        return _passage_start(passage(form.n))

    for words_of in (own_words, passage_words):
        texts = [words_of(form) for form in group]
        for limit in SNIPPET_LENGTHS:
            snippets = [snippet(text, limit) if text else "" for text in texts]
            if all(snippets) and len(set(snippets)) == len(snippets):
                return {form.n: text for form, text in zip(group, snippets, strict=True)}
    # nothing tells every one apart (two cite the same words): still the ones it can
    texts = [own_words(form) for form in group]
    snippets = [snippet(text, SNIPPET_LENGTHS[-1]) if text else "" for text in texts]
    if len(set(snippets)) < 2:
        return {}
    return {form.n: text for form, text in zip(group, snippets, strict=True) if text}


def _passage_start(text: str | None) -> str | None:
    if not text:
        return None
    return shown(text[:_PASSAGE_READ]).strip() or None


def _with_detail(form: CitationForm, words: str) -> CitationForm:
    return replace(form, detail=f"{form.detail}, {words}" if form.detail else words)
