"""``citecast ingest SAMPLES --if-missing`` (what ``make serve`` runs at every start) on a user's
own index that an older citecast read: the user's files are read again, the samples stay out.

Found in a README-as-reference QA pass: after an upgrade, ``make serve`` ran an ordinary ingest
of ``examples/`` into an index built with ``citecast ingest --rebuild mydocs``, which put the
samples back among the user's documents and left the user's own files as the older citecast
had read them (their folder was not named). The QA simulated the upgrade by rewriting the
stored fingerprints to ``old:…``, as here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge.ingest import reader_mark
from tests.knowledge.older_reader import as_an_older_citecast_read_it

REREAD = "(3 re-read: this citecast reads some files differently)"


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """``samples`` (standing in for examples/) and the user's ``mydocs``."""
    samples = tmp_path / "samples"
    samples.mkdir()
    (samples / "install.md").write_text("# Install\n\nRun the sample installer.\n", "utf-8")
    mydocs = tmp_path / "mydocs"
    (mydocs / "sub").mkdir(parents=True)
    (mydocs / "guide.md").write_text("# Guide\n\nHeron returns cost 5 EUR.\n", "utf-8")
    (mydocs / "sub" / "deep.md").write_text("# Deep\n\nEgret sends retry 5 times.\n", "utf-8")
    (mydocs / "sub" / "pay.md").write_text(
        "---\naudience: [hr]\n---\n# Pay\n\nIbis pay is monthly.\n", "utf-8"
    )
    return samples, mydocs


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n  url_templates:\n"
        '    "*.md": "https://docs.example.com/{stem}.html"\n',
        encoding="utf-8",
    )
    return path


def _rows(index: Path) -> dict[str, tuple[str, str, str, str | None]]:
    """relpath -> (path, fingerprint, audience, url) of every indexed file."""
    conn = sqlite3.connect(index)
    try:
        rows = conn.execute(
            "SELECT f.relpath, f.path, f.fingerprint, c.audience, c.url FROM files f "
            "JOIN chunks c ON c.file_id = f.id GROUP BY f.id"
        ).fetchall()
    finally:
        conn.close()
    return {str(r[0]): (str(r[1]), str(r[2]), str(r[3]), r[4]) for r in rows}


def test_if_missing_rereads_the_users_files_and_leaves_the_samples_out(
    folders: tuple[Path, Path],
    tmp_path: Path,
    config: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    samples, mydocs = folders
    index = tmp_path / "index.db"
    cli = ["--config", str(config), "ingest"]
    assert main([*cli, str(samples)]) == 0
    assert main([*cli, "--rebuild", str(mydocs), "--audience", "staff"]) == 0
    built = _rows(index)
    assert sorted(built) == ["mydocs/guide.md", "mydocs/sub/deep.md", "mydocs/sub/pay.md"]
    as_an_older_citecast_read_it(index)
    capsys.readouterr()

    assert main([*cli, str(samples), "--if-missing"]) == 0
    out = capsys.readouterr().out
    assert f"3 files: 3 indexed {REREAD}, 0 unchanged, 0 skipped, 0 removed" in out
    assert (
        "--if-missing: the index exists; read again only its files an older citecast read, "
        f"nothing added from {samples} (`citecast ingest PATH` adds files)\n"
    ) in out
    after = _rows(index)
    assert sorted(after) == sorted(built)  # no sample among the user's documents
    for relpath, (path, fingerprint, audience, url) in after.items():
        assert fingerprint.startswith(reader_mark())
        # read as a run of the user's folder reads them: same file, audience and link
        assert (path, audience, url) == (built[relpath][0], built[relpath][2], built[relpath][3])
    assert after["mydocs/sub/deep.md"][3] == "https://docs.example.com/sub/deep.html"
    assert after["mydocs/guide.md"][2] == "|staff|"  # the --audience of the run that read it
    assert after["mydocs/sub/pay.md"][2] == "|hr|"
    # the files without front matter are fingerprinted as `ingest mydocs --audience staff` does
    for relpath in ("mydocs/guide.md", "mydocs/sub/deep.md"):
        assert after[relpath][1] == built[relpath][1]

    # current now: the fast path of every later start
    assert main([*cli, str(samples), "--if-missing"]) == 0
    assert capsys.readouterr().out.startswith(f"index {index} exists (3 files")


def test_a_file_gone_since_is_dropped_and_a_symlink_is_left_for_its_folder(
    folders: tuple[Path, Path],
    tmp_path: Path,
    config: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    samples, mydocs = folders
    (mydocs / "link.md").symlink_to(mydocs / "sub" / "deep.md")
    index = tmp_path / "index.db"
    cli = ["--config", str(config), "ingest"]
    assert main([*cli, str(mydocs)]) == 0
    as_an_older_citecast_read_it(index)
    (mydocs / "guide.md").unlink()
    capsys.readouterr()

    assert main([*cli, str(samples), "--if-missing"]) == 0
    out = capsys.readouterr().out
    assert "2 files: 2 indexed (2 re-read: this citecast reads some files differently)" in out
    assert "0 skipped, 1 removed" in out
    assert (
        "  not re-read mydocs/link.md: a symlink; run `citecast ingest PATH` with the folder it "
        "was ingested from\n"
    ) in out
    rows = _rows(index)
    assert sorted(rows) == ["mydocs/link.md", "mydocs/sub/deep.md", "mydocs/sub/pay.md"]
    # read alone, the link would have been read through its target, under the target's path
    assert rows["mydocs/link.md"][0] == str(mydocs / "link.md")
    assert rows["mydocs/link.md"][1].startswith("old:")
