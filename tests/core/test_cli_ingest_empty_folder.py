"""``citecast ingest FOLDER`` warns when the folder holds nothing it reads.

Found twice by a QA pass: ``citecast ingest emptydir`` (a mistyped folder, or the wrong one)
exited 0 saying only ``0 files: 0 indexed, …``. It still exits 0, as a folder emptied on
purpose must, with one line naming the folder and why nothing was read from it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

EMPTY = "warning: folder {} is empty; nothing was read from it"
OTHER_TYPES = (
    "warning: folder {} holds no file citecast reads (Markdown, text, HTML or PDF); "
    "nothing was read from it"
)
HIDDEN_ONLY = (
    "warning: folder {} holds only what citecast never reads (hidden files and folders, "
    "node_modules, __pycache__); nothing was read from it"
)


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nHerons wade in shallow water.\n", "utf-8")


def _warnings(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return [line for line in out.splitlines() if line.startswith("warning: folder")]


def test_an_empty_folder_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "emptydir").mkdir()
    assert _warnings(["ingest", "emptydir/"], capsys) == [EMPTY.format("emptydir/")]


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (["report.docx", "rows.csv"], OTHER_TYPES),
        ([".env", ".git/config", "node_modules/pkg/README.md"], HIDDEN_ONLY),
    ],
    ids=["other-types", "hidden-only"],
)
def test_a_folder_of_nothing_citecast_reads_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: list[str], expected: str
) -> None:
    for name in files:
        (tmp_path / "kb" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "kb" / name).write_text("x\n", encoding="utf-8")
    assert _warnings(["ingest", "kb"], capsys) == [expected.format("kb")]


def test_only_the_folder_without_documents_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "emptydir").mkdir()
    (tmp_path / "notes.txt").write_text("Cranes fly south.\n", encoding="utf-8")
    argv = ["ingest", "docs", "emptydir", "notes.txt", "docs/guide.md"]
    assert _warnings(argv, capsys) == [EMPTY.format("emptydir")]


def test_if_missing_warns_only_when_it_reads_the_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "emptydir").mkdir()
    # no index yet: --if-missing builds it from the PATHs, so an empty one is worth a word
    assert _warnings(["ingest", "emptydir", "--if-missing"], capsys) == [EMPTY.format("emptydir")]
    # the index exists: nothing is read from the PATHs, and nothing is said of them
    assert _warnings(["ingest", "emptydir", "--if-missing"], capsys) == []
    assert _warnings(["ingest", "docs", "--if-missing"], capsys) == []
