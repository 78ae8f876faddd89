"""Make an index look as if an older citecast had read its files (for upgrade tests)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def as_an_older_citecast_read_it(index: Path, where: str = "1") -> None:
    """Mark the files of ``index`` matching the SQL condition ``where`` (all by default) as
    read by an older reader: their fingerprints lose this citecast's reader mark."""
    conn = sqlite3.connect(index)
    try:
        conn.execute(f"UPDATE files SET fingerprint = 'old:' || fingerprint WHERE {where}")
        conn.commit()
    finally:
        conn.close()
