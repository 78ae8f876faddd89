"""A Markdown file hidden whole by an HTML comment never closed says where the comment opened.

Found by QA (newqa): a file starting with ``<!--`` and no ``-->`` was skipped as plain "no
text", though the README promises that the summary names where such a comment opened. It did
only when some text came before the comment, as an "indexed in part" warning: with nothing
indexed, the reader's warning was dropped with the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runner import run_cli


def test_a_file_hidden_whole_by_an_unclosed_comment_says_where_it_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("\n<!-- draft\n# A\n\nAbout apples.\n")
    (tmp_path / "docs" / "b.md").write_text("# B\n\nAbout bananas.\n")
    code, out, err = run_cli(monkeypatch, capsys, ["ingest", "docs"])
    assert code == 0, err
    skipped = [line for line in out.splitlines() if line.startswith("  skipped")]
    assert skipped == [
        "  skipped docs/a.md: no text: the HTML comment opened on line 2 is never closed (-->): "
        "the text after it is left out, as a Markdown renderer hides it"
    ]


def test_a_file_of_front_matter_alone_still_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "stub.md").write_text("---\ntitle: Stub\n---\n")
    code, out, err = run_cli(monkeypatch, capsys, ["ingest", "docs"])
    assert code == 0, err
    assert "  skipped docs/stub.md: no text (only front matter)" in out.splitlines()
