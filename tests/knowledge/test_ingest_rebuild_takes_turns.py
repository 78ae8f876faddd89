"""``citecast ingest --rebuild`` and another ``citecast ingest`` into the same index take turns.

Found by QA: ``citecast ingest --rebuild kb`` builds a new index beside the old one and moves it
over the old one when complete. A ``citecast ingest kb/bulk/b00001.md`` run meanwhile (the file
narrowed to ``audience: staff``, with secret text) said "1 file is now narrower than before",
exit 0, and wrote into the old index; then the rebuild replaced it, silently: the file was
public again with its old text, and a new folder ingested meanwhile was gone. Now a run waits,
saying so, while another builds a new index, and a rebuild waits for the updates running.

Each test holds one run inside a file (its reader waits for an event) in a thread of this
process, and starts the other as a real ``citecast`` process: its first line on stderr says
that it waits, and only then is the held run let go. No step depends on timing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import bot.knowledge.ingest_file as ingest_file_module
from bot.cli import main
from bot.commands.ingest_lock import lock_path
from bot.knowledge import KnowledgeIndex
from bot.knowledge.document import Document
from bot.knowledge.pdf_reader import PageCallback
from bot.knowledge.readers import read_document

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120  # seconds: only how long a broken run may hang before the test fails


@dataclass
class HeldRun:
    """A ``citecast ingest`` run in a thread, held while it reads ``held_file``."""

    args: list[str]
    held_file: str
    reading: threading.Event = field(default_factory=threading.Event)
    resume: threading.Event = field(default_factory=threading.Event)
    status: list[int | BaseException] = field(default_factory=list)

    def start(self, monkeypatch: pytest.MonkeyPatch) -> threading.Thread:
        def read_held(path: Path, data: bytes, on_page: PageCallback | None = None) -> Document:
            if path.name == self.held_file:
                self.reading.set()
                assert self.resume.wait(WAIT), "the held run was never let go"
            return read_document(path, data, on_page)

        def run() -> None:
            try:
                self.status.append(main(self.args))
            except BaseException as exc:
                self.status.append(exc)

        monkeypatch.setattr(ingest_file_module, "read_document", read_held)
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        assert self.reading.wait(WAIT), self.status
        return thread


@pytest.fixture
def kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder ``kb`` of three public notes, ingested; the working directory is ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    folder = tmp_path / "kb"
    folder.mkdir()
    (folder / "a.md").write_text("# Herons\n\nHerons wade in the pond.\n", encoding="utf-8")
    (folder / "target.md").write_text("# Target\n\nPelicans fish at dawn.\n", encoding="utf-8")
    (folder / "z.md").write_text("# Otters\n\nOtters swim in the river.\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text("index:\n  path: idx/index.db\n", encoding="utf-8")
    assert main(["--config", "config.yaml", "ingest", "kb"]) == 0
    yield folder


def _citecast(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "--config", "config.yaml", *args],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _ids(index: KnowledgeIndex, words: str, audience: tuple[str, ...] = ("public",)) -> list[str]:
    return [source.id for source in index.search(words, audience)]


def test_an_ingest_during_a_rebuild_waits_for_it_and_is_not_lost(
    tmp_path: Path, kb: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rebuild = HeldRun(["--config", "config.yaml", "ingest", "--rebuild", "kb"], "z.md")
    thread = rebuild.start(monkeypatch)
    try:
        (kb / "target.md").write_text(
            "---\naudience: staff\n---\n# Target\n\nSalary bands are secret zebras.\n",
            encoding="utf-8",
        )
        (kb / "newdir").mkdir()
        (kb / "newdir" / "n.md").write_text("# New\n\nQuokkas hop about.\n", encoding="utf-8")
        update = _citecast(tmp_path, "ingest", "kb/target.md", "kb/newdir")
        assert update.stderr is not None
        first_line = update.stderr.readline()  # before the fix: its run had ended by now
    finally:
        rebuild.resume.set()
    thread.join(WAIT)
    out, err = update.communicate(timeout=WAIT)
    assert rebuild.status == [0]
    assert update.returncode == 0, err
    assert "public → staff" in out  # said, and now also so in the index
    index = KnowledgeIndex(tmp_path / "idx" / "index.db")
    try:
        assert _ids(index, "pelicans") == []
        assert _ids(index, "zebras") == []
        assert _ids(index, "zebras", ("staff",)) == ["kb/target.md#1"]
        assert len(_ids(index, "quokkas")) == 1
        assert len(_ids(index, "otters")) == 1  # the rebuild's own work is there too
    finally:
        index.close()
    assert first_line == (
        f"citecast ingest: idx/index.db is being rebuilt by citecast ingest --rebuild "
        f"(pid {os.getpid()}): waiting for it to finish before this run starts\n"
    )


def test_a_rebuild_waits_for_an_update_running_and_keeps_its_audience(
    tmp_path: Path, kb: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "e1.md").write_text("# Plans\n\nBudget plans for walruses.\n", encoding="utf-8")
    (extra / "e2.md").write_text("# More\n\nMore plans for narwhals.\n", encoding="utf-8")
    update = HeldRun(["--config", "config.yaml", "ingest", "extra", "--audience", "staff"], "e2.md")
    thread = update.start(monkeypatch)
    try:
        # the rebuild names the folder the update is adding: it keeps the folder's --audience
        rebuild = _citecast(tmp_path, "ingest", "--rebuild", "kb", "extra")
        assert rebuild.stderr is not None
        first_line = rebuild.stderr.readline()  # before the fix: its run had ended by now
    finally:
        update.resume.set()
    thread.join(WAIT)
    _, err = rebuild.communicate(timeout=WAIT)
    assert update.status == [0]
    assert rebuild.returncode == 0, err
    index = KnowledgeIndex(tmp_path / "idx" / "index.db")
    try:
        assert _ids(index, "walruses") == []  # not made public by the rebuild
        assert _ids(index, "walruses", ("staff",)) == ["extra/e1.md#1"]
        assert _ids(index, "narwhals", ("staff",)) == ["extra/e2.md#1"]
    finally:
        index.close()
    assert first_line == (
        "citecast ingest: another citecast ingest is updating idx/index.db: "
        "waiting for it to finish before this run starts\n"
    )


def test_if_missing_and_searches_do_not_wait_for_a_rebuild(
    tmp_path: Path, kb: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rebuild = HeldRun(["--config", "config.yaml", "ingest", "--rebuild", "kb"], "z.md")
    thread = rebuild.start(monkeypatch)
    try:
        # `make serve` runs this before it serves: it must not wait for the rebuild to finish
        done = _citecast(tmp_path, "ingest", "kb", "--if-missing")
        out, err = done.communicate(timeout=WAIT)
        index = KnowledgeIndex(tmp_path / "idx" / "index.db")
        try:
            found = _ids(index, "herons")  # a server's search, while the rebuild runs
        finally:
            index.close()
        still_building = thread.is_alive() and not rebuild.status
    finally:
        rebuild.resume.set()
    thread.join(WAIT)
    assert (done.returncode, err) == (0, "")
    assert out.startswith("index idx/index.db exists (3 files, 3 chunks); --if-missing")
    assert found == ["kb/a.md#1"]
    assert still_building
    assert rebuild.status == [0]


def test_a_lock_file_a_killed_rebuild_left_makes_no_run_wait(
    tmp_path: Path, kb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    lock_path(tmp_path / "idx" / "index.db").write_text(f"{gone.stdout.strip()} --rebuild")
    capsys.readouterr()
    (kb / "a.md").write_text("# Herons\n\nHerons and egrets wade.\n", encoding="utf-8")
    assert main(["--config", "config.yaml", "ingest", "kb"]) == 0
    assert main(["--config", "config.yaml", "ingest", "--rebuild", "kb"]) == 0
    assert capsys.readouterr().err == ""


def test_two_first_runs_take_turns_and_both_folders_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    for name, text in (("kb", "Herons wade in the pond."), ("more", "Ospreys dive for fish.")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.md").write_text(f"# Birds\n\n{text}\n", encoding="utf-8")
    (tmp_path / "kb" / "z.md").write_text("# Otters\n\nOtters swim.\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text("index:\n  path: idx/index.db\n", encoding="utf-8")
    first = HeldRun(["--config", "config.yaml", "ingest", "kb"], "z.md")
    thread = first.start(monkeypatch)
    try:
        second = _citecast(tmp_path, "ingest", "more")
        assert second.stderr is not None
        first_line = second.stderr.readline()  # before the fix: its run had ended by now
    finally:
        first.resume.set()
    thread.join(WAIT)
    out, err = second.communicate(timeout=WAIT)
    assert first.status == [0]
    assert second.returncode == 0, err
    assert "1 file: 1 indexed" in out  # an update of the index the first run built
    index = KnowledgeIndex(tmp_path / "idx" / "index.db")
    try:
        assert (_ids(index, "herons"), _ids(index, "ospreys")) == (["kb/a.md#1"], ["more/a.md#1"])
    finally:
        index.close()
    assert first_line == (
        f"citecast ingest: idx/index.db is being built by another citecast ingest "
        f"(pid {os.getpid()}): waiting for it to finish before this run starts\n"
    )
