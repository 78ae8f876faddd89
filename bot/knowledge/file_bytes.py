"""Reading one file's bytes for ingestion, within ``index.max_file_bytes``.

A file is read whole (its fingerprint and its reader need all of it), so one very large file
(a log or a data dump named ``.txt``) would take the run's time and memory: one larger than
the limit is refused by its size before a byte of it is read, and is listed with the reason.
"""

from __future__ import annotations

import os
from pathlib import Path

from bot.knowledge.document import Unreadable


def too_large(size: str, limit: int) -> str:
    """The reason a file of ``size`` ("2,048 bytes") is skipped under ``limit`` bytes."""
    return f"too large: {size}, over index.max_file_bytes ({limit:,}; 0 = no limit)"


def read_within(path: Path, limit: int) -> bytes:
    """All the bytes of ``path``, or Unreadable with the reason when it has more than ``limit``
    (0: no limit); an OSError when it cannot be read.

    The size is checked on the open file before reading, and the read stops one byte past the
    limit: a file that grows while it is read (a log being written) never gets in whole.
    """
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if limit and size > limit:
            raise Unreadable(too_large(f"{size:,} bytes", limit))
        data = handle.read(limit + 1) if limit else handle.read()
        if limit and len(data) > limit:
            # it grew while read, or its size was not known (/proc): how far is not known
            raise Unreadable(too_large(f"more than {limit:,} bytes", limit))
    return data
