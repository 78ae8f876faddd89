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
fingerprint's mark, this config's chunk settings, the file's stored audience, and as its URL
none (a file with a ``/files/`` link has no URL of its own), a stored one, or the one this
config's ``index.url_templates`` give it (:func:`bot.knowledge.file_urls.template_url`, as
ingest finds it: a file whose own URL won over a template's was fingerprinted with the
template's). One that none of them matches counts as changed: nothing is served on a guess.
(So is a file read with other chunk settings or URL templates than this config's: served again
after the next ``citecast ingest``.)

The check opens the file once and hands back the open descriptor (:meth:`IndexedBytes.judged`,
a :class:`bot.knowledge.judged_file.JudgedFile`): what is served is read from it, block by
block against the digests taken while it was hashed, never from the path again, so a save
that lands after the check is never served.

Hashing a large file on every request would cost (a 50 MB PDF is tens of milliseconds of
CPU), so the hash of a file's bytes (and of each block) is kept by its version on disk (path,
size, mtime, ctime, inode): a request for an unchanged file hashes nothing to be checked, and
a re-ingest that stores a new fingerprint needs no new hash either.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import stat
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import IndexSettings
from bot.knowledge.audience_rules import RunRules
from bot.knowledge.file_fingerprint import content_digest, fingerprints
from bot.knowledge.file_urls import template_url
from bot.knowledge.ingest_file import fingerprint_options
from bot.knowledge.judged_file import BLOCK, JudgedFile, block_digest, read_fully
from bot.knowledge.schema import audience_tuple

if TYPE_CHECKING:
    from hashlib import _Hash

log = logging.getLogger(__name__)

_KEPT_VERSIONS = 256  # file versions whose hashes are kept: ~200 bytes, and 32 a megabyte
_MARK = re.compile(r"r(\d+):")
_STORED = (
    "SELECT f.fingerprint, f.size, c.audience, c.url FROM files f "
    "LEFT JOIN chunks c ON c.file_id = f.id WHERE f.path = ? GROUP BY c.audience, c.url"
)
_ROOTS = "SELECT path FROM roots"

FileVersion = tuple[str, int, int, int, int]
"""A file's version on disk: its path, size, mtime and ctime (ns) and inode."""


@dataclass(frozen=True)
class StoredRead:
    """What the index stored of the file it read: its fingerprint and size, the audiences
    and URLs of its passages, and the folders ingested into the index."""

    fingerprint: str
    size: int
    audiences: frozenset[tuple[str, ...]]
    urls: frozenset[str | None]
    roots: tuple[Path, ...] = ()


@dataclass(frozen=True)
class ReadBytes:
    """The hash of a file's bytes, and the digest of each of its blocks."""

    content: _Hash
    blocks: tuple[bytes, ...]


class IndexedBytes:
    """Tells whether files of the index at ``settings.path`` still hold the bytes it read."""

    def __init__(self, settings: IndexSettings) -> None:
        self.settings = settings
        self._hashes: OrderedDict[FileVersion, ReadBytes] = OrderedDict()
        self._lock = threading.Lock()  # the route checks on the loop, the viewer's links in threads

    def unchanged(self, path: Path) -> bool:
        """True when ``path`` (absolute, resolved) is a file the index holds whose bytes on
        disk are the ones the index read; False when they changed since, when it is not in
        the index, or when the index or the file cannot be read."""
        judged = self.judged(path)
        if judged is None:
            return False
        judged.close()
        return True

    def judged(self, path: Path) -> JudgedFile | None:
        """``path`` (absolute, resolved) opened, when :meth:`unchanged`: the caller serves
        what it reads from it and closes it. None (nothing left open) otherwise."""
        stored = self._stored(path)
        if stored is None:
            return None
        mark = _MARK.match(stored.fingerprint)
        if mark is None:
            return None  # read by a citecast older than marks: its fingerprint is not known
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            found = os.fstat(fd)
            if not stat.S_ISREG(found.st_mode) or found.st_size != stored.size:
                return None  # changed, and no need to hash it to know
            read = self._read(fd, path, found)
            if read is None:
                return None
            options = fingerprint_options(self.settings, reader=mark.group(1))
            urls = stored.urls | {None, self._template_url(path, stored.roots)}
            made = (
                fingerprints(read.content, mark=mark.group(0), options=options, audience=a, url=u)
                for a in stored.audiences
                for u in urls
            )
            if not any(stored.fingerprint in candidates for candidates in made):
                return None
            judged, fd = JudgedFile(fd, found, read.blocks), -1
            return judged
        except OSError:
            return None
        finally:
            if fd >= 0:
                os.close(fd)

    def _template_url(self, path: Path, roots: tuple[Path, ...]) -> str | None:
        """The URL ``index.url_templates`` give ``path``, found as ingest finds it; its paths
        above its folders are tried up to the file system's root, since the folders ingest
        stopped at (the working directory, the config file's) are not known here: a glob that
        matches none of ingest's paths but one above them adds a URL no fingerprint has."""
        folders = [root for root in roots if root.is_dir()]
        rules = RunRules(folders, (Path(path.anchor),))
        found = template_url(rules.paths(path, path.name), self.settings)
        return None if found is None else found.url

    def _stored(self, path: Path) -> StoredRead | None:
        index = Path(self.settings.path)
        try:
            uri = index.resolve().as_uri() + "?mode=ro"
            conn = sqlite3.connect(uri, uri=True)
            try:
                rows = conn.execute(_STORED, (str(path),)).fetchall()
                roots = conn.execute(_ROOTS).fetchall() if rows else []
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
            tuple(Path(str(row[0])) for row in roots),
        )

    def _read(self, fd: int, path: Path, found: os.stat_result) -> ReadBytes | None:
        """The hashes of the bytes of ``fd`` (``path`` as ``found``; kept by the file's
        version), or None when it changed while it was read."""
        version = _version(path, found)
        with self._lock:
            kept = self._hashes.get(version)
            if kept is not None:
                self._hashes.move_to_end(version)
                return kept
        content = content_digest(b"")
        blocks: list[bytes] = []
        offset = 0
        while block := read_fully(fd, BLOCK, offset):
            content.update(block)
            blocks.append(block_digest(block))
            offset += len(block)
        if _version(path, os.fstat(fd)) != version or offset != found.st_size:
            return None  # written while read: these bytes are no version of it
        read = ReadBytes(content, tuple(blocks))
        with self._lock:
            self._hashes[version] = read
            while len(self._hashes) > _KEPT_VERSIONS:
                self._hashes.popitem(last=False)
        return read


def _version(path: Path, found: os.stat_result) -> FileVersion:
    return (str(path), found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)
