"""The folders ``/files/`` may serve, following the knowledge index while the server runs.

``citecast ingest /new/folder`` with ``serve`` up is answered from at once (the index is read
live), so the download roots must follow too, or a file cited from the new folder gets no link
until a restart. The roots are ``web.file_roots`` plus the index's ingested roots, and nothing
else: a root that ``citecast ingest --rebuild`` dropped stops being served as well.

Checking costs one query on the index's small ``roots`` table per signed or verified link (what
the search cache pays for its generation check); the signer's roots are rebuilt only when that
list changed. The generation alone would not do: it is not bumped when a run adds a root without
changing any file, and a rebuilt index starts counting again.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from bot.config import Settings
from bot.errors import CitecastError
from bot.filetokens import FileGrant, FileSigner, load_file_secret
from bot.knowledge.index import KnowledgeIndex
from bot.models import Source

log = logging.getLogger(__name__)


class IngestedRoots:
    """The roots recorded in the index at ``path``, read afresh on every call."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._index: KnowledgeIndex | None = None

    def read(self) -> tuple[Path, ...]:
        """The ingested roots; none while there is no index. Raises CitecastError or
        sqlite3.Error when the index exists but cannot be read."""
        if not self.path.exists():
            return ()
        if self._index is None:
            self._index = KnowledgeIndex(self.path)
        # KnowledgeIndex reopens by itself when `ingest --rebuild` replaced the file.
        return tuple(self._index.roots())


class LiveRootsSigner(FileSigner):
    """A FileSigner whose roots are ``configured`` plus the index's roots as they are now."""

    def __init__(
        self,
        secret: bytes,
        base_url: str,
        ttl: int,
        *,
        configured: Iterable[str | Path] = (),
        index_path: str | Path,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._configured: Sequence[str | Path] = tuple(configured)
        super().__init__(secret, base_url, ttl, roots=self._configured, clock=clock)
        self._ingested = IngestedRoots(index_path)
        self._seen: tuple[Path, ...] | None = None
        self._unreadable: str | None = None
        self.refresh()

    def refresh(self) -> None:
        """Take up the index's roots if they changed since the last look."""
        try:
            ingested = self._ingested.read()
        except (CitecastError, sqlite3.Error) as exc:
            # Keep the roots we had: an index being rebuilt is unreadable for a moment, and
            # warning on every link would flood the log.
            if str(exc) != self._unreadable:
                self._unreadable = str(exc)
                log.warning("cannot read the ingested folders from the index: %s", exc)
            return
        self._unreadable = None
        if ingested != self._seen:
            self._seen = ingested
            self.set_roots([*self._configured, *ingested])

    @property
    def roots(self) -> tuple[Path, ...]:
        """The directories whose files may be served, as of now."""
        self.refresh()
        return super().roots

    def token_for(
        self, source: Source, audience: frozenset[str], *, not_after: int | None = None
    ) -> str | None:
        self.refresh()
        return super().token_for(source, audience, not_after=not_after)

    def verify(self, token: str) -> FileGrant:
        self.refresh()
        return super().verify(token)


def build_signer(settings: Settings, base_url: str = "") -> FileSigner:
    """A FileSigner for this deployment (secret from config, env, or the store directory).

    It serves ``web.file_roots`` plus the folders ingested into the index, following the index
    while the server runs (:class:`LiveRootsSigner`).
    """
    secret = load_file_secret(settings.web.file_secret, settings.store.path)
    return LiveRootsSigner(
        secret,
        settings.web.public_base_url or base_url,
        settings.web.file_token_ttl,
        configured=settings.web.file_roots,
        index_path=settings.index.path,
    )
