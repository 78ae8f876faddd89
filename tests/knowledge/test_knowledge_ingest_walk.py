"""What the folder walk leaves out, and that it always says so: names that are not UTF-8,
folders that cannot be listed, symlinked folders, broken symlinks, node_modules."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.ingest import BAD_NAME, BROKEN_LINK, OUTSIDE_ROOT, Skipped, count_files

LATIN1_NAME = os.fsdecode(b"caf\xe9.md")  # a Latin-1 file name from an old archive


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _config(tmp_path: Path) -> str:
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    return str(config)


def test_a_file_name_that_is_not_utf8_is_skipped_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "kb"
    _write(docs / "guide.md", "Okapi guide.\n")
    _write(docs / LATIN1_NAME, "Okapi menu.\n")
    assert main(["--config", _config(tmp_path), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert "2 files: 1 indexed, 0 unchanged, 1 skipped" in out
    assert f"skipped kb/caf\\xe9.md: {BAD_NAME}" in out
    found = KnowledgeIndex(tmp_path / "index.db").search("okapi")
    assert [s.filename for s in found] == ["guide.md"]


def test_a_folder_name_that_is_not_utf8_is_left_out_once(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    _write(docs / "guide.md", "Okapi guide.\n")
    for n in range(3):
        _write(docs / os.fsdecode(b"r\xe9sum\xe9s") / f"{n}.md", "Okapi.\n")
    report = ingest([docs], IndexSettings(path=str(tmp_path / "i.db")))
    assert report.indexed == 1 and report.skipped == []
    assert report.folders_skipped == [Skipped("kb/r\\xe9sum\\xe9s/", BAD_NAME)]


def test_a_root_whose_name_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    docs = tmp_path / os.fsdecode(b"kb\xe9")
    _write(docs / "guide.md", "Okapi guide.\n")
    with pytest.raises(KnowledgeIndexError, match=r"kb\\xe9: name is not valid UTF-8"):
        ingest([docs], IndexSettings(path=str(tmp_path / "i.db")))
    assert not (tmp_path / "i.db").exists()


@pytest.fixture
def unlistable(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """Folders (absolute paths) that cannot be listed, as without read permission; by
    os.scandir, since tests may run as root, who can list anything."""
    refused: set[str] = set()
    real = os.scandir

    def scandir(path: str) -> object:
        if os.fspath(path) in refused:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    yield refused


def test_a_folder_that_cannot_be_listed_is_reported(
    tmp_path: Path, unlistable: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "kb"
    _write(docs / "guide.md", "Okapi guide.\n")
    _write(docs / "private" / "plan.md", "Okapi plan.\n")
    unlistable.add(str(docs / "private"))
    assert main(["--config", _config(tmp_path), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert "1 file: 1 indexed, 0 unchanged, 0 skipped" in out
    assert "1 folder not read\n  skipped kb/private/: cannot read folder: Permission denied" in out


def test_an_unlistable_root_says_so_instead_of_finding_nothing(
    tmp_path: Path, unlistable: set[str]
) -> None:
    docs = tmp_path / "kb"
    _write(docs / "guide.md", "Okapi guide.\n")
    unlistable.add(str(docs))
    report = ingest([docs], IndexSettings(path=str(tmp_path / "i.db")))
    assert report.files == 0
    assert report.folders_skipped == [Skipped("kb/", "cannot read folder: Permission denied")]


def test_a_symlinked_folder_outside_the_root_is_reported(tmp_path: Path) -> None:
    docs, shared = tmp_path / "kb", tmp_path / "shared"
    _write(docs / "guide.md", "Okapi guide.\n")
    _write(shared / "common.md", "Okapi common.\n")
    _write(docs / "real" / "inside.md", "Okapi inside.\n")
    (docs / "shared").symlink_to(shared)
    (docs / "alias").symlink_to(docs / "real")  # inside: walked where it lies, no message
    report = ingest([docs], IndexSettings(path=str(tmp_path / "i.db")))
    assert report.indexed == 2 and report.skipped == []
    assert report.folders_skipped == [Skipped("kb/shared/", OUTSIDE_ROOT)]


def test_a_broken_symlink_and_a_loop_say_what_they_are(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    _write(docs / "guide.md", "Okapi guide.\n")
    (docs / "moved.md").symlink_to("renamed.md")
    (docs / "a.md").symlink_to("b.md")
    (docs / "b.md").symlink_to("a.md")
    report = ingest([docs], IndexSettings(path=str(tmp_path / "i.db")))
    assert {s.path: s.reason for s in report.skipped} == {
        "kb/moved.md": BROKEN_LINK,
        "kb/a.md": "symlink loop",
        "kb/b.md": "symlink loop",
    }


def test_node_modules_is_not_walked(tmp_path: Path) -> None:
    docs = tmp_path / "site"
    _write(docs / "docs" / "intro.md", "Okapi intro.\n")
    _write(docs / "node_modules" / "left-pad" / "README.md", "Okapi padding library.\n")
    _write(docs / "docs" / "node_modules" / "x" / "LICENSE.txt", "Okapi licence.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    report = ingest([docs], settings)
    assert (report.files, report.ignored, report.skipped) == (1, 0, [])
    found = KnowledgeIndex(settings.path).search("okapi")
    assert [s.filename for s in found] == ["intro.md"]


def test_overlapping_arguments_read_and_count_each_file_once(tmp_path: Path) -> None:
    docs, shared = tmp_path / "kb", tmp_path / "shared"
    _write(docs / "guide.md", "Okapi guide.\n")
    _write(docs / "sub" / "faq.md", "Okapi questions.\n")
    _write(shared / "common.md", "Okapi common.\n")
    (docs / "empty.md").write_text("", encoding="utf-8")
    (docs / "shared").symlink_to(shared)
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    roots = [docs / "sub", docs, docs, docs / "guide.md"]
    assert count_files([p.resolve() for p in roots], Path(settings.path)) == 3
    report = ingest(roots, settings)
    assert (report.files, report.indexed, report.unchanged) == (3, 2, 0)
    assert report.skipped == [Skipped("kb/empty.md", "empty file")]
    assert report.folders_skipped == [Skipped("kb/shared/", OUTSIDE_ROOT)]
    assert KnowledgeIndex(settings.path).stats().files == 2
