"""``citecast ingest --if-missing`` re-reading the files an older citecast read leaves the
index's ``roots`` table as it found it.

Found on upgrade QA: the re-read gives the files to one run, which remembered each as a root
of its own, so an index of one folder of three files held four roots after it (the folder and
each file). The older reader is simulated as in the other upgrade tests.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from tests.knowledge.older_reader import as_an_older_citecast_read_it


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _roots(index: Path) -> list[str]:
    conn = sqlite3.connect(index)
    try:
        return [str(path) for (path,) in conn.execute("SELECT path FROM roots ORDER BY path")]
    finally:
        conn.close()


@pytest.fixture
def cli(tmp_path: Path) -> list[str]:
    kb = tmp_path / "kb"
    _write(kb / "guides" / "bonus.md", "---\naudience: staff\n---\n# Bonus\n\nHeron bonus.\n")
    _write(kb / "guides" / "install.md", "# Install\n\nEgret install takes 5 minutes.\n")
    _write(kb / "web" / "faq.txt", "Ibis discounts need approval.\n")
    _write(tmp_path / "handbook.md", "# Handbook\n\nKestrel leave takes a week.\n")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    return ["--config", str(config), "ingest"]


def test_the_re_read_of_a_folder_adds_no_file_roots(
    cli: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*cli, str(tmp_path / "kb")]) == 0
    index = tmp_path / "index.db"
    assert _roots(index) == [str(tmp_path / "kb")]
    as_an_older_citecast_read_it(index)

    assert main([*cli, str(tmp_path / "kb"), "--if-missing"]) == 0

    assert "3 files: 3 indexed (3 re-read: " in capsys.readouterr().out
    assert _roots(index) == [str(tmp_path / "kb")]


def test_a_file_ingested_alone_stays_a_root(cli: list[str], tmp_path: Path) -> None:
    # a file outside every folder, and one inside a folder but also ingested alone, were roots
    # before the re-read: they stay (only the roots the re-read itself added are dropped)
    install = tmp_path / "kb" / "guides" / "install.md"
    assert main([*cli, str(tmp_path / "kb"), str(tmp_path / "handbook.md"), str(install)]) == 0
    index = tmp_path / "index.db"
    before = _roots(index)
    assert len(before) == 3
    as_an_older_citecast_read_it(index)

    assert main([*cli, str(tmp_path / "kb"), "--if-missing"]) == 0

    assert _roots(index) == before
