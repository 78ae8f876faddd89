"""The store's "readable by every account" warning names the store by its absolute path.

``citecast serve`` warned of an open index by its absolute path but of the store as configured
(``store .citecast/citecast.db is readable …``): a relative path says nothing once read away
from the folder the command was run in, and the two lines of one start named their files
differently.
"""

from __future__ import annotations

import logging
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every account can enter, as a home folder often is (pytest's are closed)."""
    with tempfile.TemporaryDirectory(prefix="h-store-") as name:
        folder = Path(name).resolve()
        folder.chmod(0o755)
        yield folder


def test_a_store_opened_by_a_relative_path_is_named_absolutely(
    open_folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    data = open_folder / ".citecast"
    data.mkdir()
    data.chmod(0o755)  # as an older citecast left it
    sqlite3.connect(data / "citecast.db").close()
    (data / "citecast.db").chmod(0o644)
    monkeypatch.chdir(open_folder)
    with caplog.at_level(logging.WARNING, logger="bot.store_base"):
        Store(".citecast/citecast.db").close()  # store.path as the default config gives it
    assert [r.getMessage() for r in caplog.records] == [
        f"store {data / 'citecast.db'} is readable by every account on this host (mode 0644); "
        f"run `chmod 700 {data}` (or `chmod 600` it and its -wal and -shm files)"
    ]
