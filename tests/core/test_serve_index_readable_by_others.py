"""``citecast serve`` warns at start of an index every account can read, as of the store.

Found in an upgrade QA: an older citecast created ``.citecast/`` 0755 and its databases 0644.
``serve`` warned of the store (which holds the conversations) but not of the index, which
holds every private document's text; and it named the folder to ``chmod`` relatively
(``chmod 700 .citecast``) where ``ingest`` named it absolutely.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import ingest
from tests.core.serve_process import serving

OPEN = "is readable by every account on this host (mode 0644); run `chmod 700 {folder}` (or "
OPEN += "`chmod 600` it and its -wal and -shm files)"


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every account can enter, as a home folder often is (pytest's are closed)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name).resolve()
        folder.chmod(0o755)
        yield folder


def test_serve_warns_of_an_open_index_and_store_with_absolute_paths(open_folder: Path) -> None:
    # as an older citecast left them: a folder and databases every account may read
    data = open_folder / ".citecast"
    data.mkdir()
    data.chmod(0o755)
    (open_folder / "kb").mkdir()
    (open_folder / "kb" / "pay.md").write_text("# Pay\n\nThe walrus salary is 9000 euros.\n")
    index = data / "index.db"
    ingest([open_folder / "kb"], IndexSettings(path=str(index)))
    store = data / "citecast.db"
    sqlite3.connect(store).close()
    for database in (index, store):
        database.chmod(0o644)
    # no config.yaml: the default relative paths, .citecast/index.db and .citecast/citecast.db
    with serving(None, open_folder) as lines:
        pass
    warnings = [line.rstrip("\n") for line in lines if "readable by every account" in line]
    expected = OPEN.format(folder=data)
    assert any(line.endswith(f"index {index} {expected}") for line in warnings), lines
    # the store's line names the folder absolutely too (its own path as the store names it)
    assert any("store " in line and line.endswith(f"citecast.db {expected}") for line in warnings)
