"""Two ingest runs into one index at once: the second waits for the first, neither fails.

Found by QA (newqa): a long ``citecast ingest`` aborted with "database is locked (is another
citecast ingest running?)" when a short one ran beside it, though the index is opened with a
30 s busy timeout. Each file's transaction began deferred (``BEGIN``) and read the file's
stored fingerprint first: when the other run committed between that read and the file's first
write, SQLite refused the write at once (its snapshot was stale), without waiting. Here the
short run is started while the long one is reading a file, each run in its own thread with its
own connection to the one index file.
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

import pytest

import bot.knowledge.ingest_file as ingest_file_module
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Document
from bot.knowledge.ingest_report import IngestReport
from bot.knowledge.pdf_reader import PageCallback
from bot.knowledge.readers import read_document

# the package's ``ingest`` is the function: the module is taken by its full name
ingest_module = importlib.import_module("bot.knowledge.ingest")


def _folder(root: Path, names: dict[str, str]) -> Path:
    root.mkdir()
    for name, text in names.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_run_started_while_another_reads_a_file_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_kb = _folder(
        tmp_path / "long",
        {"a.md": "Herons wade in the pond.\n", "z.md": "Otters swim in the river.\n"},
    )
    short_kb = _folder(tmp_path / "short", {"b.md": "Badgers dig in the wood.\n"})
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    monkeypatch.setattr(ingest_module, "BATCH_FILES", 1)  # a.md is committed before z.md
    outcome: dict[str, IngestReport | BaseException] = {}

    def short_run() -> None:
        try:
            outcome["short"] = ingest([short_kb], settings)
        except BaseException as exc:
            outcome["short"] = exc

    def read_while_another_runs(
        path: Path, data: bytes, on_page: PageCallback | None = None
    ) -> Document:
        if path.name == "z.md":
            # z.md's stored fingerprint is read already: the other run starts now, and is
            # given time to commit (which it could, before the fix) or to wait for this one
            other.start()
            other.join(timeout=1.5)
        return read_document(path, data, on_page)

    other = threading.Thread(target=short_run)
    monkeypatch.setattr(ingest_file_module, "read_document", read_while_another_runs)
    long_report = ingest([long_kb], settings)
    other.join(timeout=60)
    short_report = outcome["short"]
    assert isinstance(short_report, IngestReport), short_report
    assert (long_report.indexed, short_report.indexed) == (2, 1)
    index = KnowledgeIndex(settings.path)
    try:
        for words in ("herons pond", "otters river", "badgers wood"):
            assert len(index.search(words)) == 1, words
    finally:
        index.close()
