"""A run compacts the index only for space it freed itself, not another run's beside it.

Found by QA: a small ``citecast ingest`` finishing while a large one ran said "index compacted:
18,996 KB that this run freed" of space the large run had freed. Here the large run replaces big
files with small ones and, with those committed, waits while the small run ends; each run has
its own thread and its own connection to the one index file.
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.compaction import MIN_FREE_BYTES
from bot.knowledge.ingest_report import IngestReport

# the package's ``ingest`` is the function: the module is taken by its full name
ingest_module = importlib.import_module("bot.knowledge.ingest")


def _write_logs(kb: Path, words: int) -> None:
    for n in range(12):
        text = " ".join(f"word{n}x{i}" for i in range(words))
        (kb / f"log{n}.md").write_text(f"# Log {n}\n\n{text}.\n", encoding="utf-8")


def test_a_small_run_beside_a_large_one_gives_back_none_of_the_large_ones_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    large = tmp_path / "large"
    large.mkdir()
    _write_logs(large, 10_000)  # about 1.2 MB of passages, then replaced by a few words each
    (large / "zz.md").write_text("# Last\n\nOtters swim in the river.\n", encoding="utf-8")
    small = tmp_path / "small"
    small.mkdir()
    (small / "a.md").write_text("Herons wade in the pond.\n", encoding="utf-8")
    (small / "b.md").write_text("Badgers dig in the wood.\n", encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([large], settings)
    _write_logs(large, 5)
    monkeypatch.setattr(ingest_module, "BATCH_FILES", 1)  # every file committed on its own
    large_reached_last = threading.Event()
    small_done = threading.Event()
    outcome: dict[str, IngestReport | BaseException] = {}

    def large_run() -> None:
        def on_file(relpath: str) -> None:
            if relpath.endswith("zz.md"):  # the logs' replacements are committed
                large_reached_last.set()
                small_done.wait(timeout=60)

        try:
            outcome["large"] = ingest([large], settings, on_file=on_file)
        except BaseException as exc:
            outcome["large"] = exc

    other = threading.Thread(target=large_run)

    def small_on_file(relpath: str) -> None:
        if relpath.endswith("b.md"):  # a.md is committed: no transaction holds the lock
            other.start()
            assert large_reached_last.wait(timeout=60)

    try:
        small_report = ingest([small], settings, on_file=small_on_file)
    finally:
        small_done.set()
        other.join(timeout=60)
    large_report = outcome["large"]
    assert isinstance(large_report, IngestReport), large_report
    assert (small_report.indexed, large_report.indexed) == (2, 12)
    assert small_report.compacted == 0
    assert large_report.compacted > MIN_FREE_BYTES
    index = KnowledgeIndex(settings.path)
    try:
        for words in ("herons pond", "otters river", "badgers wood"):
            assert len(index.search(words)) == 1, words
        assert index.search("word3x17") == []
    finally:
        index.close()
