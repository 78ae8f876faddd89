"""A re-ingest without ``--audience`` never widens a file's audience silently.

Found in an upgrade QA (old release -> main, same deployment folder): ``citecast ingest
--audience hr hr``, then ``citecast ingest hr`` (as the README's "Upgrading" note says: run
ingest again with your folders) made every file of ``hr/`` public, since a file with no front
matter audience and no matching rule took ``public``. A run with ``--audience`` now remembers
it for its folders, and a run without one keeps it (and says so, one line per folder);
``--audience public`` still widens on purpose.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.core.cli_runner import run_cli


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A deployment folder: config.yaml (no rules), ``hr/`` and ``docs/``, as the cwd."""
    (tmp_path / "config.yaml").write_text("index:\n  path: index.db\n", "utf-8")
    (tmp_path / "hr").mkdir()
    (tmp_path / "hr" / "pay.md").write_text("# Pay\n\nThe walrus salary is 9000 euros.\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "hours.md").write_text("# Hours\n\nThe heron desk opens at nine.\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _audiences(index: Path) -> dict[str, str]:
    """relpath -> the stored audience column of every indexed file."""
    conn = sqlite3.connect(index)
    try:
        rows = conn.execute(
            "SELECT f.relpath, c.audience FROM files f JOIN chunks c ON c.file_id = f.id "
            "GROUP BY f.id"
        ).fetchall()
    finally:
        conn.close()
    return {str(relpath): str(audience) for relpath, audience in rows}


def _ingest(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run_cli(monkeypatch, capsys, ["--config", "config.yaml", "ingest", *args])
    assert code == 0, err
    return out


KEPT_HR = (
    "ingested with --audience hr; its files without a front matter audience or a matching rule "
    "keep hr: pass --audience hr again, or --audience public to widen it\n"
)


def test_a_reingest_without_audience_keeps_the_folders_audience(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ingest(monkeypatch, capsys, "--audience", "hr", "hr")
    assert _audiences(site / "index.db") == {"hr/pay.md": "|hr|"}
    # a file added since has no audience of its own in the index: its folder's is kept too
    (site / "hr" / "bonus.md").write_text("# Bonus\n\nThe walrus bonus is paid in June.\n")
    out = _ingest(monkeypatch, capsys, "hr")
    assert _audiences(site / "index.db") == {"hr/pay.md": "|hr|", "hr/bonus.md": "|hr|"}
    # loud, not silent: one line for the folder
    assert f"  note on {site / 'hr'}: {KEPT_HR}" in out
    assert "1 indexed, 1 unchanged" in out  # pay.md's audience did not change: not re-read


def test_audience_public_still_widens_on_purpose_and_is_kept_so(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ingest(monkeypatch, capsys, "--audience", "hr", "hr")
    out = _ingest(monkeypatch, capsys, "--audience", "public", "hr")
    assert _audiences(site / "index.db") == {"hr/pay.md": "|public|"}
    assert "note on" not in out
    out = _ingest(monkeypatch, capsys, "hr")
    assert _audiences(site / "index.db") == {"hr/pay.md": "|public|"}
    assert "note on" not in out


def test_a_folder_ingested_with_its_parent_later_keeps_its_own_audience(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (site / "docs" / "hr").mkdir()
    (site / "docs" / "hr" / "pay.md").write_text("# Pay\n\nThe walrus salary is 9000.\n")
    _ingest(monkeypatch, capsys, "--audience", "hr", "docs/hr")
    _ingest(monkeypatch, capsys, "docs")
    assert _audiences(site / "index.db") == {
        "hr/pay.md": "|hr|",  # its relpath is kept from the first run
        "docs/hours.md": "|public|",
    }
    # an --audience for the parent replaces what was remembered for the folders inside it
    _ingest(monkeypatch, capsys, "--audience", "staff", "docs")
    _ingest(monkeypatch, capsys, "docs")
    assert set(_audiences(site / "index.db").values()) == {"|staff|"}


def test_a_rebuild_without_audience_keeps_it_too(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ingest(monkeypatch, capsys, "--audience", "hr", "hr")
    _ingest(monkeypatch, capsys, "--rebuild", "hr")  # built in a new file: read from the old
    assert _audiences(site / "index.db") == {"hr/pay.md": "|hr|"}
    _ingest(monkeypatch, capsys, "hr")  # and remembered in the new index
    assert _audiences(site / "index.db") == {"hr/pay.md": "|hr|"}


def test_an_index_an_older_citecast_wrote_keeps_each_files_audience(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ingest(monkeypatch, capsys, "--audience", "hr", "hr")
    conn = sqlite3.connect(site / "index.db")
    try:  # the older release remembered no --audience, and its reader was older
        conn.execute("DELETE FROM meta WHERE key LIKE 'audience:%'")
        conn.execute("UPDATE files SET fingerprint = 'r14:' || fingerprint")
        conn.commit()
    finally:
        conn.close()
    out = _ingest(monkeypatch, capsys, "hr")
    assert _audiences(site / "index.db") == {"hr/pay.md": "|hr|"}
    assert (
        "  note on earlier runs: 1 file (hr/pay.md) without a front matter audience or a "
        "matching rule "
        "keeps the audience hr the index has for it: pass --audience hr, or --audience "
        "public to widen it\n"
    ) in out


def test_a_front_matter_audience_is_not_named_as_kept(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (site / "docs" / "staff.md").write_text("---\naudience: staff\n---\n# Staff\n\nHeron keys.\n")
    _ingest(monkeypatch, capsys, "docs")
    out = _ingest(monkeypatch, capsys, "docs")
    assert _audiences(site / "index.db")["docs/staff.md"] == "|staff|"
    assert "note on" not in out
    # its front matter removed, the file keeps the audience the index has for it, and says so
    (site / "docs" / "staff.md").write_text("# Staff\n\nHeron keys.\n")
    out = _ingest(monkeypatch, capsys, "docs")
    assert _audiences(site / "index.db")["docs/staff.md"] == "|staff|"
    assert "  note on earlier runs: 1 file (docs/staff.md) without a front matter audience" in out
    out = _ingest(monkeypatch, capsys, "--audience", "public", "docs")
    assert _audiences(site / "index.db")["docs/staff.md"] == "|public|"
