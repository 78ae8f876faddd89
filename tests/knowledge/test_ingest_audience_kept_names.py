"""The note on audiences kept from earlier runs names the files and counts every one of them.

Found in a security QA pass: removing ``audience: staff`` from a file's front matter keeps it for
staff (failing safe, as intended), but the summary said "note on earlier runs: 1 file without a
front matter audience or a matching rule keeps the audience staff the index has for it" without
naming the file, and a file left in the same state by an earlier run (unchanged since, so not
read again) was not counted, nor was anything said once every such file was unchanged.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.knowledge.ingest_audience import listed
from tests.core.cli_runner import run_cli

STAFF = "---\naudience: staff\n---\n# {0}\n\nThe {0} token.\n"
PLAIN = "# {0}\n\nThe {0} token.\n"
NOTE = (
    "  note on earlier runs: {} without a front matter audience or a matching rule {} the "
    "audience staff the index has for {}: pass --audience staff, or --audience public to "
    "widen it\n"
)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A deployment folder as the cwd: config.yaml (no rules), ``docs/`` of staff files."""
    (tmp_path / "config.yaml").write_text("index:\n  path: index.db\n", "utf-8")
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(site: Path, name: str, text: str) -> None:
    (site / "docs" / name).write_text(text.format(name.split(".")[0]), "utf-8")


def _ingest(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run_cli(monkeypatch, capsys, ["--config", "config.yaml", "ingest", *args])
    assert code == 0, err
    return out


def _audiences(site: Path) -> set[str]:
    conn = sqlite3.connect(site / "index.db")
    try:
        return {str(row[0]) for row in conn.execute("SELECT audience FROM chunks")}
    finally:
        conn.close()


def test_each_file_keeping_staff_is_named_and_counted_in_every_run(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a.md", "b.md", "c.md"):
        _write(site, name, STAFF)
    _ingest(monkeypatch, capsys, "docs")
    _write(site, "a.md", PLAIN)
    out = _ingest(monkeypatch, capsys, "docs")
    assert NOTE.format("1 file (docs/a.md)", "keeps", "it") in out
    _write(site, "b.md", PLAIN)  # a.md unchanged since: still without one, still counted
    out = _ingest(monkeypatch, capsys, "docs")
    assert out.startswith("3 files: 1 indexed, 2 unchanged")
    assert NOTE.format("2 files (docs/a.md and docs/b.md)", "keep", "them") in out
    out = _ingest(monkeypatch, capsys, "docs")  # nothing read: the state is the same
    assert out.startswith("3 files: 0 indexed, 3 unchanged")
    assert NOTE.format("2 files (docs/a.md and docs/b.md)", "keep", "them") in out
    assert _audiences(site) == {"|staff|"}  # failing safe, as intended
    _write(site, "a.md", STAFF)  # its own audience again: no longer named
    out = _ingest(monkeypatch, capsys, "docs")
    assert NOTE.format("1 file (docs/b.md)", "keeps", "it") in out
    out = _ingest(monkeypatch, capsys, "--audience", "public", "docs")
    assert "note on" not in out
    assert _audiences(site) == {"|staff|", "|public|"}


def test_many_files_name_the_first_few_and_count_the_rest(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [f"{letter}.md" for letter in "abcde"]
    for name in names:
        _write(site, name, STAFF)
    _ingest(monkeypatch, capsys, "docs")
    for name in names:
        _write(site, name, PLAIN)
    out = _ingest(monkeypatch, capsys, "docs")
    shown = "5 files (docs/a.md, docs/b.md, docs/c.md and 2 more)"
    assert NOTE.format(shown, "keep", "them") in out


def test_a_name_holding_a_line_break_stays_on_the_notes_line(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(site, "a\nb.md", STAFF)
    _ingest(monkeypatch, capsys, "docs")
    _write(site, "a\nb.md", PLAIN)
    out = _ingest(monkeypatch, capsys, "docs")
    assert NOTE.format("1 file (docs/a\\nb.md)", "keeps", "it") in out


@pytest.mark.parametrize(
    ("names", "text"),
    [
        (["a"], "a"),
        (["a", "b"], "a and b"),
        (["a", "b", "c"], "a, b and c"),
        (["a", "b", "c", "d"], "a, b, c and 1 more"),
    ],
)
def test_listed(names: list[str], text: str) -> None:
    assert listed(names) == text
