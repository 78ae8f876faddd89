"""After ``make serve``'s ``ingest --if-missing`` re-read an upgraded index, the next plain
``citecast ingest kb`` finds every file unchanged, and both name files as the index does.

Found on upgrade QA: the plain run re-read the files whose audience their front matter gives
(their fingerprint hashed the run's default, the audience the index had for the file, which
the re-read had just narrowed), and the re-read's summary named the files that kept their
stored audience as ``minutes.md`` (each was read as a root of its own) where a plain run says
``kb/board/minutes.md``. The older reader is simulated as in the other upgrade tests, and as
one that missed the front matter: every file public.
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


def _as_read_by_an_older_citecast(index: Path, audience: str) -> None:
    as_an_older_citecast_read_it(index)
    conn = sqlite3.connect(index)
    try:
        conn.execute("UPDATE chunks SET audience = ?", (f"|{audience}|",))
        conn.commit()
    finally:
        conn.close()


@pytest.fixture
def cli(tmp_path: Path) -> list[str]:
    kb = tmp_path / "kb"
    _write(kb / "guides" / "bonus.md", "---\naudience: staff\n---\n# Bonus\n\nHeron bonus.\n")
    _write(kb / "guides" / "install.md", "# Install\n\nEgret install takes 5 minutes.\n")
    _write(
        kb / "web" / "pricing.html",
        '<html><head><meta name="citecast:audience" content="staff"><title>Pricing</title>'
        "</head><body><p>Ibis discounts need approval.</p></body></html>",
    )
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    return ["--config", str(config), "ingest"]


def test_a_plain_run_after_the_re_read_reads_nothing_again(
    cli: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*cli, str(tmp_path / "kb")]) == 0
    _as_read_by_an_older_citecast(tmp_path / "index.db", "public")
    assert main([*cli, str(tmp_path / "kb"), "--if-missing"]) == 0
    assert "3 files: 3 indexed (3 re-read: " in capsys.readouterr().out

    assert main([*cli, str(tmp_path / "kb")]) == 0

    assert "3 files: 0 indexed, 3 unchanged, " in capsys.readouterr().out


def test_the_re_read_names_files_as_the_index_does(
    cli: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*cli, str(tmp_path / "kb")]) == 0
    # the older citecast gave every file staff: install.md, which names none, keeps it
    _as_read_by_an_older_citecast(tmp_path / "index.db", "staff")
    capsys.readouterr()

    assert main([*cli, str(tmp_path / "kb"), "--if-missing"]) == 0

    out = capsys.readouterr().out
    assert "1 file (kb/guides/install.md) without a front matter audience" in out, out
