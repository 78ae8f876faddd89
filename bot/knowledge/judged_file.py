"""A knowledge-base file held open after its bytes were found to be the ones the index read.

``/files/`` must send only bytes the index judged (:mod:`bot.knowledge.indexed_bytes`). Checking
a file by its path and then opening the path again to send it serves whatever a save put there
in between, never judged. So the check opens the file once and what is sent or shown is read
from that same descriptor, a :class:`JudgedFile`: a save that replaces the file (most editors
write a new file and rename it over the old) leaves the descriptor on the judged bytes.

A write into the same file (``open(path, "r+")``, ``>>``, a truncate) changes the bytes under
the descriptor too, and file times cannot tell every such write: they tick coarsely, and a
write within the tick of the check leaves them as they were. So every byte is checked as it is
read back: the check hashed the file in blocks, and :meth:`JudgedFile.read_at` reads whole
blocks and gives their bytes only while each hashes to what it did when judged, else raises
``OSError`` (``ESTALE``): the caller answers as for a file gone (a reading page is a 404, a
download stops where the bytes stopped matching, having sent only judged bytes).
"""

from __future__ import annotations

import errno
import hashlib
import os
from types import TracebackType

BLOCK = 1024 * 1024
"""The bytes each block digest covers: what one read of the check, or of a send, takes."""


def block_digest(block: bytes) -> bytes:
    """The digest that stands for one block of a judged file (the same for the same bytes):
    SHA-256, which CPUs with SHA extensions hash about twice as fast as BLAKE2b."""
    return hashlib.sha256(block).digest()


class JudgedFile:
    """An open descriptor of a file whose bytes were judged, as ``found`` (its ``fstat`` then)
    with ``blocks`` (the digest of each :data:`BLOCK` of it); closed by :meth:`close` or
    ``with``. Reads are positional, so threads may share it."""

    def __init__(self, fd: int, found: os.stat_result, blocks: tuple[bytes, ...]) -> None:
        self.fd = fd
        self.found = found
        self.size = found.st_size
        self._blocks = blocks
        self._last: tuple[int, bytes] | None = None  # a send reads one block in many pieces

    def read_at(self, offset: int, size: int) -> bytes:
        """The judged bytes ``offset`` to ``offset + size`` (cut at the judged end). Raises
        OSError when the file no longer holds them there: written to since it was judged."""
        end = min(offset + size, self.size)
        if offset >= end:
            return b""
        first, last = offset // BLOCK, (end - 1) // BLOCK
        data = b"".join(self._block(index) for index in range(first, last + 1))
        return data[offset - first * BLOCK : end - first * BLOCK]

    def _block(self, index: int) -> bytes:
        kept = self._last
        if kept is not None and kept[0] == index:
            return kept[1]
        start = index * BLOCK
        want = min(BLOCK, self.size - start)
        data = read_fully(self.fd, want, start)
        if index >= len(self._blocks) or block_digest(data) != self._blocks[index]:
            raise OSError(errno.ESTALE, "the file was written to since its bytes were judged")
        self._last = (index, data)
        return data

    def close(self) -> None:
        """Close the descriptor (once; later calls do nothing)."""
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)

    def __del__(self) -> None:
        # a response dropped unsent (a client gone before it started) must not keep it open
        self.close()

    def __enter__(self) -> JudgedFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def read_fully(fd: int, size: int, offset: int) -> bytes:
    """``size`` bytes of ``fd`` at ``offset``, fewer only at the end of the file (one read
    may return fewer)."""
    parts: list[bytes] = []
    while size > 0:
        part = os.pread(fd, size, offset)
        if not part:
            break
        parts.append(part)
        size -= len(part)
        offset += len(part)
    return b"".join(parts)
