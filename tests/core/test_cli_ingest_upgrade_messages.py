"""What ``citecast ingest`` says after an upgrade, as an upgrade QA pass replayed it.

Found: ``--if-missing`` (what ``make serve`` runs) re-read the files an older citecast read but
never warned of an ``index.url_templates`` glob that gives no file its URL, as a plain run does
(it ran with one ``*`` glob per URL); a re-read that made a public file private did not say so,
though the file had been shown to everyone until then; a partial re-read (``citecast ingest
kb/guides``) said nothing of the older files it left; and ``--rebuild`` of an index every
account can read gave the rebuilt index the old mode without the note a plain run prints.
The upgrade is simulated as the QA did: the stored fingerprints rewritten to ``old:…``.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from tests.knowledge.older_reader import as_an_older_citecast_read_it

TYPO_WARNING = (
    "warning: url_templates glob gudes/*.md gave no file in this run nor any other indexed file "
    "its URL; globs match a file's path inside each folder that holds it, up to the working "
    "directory or the config file's folder, and the first path a glob matches decides\n"
)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _config(tmp_path: Path, body: str = "") -> Path:
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n{body}", encoding="utf-8")
    return config


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    folder = tmp_path / "kb"
    _write(folder / "guides" / "setup.md", "# Setup\n\nHeron setup takes 5 minutes.\n")
    _write(folder / "faq.md", "# FAQ\n\nEgret answers are sent twice.\n")
    return folder


def test_if_missing_warns_of_a_url_template_that_links_nothing_as_a_plain_run(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(
        tmp_path,
        "  url_templates:\n"
        '    "guides/*.md": "https://docs.example.com/{stem}.html"\n'
        '    "gudes/*.md": "https://docs.example.com/old/{stem}.html"\n',
    )
    samples = tmp_path / "samples"
    _write(samples / "install.md", "# Install\n\nRun the sample installer.\n")
    cli = ["--config", str(config), "ingest"]
    assert main([*cli, str(kb)]) == 0
    assert TYPO_WARNING in capsys.readouterr().out  # what a plain run says
    as_an_older_citecast_read_it(tmp_path / "index.db")

    assert main([*cli, str(samples), "--if-missing"]) == 0
    out = capsys.readouterr().out
    assert "2 files: 2 indexed (2 re-read: " in out
    assert out.count(TYPO_WARNING) == 1
    # the glob that does link is not named, and still gives the file its URL
    assert "glob guides/*.md" not in out
    conn = sqlite3.connect(tmp_path / "index.db")
    try:
        urls = dict(
            conn.execute("SELECT f.relpath, c.url FROM files f JOIN chunks c ON c.file_id = f.id")
        )
    finally:
        conn.close()
    assert urls == {
        "kb/faq.md": None,
        "kb/guides/setup.md": "https://docs.example.com/guides/setup.html",
    }


@pytest.mark.parametrize("if_missing", [False, True], ids=["ingest kb", "--if-missing"])
def test_a_re_read_names_the_files_whose_audience_narrowed(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], if_missing: bool
) -> None:
    _write(kb / "internal" / "pay.md", "# Pay\n\nIbis pay is monthly.\n")
    _write(kb / "hr" / "leave.md", "# Leave\n\nCrane leave is 30 days.\n")
    # the older reader gave these files audiences its rules gave: pay.md public, leave.md staff
    # and hr; the new one reads the rules below (pay.md: staff; leave.md: hr, staff lost it)
    older = _config(tmp_path, '  audience_rules:\n    - {glob: "hr/*", audience: [staff, hr]}\n')
    assert main(["--config", str(older), "ingest", str(kb)]) == 0
    as_an_older_citecast_read_it(tmp_path / "index.db")
    config = _config(
        tmp_path,
        "  audience_rules:\n"
        '    - {glob: "internal/*", audience: [staff]}\n'
        '    - {glob: "hr/*", audience: [hr]}\n',
    )
    capsys.readouterr()
    paths = [str(tmp_path / "samples"), "--if-missing"] if if_missing else [str(kb)]
    (tmp_path / "samples").mkdir()
    assert main(["--config", str(config), "ingest", *paths]) == 0
    out = capsys.readouterr().out
    assert (
        "note: 2 files are now narrower than before: kb/hr/leave.md staff or hr → hr and "
        "kb/internal/pay.md public → staff\n"
    ) in out
    # current now: a run that reads nothing again names nothing
    assert main(["--config", str(config), "ingest", str(kb)]) == 0
    assert "narrower" not in capsys.readouterr().out


def test_the_note_names_three_files_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = tmp_path / "kb"
    for name in ("a", "b", "c", "d", "e"):
        _write(kb / "internal" / f"{name}.md", f"# {name}\n\nPage {name} of the pay guide.\n")
    _write(kb / "open.md", "# Open\n\nEveryone may read this.\n")
    assert main(["--config", str(_config(tmp_path)), "ingest", str(kb)]) == 0
    as_an_older_citecast_read_it(tmp_path / "index.db")
    config = _config(tmp_path, '  audience_rules:\n    - {glob: "internal/*", audience: [hr]}\n')
    capsys.readouterr()
    assert main(["--config", str(config), "ingest", str(kb)]) == 0
    assert (
        "note: 5 files are now narrower than before: kb/internal/a.md public → hr, "
        "kb/internal/b.md public → hr, kb/internal/c.md public → hr and 2 more\n"
    ) in capsys.readouterr().out


def test_a_partial_re_read_names_the_command_for_the_files_it_left(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("one", "two", "three", "four"):
        _write(kb / "more" / f"{name}.md", f"# {name}\n\nPage {name}.\n")
    config = _config(tmp_path)
    monkeypatch.chdir(tmp_path)  # as the user types it: `citecast ingest kb`
    assert main(["--config", str(config), "ingest", "kb"]) == 0
    as_an_older_citecast_read_it(tmp_path / "index.db")
    capsys.readouterr()

    assert main(["--config", str(config), "ingest", "kb/guides"]) == 0
    out = capsys.readouterr().out
    assert "1 file: 1 indexed (1 re-read: " in out
    assert (
        "5 more indexed files were read by an older citecast: run "
        f"`citecast --config {config} ingest kb`\n"
    ) in out
    # the one left read alone: "1 more", and the folder it is in named, not the file
    assert main(["--config", str(config), "ingest", "kb/more"]) == 0
    assert (
        f"1 more indexed file was read by an older citecast: run `citecast --config {config} "
        "ingest kb`\n"
    ) in capsys.readouterr().out
    assert main(["--config", str(config), "ingest", "kb"]) == 0
    assert "read by an older citecast" not in capsys.readouterr().out


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every account can enter, as a home folder often is (pytest's are closed)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name).resolve()
        folder.chmod(0o755)
        yield folder


def test_rebuild_of_an_index_every_account_can_read_says_so(
    open_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(open_folder / "kb" / "pay.md", "# Pay\n\nThe walrus salary is 9000 euros.\n")
    data = open_folder / "data"
    data.mkdir()
    data.chmod(0o755)  # as an older citecast left it
    index = data / "index.db"
    config = open_folder / "config.yaml"
    config.write_text(f"index:\n  path: {index}\n", encoding="utf-8")
    cli = ["--config", str(config), "ingest"]
    assert main([*cli, str(open_folder / "kb")]) == 0
    index.chmod(0o644)
    note = (
        f"  note on {index}: readable by every account on this host (mode 0644); run "
        f"`chmod 700 {data}` (or `chmod 600` it and its -wal and -shm files)\n"
    )
    capsys.readouterr()
    assert main([*cli, str(open_folder / "kb")]) == 0
    assert note in capsys.readouterr().out  # a plain run says so
    assert main([*cli, "--rebuild", str(open_folder / "kb")]) == 0
    out = capsys.readouterr().out
    assert out.count(note) == 1
    assert index.stat().st_mode & 0o777 == 0o644  # the mode it was given is kept


def test_a_rebuild_after_a_schema_change_names_the_files_whose_audience_narrowed(
    kb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the upgrade QA's schema 3 index: an older reader had made internal/pay.md public
    _write(kb / "internal" / "pay.md", "# Pay\n\nIbis pay is monthly.\n")
    assert main(["--config", str(_config(tmp_path)), "ingest", str(kb)]) == 0
    with sqlite3.connect(tmp_path / "index.db") as conn:
        conn.execute("PRAGMA user_version = 3")
    conn.close()
    config = _config(tmp_path, '  audience_rules:\n    - {glob: "internal/*", audience: [staff]}\n')
    capsys.readouterr()
    assert main(["--config", str(config), "ingest", str(kb)]) == 2
    assert f"rebuild it: `citecast --config {config} ingest --rebuild {kb}`" in (
        capsys.readouterr().err
    )
    assert main(["--config", str(config), "ingest", "--rebuild", str(kb)]) == 0
    assert (
        "note: 1 file is now narrower than before: kb/internal/pay.md public → staff\n"
    ) in capsys.readouterr().out
