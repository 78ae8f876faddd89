"""Whether a file on disk still holds the bytes the index read, for ``/files/`` to serve it.

The index judged a file's audience from the bytes it read. A file edited in place since (made
private by front matter ``audience: staff`` or a ``citecast:audience`` tag, with private text
added) is judged again only by the next ``citecast ingest``; until then the index still names
the old audience, and a link signed for that audience must not serve the new text. So a
knowledge-base file is served only while it is the one the index read: its size is the stored
``files.size``, and its bytes hash to its stored ``files.fingerprint``
(:mod:`bot.knowledge.file_fingerprint`, the same function ingest stores it with).

A fingerprint hashes more than the bytes (the run's options, the file's audience and URL), so
the candidates are made from what the index stored with the file: the reader version of the
fingerprint's mark, this config's chunk settings, the file's stored audience, and its stored
URL or none (a file with a ``/files/`` link has no URL of its own). One that none of them
matches counts as changed: nothing is served on a guess. (So is a file read with other chunk
settings than this config's, or one whose own URL won over an ``index.url_templates`` one:
served again after the next ``citecast ingest``.)

Hashing a large file on every request would cost (a 50 MB PDF is tens of milliseconds of
CPU), so the hash of a file's bytes is kept by its version on disk (path, size, mtime, ctime,
inode): a request for an unchanged file hashes nothing, and a re-ingest that stores a new
fingerprint needs no new hash either.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import IndexSettings
from bot.knowledge.file_fingerprint import content_digest, fingerprints
from bot.knowledge.ingest_file import fingerprint_options
from bot.knowledge.schema import audience_tuple

if TYPE_CHECKING:
    from hashlib import _Hash

log = logging.getLogger(__name__)

_READ_BLOCK = 1024 * 1024
_KEPT_VERSIONS = 256  # file versions whose hash is kept: a hash object is ~200 bytes
_MARK = re.compile(r"r(\d+):")
_STORED = (
    "SELECT f.fingerprint, f.size, c.audience, c.url FROM files f "
    "LEFT JOIN chunks c ON c.file_id = f.id WHERE f.path = ? GROUP BY c.audience, c.url"
)

FileVersion = tuple[str, int, int, int, int]
"""A file's version on disk: its path, size, mtime and ctime (ns) and inode."""


@dataclass(frozen=True)
class StoredRead:
    """What the index stored of the file it read: its fingerprint and size, and the audiences
    and URLs of its passages."""

    fingerprint: str
    size: int
    audiences: frozenset[tuple[str, ...]]
    urls: frozenset[str | None]


class IndexedBytes:
    """Tells whether files of the index at ``settings.path`` still hold the bytes it read."""

    def __init__(self, settings: IndexSettings) -> None:
        self.settings = settings
        self._hashes: OrderedDict[FileVersion, _Hash] = OrderedDict()
        self._lock = threading.Lock()  # the route checks on the loop, the viewer's links in threads

    def unchanged(self, path: Path) -> bool:
        """True when ``path`` (absolute, resolved) is a file the index holds whose bytes on
        disk are the ones the index read; False when they changed since, when it is not in
        the index, or when the index or the file cannot be read."""
        stored = self._stored(path)
        if stored is None:
            return False
        mark = _MARK.match(stored.fingerprint)
        if mark is None:
            return False  # read by a citecast older than marks: its fingerprint is not known
        try:
            found = os.stat(path)
        except OSError:
            return False
        if found.st_size != stored.size:
            return False  # changed, and no need to hash it to know
        content = self._content(path, found)
        if content is None:
            return False
        options = fingerprint_options(self.settings, reader=mark.group(1))
        return any(
            stored.fingerprint
            in fingerprints(content, mark=mark.group(0), options=options, audience=aud, url=url)
            for aud in stored.audiences
            for url in stored.urls | {None}
        )

    def _stored(self, path: Path) -> StoredRead | None:
        index = Path(self.settings.path)
        try:
            uri = index.resolve().as_uri() + "?mode=ro"
            conn = sqlite3.connect(uri, uri=True)
            try:
                rows = conn.execute(_STORED, (str(path),)).fetchall()
            finally:
                conn.close()
        except (OSError, sqlite3.Error) as exc:
            log.warning("cannot read the fingerprint of %s in %s: %s", path.name, index, exc)
            return None
        if not rows:
            return None
        return StoredRead(
            str(rows[0][0]),
            int(rows[0][1]),
            frozenset(audience_tuple(str(row[2])) for row in rows if row[2] is not None),
            frozenset(None if row[3] is None else str(row[3]) for row in rows),
        )

    def _content(self, path: Path, found: os.stat_result) -> _Hash | None:
        """The hash of the bytes of ``path`` as ``found`` (kept by the file's version), or None
        when it changed while it was read, or cannot be read."""
        version = _version(path, found)
        with self._lock:
            kept = self._hashes.get(version)
            if kept is not None:
                self._hashes.move_to_end(version)
                return kept
        try:
            with path.open("rb") as handle:
                content = content_digest(b"")
                while block := handle.read(_READ_BLOCK):
                    content.update(block)
                after = os.fstat(handle.fileno())
        except OSError:
            return None
        if _version(path, after) != version:
            return None  # written while read (or replaced): these bytes are no version of it
        with self._lock:
            self._hashes[version] = content
            while len(self._hashes) > _KEPT_VERSIONS:
                self._hashes.popitem(last=False)
        return content


def _version(path: Path, found: os.stat_result) -> FileVersion:
    return (str(path), found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)
