"""The schema's docstring names every kind of key the index's ``meta`` table holds.

An ingest with ``--audience`` remembers it per root as ``audience:/abs/root``
(``bot.knowledge.ingest_audience``), which the schema's account of ``meta`` left out: a reader
of the schema alone took ``generation`` and ``index_id`` for all there is.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import ingest, schema


def test_every_meta_key_an_ingest_writes_is_described(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pay.md").write_text("# Pay\n\nThe walrus salary is 9000 euros.\n", encoding="utf-8")
    index = tmp_path / "index.db"
    ingest([kb], IndexSettings(path=str(index)), audience=["hr"])
    with closing(sqlite3.connect(index)) as conn:
        keys = [str(key) for (key,) in conn.execute("SELECT key FROM meta ORDER BY key")]
    assert f"audience:{kb.resolve()}" in keys
    described = schema.__doc__ or ""
    for key in keys:
        kind = "audience:/abs/root" if key.startswith("audience:") else key
        assert f"``{kind}``" in described, key
