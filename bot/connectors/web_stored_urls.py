"""A stored answer's knowledge-base files cited at the public URL the index gives them *now*.

An answer is stored with each cited source as it was found: its public ``url`` and its deep
links (a text fragment or ``#page=N`` on that URL) included. A later ingest can change a file's
URL: other ``index.url_templates`` (or a reader that matches them differently after an
upgrade), a front matter ``url:``, a template that now matches a file that had none, or none
that matches it any more. A stored answer re-rendered later (a conversation reload, the share
page: ``WebTurns.as_now``) cites each such file at the URL the index has for it now, its deep
links rebuilt on that URL from the stored quotes and page as :func:`bot.deeplinks.deep_link`
builds them, so one conversation never cites one file at two addresses; a file that has no URL
now is linked by a signed ``/files/`` link, as a fresh answer would link it.

Only a knowledge-base file the index still holds, and that the viewer may read as it holds it
now, is looked up: a record, a tool's web result and a file outside the index keep their stored
URL, and a file made private or dropped since keeps what
:func:`bot.connectors.web_file_access.as_now` made of it (no link at all). An index that is
missing or cannot be read leaves every URL as stored.
"""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
from pathlib import Path
from typing import Protocol

from bot.deeplinks import deep_link
from bot.errors import KnowledgeIndexError
from bot.knowledge.index import KnowledgeIndex
from bot.models import Answer, Citation, Occurrence, Source

log = logging.getLogger(__name__)


class FileUrls(Protocol):
    """Looks up the file a cited knowledge-base passage comes from, as the index has it now."""

    def current(self, source: Source) -> Source | None:
        """An indexed passage of ``source``'s file (its current ``url`` and ``audience``), or
        None when the index does not hold that file (or cannot say)."""
        ...


class IndexedUrls:
    """The files of the knowledge index at ``index_path``, opened on first use (the server may
    start before the first ``citecast ingest``)."""

    def __init__(self, index_path: str | Path) -> None:
        self.index_path = Path(index_path)
        self._index: KnowledgeIndex | None = None

    def current(self, source: Source) -> Source | None:
        """The indexed passage of ``source``'s file: the same ``relpath#chunk`` id, else the
        file's first passage (it was chunked anew), and only when it is the same file (a
        file keeps its relpath while it stays indexed). Every passage of a file has the file's
        URL and audience. None for a source that is no indexed passage (a record, a web result,
        a file the index dropped) and while the index is missing or cannot be read."""
        relpath, _, chunk = source.id.rpartition("#")
        if not source.path or not relpath or not chunk.isdigit():
            return None
        try:
            real = Path(source.path).expanduser().resolve()
        except (OSError, RuntimeError, ValueError):
            return None
        if self._index is None and not self.index_path.exists():
            return None
        try:
            if self._index is None:
                self._index = KnowledgeIndex(self.index_path)
            for candidate in dict.fromkeys((source.id, f"{relpath}#1")):
                found = self._index.source(candidate)
                if found is not None and found.path and Path(found.path) == real:
                    return found
        except (KnowledgeIndexError, sqlite3.Error) as exc:
            # the stored URL was right when the answer was given: better than none
            log.warning("cannot look up the URL of %s in %s: %s", real.name, self.index_path, exc)
        return None


def with_current_urls(answer: Answer, files: FileUrls, audience: frozenset[str]) -> Answer:
    """``answer`` with each cited knowledge-base file at the URL the index gives it now
    (:func:`relinked`), for a viewer of ``audience``: a file that viewer may not read now keeps
    its stored citation (privacy is :func:`bot.connectors.web_file_access.as_now`'s, which runs
    first; a new URL of a private file must not show either way). Each file is looked up once."""
    found: dict[str, Source | None] = {}
    citations: list[Citation] = []
    for citation in answer.citations:
        source = citation.source
        if source.path:
            if source.id not in found:
                found[source.id] = files.current(source)
            now = found[source.id]
            if now is not None and now.visible_to(audience) and now.url != source.url:
                citation = relinked(citation, now.url)
        citations.append(citation)
    if all(new is old for new, old in zip(citations, answer.citations, strict=True)):
        return answer
    return dataclasses.replace(answer, citations=tuple(citations))


def relinked(citation: Citation, url: str | None) -> Citation:
    """``citation`` with its source at ``url`` and its deep links (its own and each marker's)
    rebuilt on it from their quotes and the source's page, as the resolver and grounding build
    them; with ``url`` None there is none, and the renderers sign a ``/files/`` link instead.
    A marker whose quote's pages are known keeps them and links its own page."""
    source = dataclasses.replace(citation.source, url=url)
    occurrences = tuple(
        dataclasses.replace(o, deep_link=_link(_on_marker_pages(source, o), o.quote))
        for o in citation.occurrences
    )
    return dataclasses.replace(
        citation,
        source=source,
        deep_link=_link(source, citation.quote),
        occurrences=occurrences,
    )


def _on_marker_pages(source: Source, occurrence: Occurrence) -> Source:
    if occurrence.page is None:
        return source
    return dataclasses.replace(source, page=occurrence.page, page_end=occurrence.page_end)


def _link(source: Source, quote: str | None) -> str | None:
    return deep_link(source, quote) or deep_link(source)
