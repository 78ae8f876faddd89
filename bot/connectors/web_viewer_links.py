"""Where a relative link inside a file shown on the viewer page may lead.

A cited HTML or Markdown file links its neighbours relatively (``[see setup](setup.md)``,
``<a href="../guide/install.html#linux">``). On the viewer page, at ``/files/{token}``, a
browser resolves them against ``/files/`` and gets a 404. :class:`ViewerLinks` resolves each
against the cited file's own folder instead, and turns it into the signed ``/files/`` link of the
file it names, ``#fragment`` kept, only when that file is one a citation could link for this
viewer: indexed (and unchanged since: ``/files/`` would refuse it, see
:mod:`bot.knowledge.indexed_bytes`), visible to the audience the page's token was issued for,
inside the served roots (:meth:`bot.filetokens.FileSigner.token_for`, the rule every citation
link follows). The new link expires with the page's own (or sooner, by
``web.file_token_ttl``): a page that links itself, or two that link each other, cannot be
followed round to keep a link alive for ever.

Anything else loses its link (its text stays): a missing file, a private one, one outside the
roots (``../../etc/passwd``, ``%2e%2e/``), a folder, an absolute path, a query. Every refusal
looks the same, so a page cannot be used to learn which private files exist.

The new link is relative to the page (``TOKEN#fragment``): the page is ``…/files/{token}``, so
it resolves to the sibling ``…/files/TOKEN`` under any path prefix a reverse proxy adds.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote, urlsplit

from bot.config import IndexSettings, RecordTable
from bot.errors import KnowledgeIndexError
from bot.filetokens import FileGrant, FileSigner
from bot.knowledge.index import KnowledgeIndex
from bot.knowledge.indexed_bytes import IndexedBytes
from bot.knowledge.judged_file import JudgedFile
from bot.knowledge.record_rows import with_audiences
from bot.models import Source

log = logging.getLogger(__name__)


class FileIndex(Protocol):
    """Looks up an indexed file by its absolute, resolved path."""

    def source_for(self, path: Path) -> Source | None:
        """The file as a ``Source`` (its audience and media type), or None when not indexed."""
        ...

    def governs(self, path: Path) -> bool:
        """True when the index decides who may read ``path``: it lies in a folder (or is a
        file) ingested into the index, or the index exists but cannot be read (so nothing is
        served on a guess). False when no index speaks for it (see ``web_file_access``)."""
        ...

    def table_audience(self, table: str) -> tuple[str, ...] | None:
        """The audience the record table named ``table`` has in the config now, or None when
        no table has that name (removed or renamed since a record of it was cited)."""
        ...

    def unchanged(self, path: Path) -> bool:
        """True while the indexed file at ``path`` holds the bytes the index read (edited
        since, it may say what its indexed audience must not read until it is ingested again:
        :mod:`bot.knowledge.indexed_bytes`); False for a file the index does not hold."""
        ...

    def judged(self, path: Path) -> JudgedFile | None:
        """The indexed file at ``path`` opened, while ``unchanged``: what ``/files/`` serves is
        read from it, not from the path again (the caller closes it); None otherwise."""
        ...


class IndexedFiles:
    """The files of the knowledge index at ``index_path``
    (:meth:`bot.knowledge.index.KnowledgeIndex.file_source`), opened on first use, since the
    server may start before the first ``citecast ingest``; an index that is missing or cannot
    be read knows no file, so its links stay text. A missing index governs no file; one that
    cannot be read governs every file (``governs``)."""

    def __init__(
        self,
        index_path: str | Path,
        tables: Sequence[RecordTable] = (),
        settings: IndexSettings | None = None,
    ) -> None:
        self.index_path = Path(index_path)
        self._index: KnowledgeIndex | None = None
        # the chunk settings a fingerprint was made with are the config's (IndexedBytes)
        read_with = IndexSettings() if settings is None else settings
        self._bytes = IndexedBytes(read_with.model_copy(update={"path": str(self.index_path)}))
        # checked at start with the rest of the config: the audience each group list names
        self._tables = {table.name: tuple(table.audience) for table in with_audiences(tables)}

    @classmethod
    def of(cls, settings: IndexSettings) -> IndexedFiles:
        """The files of ``settings.path``, and the record tables of ``settings.records``."""
        return cls(settings.path, settings.records, settings)

    def _opened(self) -> KnowledgeIndex:
        if self._index is None:
            self._index = KnowledgeIndex(self.index_path)
        return self._index

    def source_for(self, path: Path) -> Source | None:
        """The indexed file at ``path`` as a ``kind="file"`` Source, else None."""
        if self._index is None and not self.index_path.exists():
            return None  # nothing ingested yet: no file to find, and nothing worth a warning
        try:
            return self._opened().file_source(path)
        except (KnowledgeIndexError, sqlite3.Error) as exc:
            log.warning("cannot look up %s in the index %s: %s", path.name, self.index_path, exc)
            return None

    def governs(self, path: Path) -> bool:
        """True when ``path`` is inside a root ingested into the index, or the index exists
        but cannot be read; False while there is no index (nothing was ingested)."""
        if not self.index_path.exists():
            return False
        try:
            roots = self._opened().roots()
        except (KnowledgeIndexError, sqlite3.Error) as exc:
            log.warning("cannot read the ingested folders of %s: %s", self.index_path, exc)
            return True
        return any(path.is_relative_to(root) for root in roots)

    def table_audience(self, table: str) -> tuple[str, ...] | None:
        """The audience of the configured record table ``table`` (None: no such table)."""
        return self._tables.get(table)

    def unchanged(self, path: Path) -> bool:
        """True while the indexed file at ``path`` holds the bytes the index read
        (:meth:`bot.knowledge.indexed_bytes.IndexedBytes.unchanged`)."""
        if not self.index_path.exists():
            return False
        return self._bytes.unchanged(path)

    def judged(self, path: Path) -> JudgedFile | None:
        """The indexed file at ``path`` opened while it holds the bytes the index read
        (:meth:`bot.knowledge.indexed_bytes.IndexedBytes.judged`), else None."""
        if not self.index_path.exists():
            return None
        return self._bytes.judged(path)


def relative_target(href: str, folder: Path) -> tuple[Path, str] | None:
    """The file a relative link names (resolved against ``folder``) and its fragment, or None
    when ``href`` is not a plain relative path: empty, absolute, with a scheme, a host or a
    query, or holding a backslash or control character (which browsers read differently)."""
    if not href or "\\" in href or any(ord(c) < 0x20 or ord(c) == 0x7F for c in href):
        return None
    try:
        parts = urlsplit(href)
    except ValueError:
        return None
    if parts.scheme or parts.netloc or parts.query or not parts.path:
        return None
    # Decoded once, as a browser and a file server would: "%2e%2e/" is "../" and is caught by
    # the roots check like any other way out.
    name = unquote(parts.path)
    if name.startswith("/") or "\x00" in name:
        return None
    try:
        return (folder / name).resolve(), parts.fragment
    except (OSError, RuntimeError, ValueError):
        return None


class ViewerLinks:
    """Rewrites the relative links of one viewed file (the file of ``grant``)."""

    def __init__(self, grant: FileGrant, signer: FileSigner, files: FileIndex) -> None:
        self.grant = grant
        self.signer = signer
        self.files = files
        self._seen: dict[str, str | None] = {}

    def __call__(self, href: str) -> str | None:
        """``href``'s new target (``TOKEN`` or ``TOKEN#fragment``), or None: no link."""
        if href not in self._seen:
            self._seen[href] = self._target(href)
        return self._seen[href]

    def _target(self, href: str) -> str | None:
        found = relative_target(href, self.grant.path.parent)
        if found is None:
            return None
        path, fragment = found
        source = self.files.source_for(path)
        if source is None or not self.files.unchanged(path):
            return None  # not indexed, or edited since it was (web_files serves it no more)
        # no later than the page's own link: a page linking itself must not renew access
        token = self.signer.token_for(source, self.grant.audience, not_after=self.grant.expires_at)
        if token is None:
            return None
        return f"{token}#{fragment}" if fragment else token
