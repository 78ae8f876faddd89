"""``citecast preview --out`` into a folder that is not there names the folder.

Found in a QA pass of the command line: ``--out nodir/page.html`` said "No such file or
directory", which reads as if the page itself were expected to exist; ``citecast eval --out``
already said ``no folder nodir``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main


def test_a_missing_folder_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    assert main(["preview", "--out", "nodir/page.html"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "citecast preview: cannot write nodir/page.html: no folder nodir\n")
    assert list(tmp_path.iterdir()) == []


def test_a_file_where_the_folder_should_be_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    Path("notes.md").write_text("# Notes\n", encoding="utf-8")
    assert main(["preview", "--out", "notes.md/page.html"]) == 2
    err = capsys.readouterr().err
    assert err == "citecast preview: cannot write notes.md/page.html: no folder notes.md\n"
