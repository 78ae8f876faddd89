"""A rebuilt index's old file is let go by every thread, idle ones included.

A server searches from worker threads, one connection each. After `citecast ingest --rebuild`
each thread reopened only on its next search, so a thread that stayed idle held the replaced
file open: its disk space (a whole index) was not freed until then. Now the thread that opens
the new file closes the other threads' idle connections to the old one; a connection in use is
left to its read.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest


def _deleted_files_open() -> list[str]:
    """Files this process holds open that have been deleted or replaced (Linux's /proc)."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed meanwhile (the listing's own descriptor)
        if target.endswith(" (deleted)"):
            held.append(target)
    return held


def _index_files_held(path: Path) -> list[str]:
    return [t for t in _deleted_files_open() if t.startswith(str(path))]


@contextmanager
def _idle_thread(do: Callable[[], object]) -> Iterator[None]:
    """A thread that runs ``do`` once and then stays alive, idle, for the block."""
    ran, stop = threading.Event(), threading.Event()

    def work() -> None:
        do()
        ran.set()
        stop.wait(30)

    thread = threading.Thread(target=work)
    thread.start()
    try:
        assert ran.wait(30)
        yield
    finally:
        stop.set()
        thread.join()


@dataclass(frozen=True)
class Kb:
    """A knowledge base folder, its index settings and the index open on it."""

    docs: Path
    settings: IndexSettings
    index: KnowledgeIndex

    def rebuild_with_badgers(self) -> None:
        """`citecast ingest --rebuild` with a new file: the index file is replaced."""
        (self.docs / "b.md").write_text("Badgers dig setts.\n")
        ingest([self.docs], self.settings, rebuild=True)

    def old_files_held(self) -> list[str]:
        """Replaced index files this process still holds open."""
        return _index_files_held(Path(self.settings.path))


@pytest.fixture
def kb(tmp_path: Path) -> Iterator[Kb]:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "a.md").write_text("Aardvarks dig burrows at night.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([docs], settings)
    index = KnowledgeIndex(settings.path)
    yield Kb(docs, settings, index)


def test_an_idle_threads_connection_to_a_replaced_index_is_closed(
    kb: Kb,
) -> None:
    index = kb.index
    with _idle_thread(lambda: index.search("aardvarks")):
        kb.rebuild_with_badgers()
        # the worker's connection (and this thread's) still reads the replaced file
        assert kb.old_files_held()
        assert [s.filename for s in index.search("badgers")] == ["b.md"]
        # the search opened the new file and let the old one go in every thread
        assert kb.old_files_held() == []


def test_the_idle_thread_reads_the_new_index_on_its_next_search(
    kb: Kb,
) -> None:
    index = kb.index
    found: list[list[str]] = []
    searched, rebuilt = threading.Event(), threading.Event()

    def search_twice() -> None:
        found.append(sorted(str(s.filename) for s in index.search("dig")))
        searched.set()
        rebuilt.wait(30)
        found.append(sorted(str(s.filename) for s in index.search("dig")))

    worker = threading.Thread(target=search_twice)
    worker.start()
    assert searched.wait(30)
    kb.rebuild_with_badgers()
    index.search("badgers")  # closes the worker's idle connection to the old file
    rebuilt.set()
    worker.join()
    assert found == [["a.md"], ["a.md", "b.md"]]


def test_a_connection_in_use_is_not_closed_under_its_read(
    kb: Kb,
) -> None:
    index = kb.index
    with index._reading() as conn:  # a read in progress on the old file
        kb.rebuild_with_badgers()
        # a search on the new file, nested in this thread's read, leaves the outer one open
        assert [s.filename for s in index.search("badgers")] == ["b.md"]
        assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
    # the read over, nothing holds the old file any more
    assert kb.old_files_held() == []


def test_a_read_under_way_during_the_switch_lets_the_old_file_go_when_it_ends(
    kb: Kb,
) -> None:
    index = kb.index
    reading, switched = threading.Event(), threading.Event()

    def long_read() -> None:
        with index._reading() as conn:  # a search of the old file, still running
            reading.set()
            switched.wait(30)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()

    worker = threading.Thread(target=long_read)
    worker.start()
    assert reading.wait(30)
    kb.rebuild_with_badgers()
    assert [s.filename for s in index.search("badgers")] == ["b.md"]
    assert kb.old_files_held()  # the read under way keeps it
    switched.set()
    worker.join()
    # its read over, the worker (idle now) no longer holds the replaced file
    assert kb.old_files_held() == []


def test_a_finished_threads_connection_is_closed(kb: Kb) -> None:
    # worker threads come and go (anyio ends one idle for 10 s): each one's connection must
    # not outlive it
    index = kb.index
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        worker = threading.Thread(target=lambda: index.search("aardvarks"))
        worker.start()
        worker.join()
    # each new thread's first read lets the finished ones' connections go
    assert len(os.listdir("/proc/self/fd")) <= before + 3
