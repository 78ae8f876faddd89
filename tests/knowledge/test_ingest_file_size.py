"""``index.max_file_bytes``: a file larger than it is skipped unread, with the reason.

Found in a review of ``citecast ingest``: every file was read whole, so one very large file
(a 20 MB text file) took 13 s and ~140 MB, with no way to leave such files out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.config_file import load_settings
from bot.errors import ConfigError
from bot.knowledge import KnowledgeIndex
from bot.knowledge.document import Unreadable
from bot.knowledge.file_bytes import read_within
from bot.knowledge.ingest import Skipped, ingest
from tests.knowledge.conftest import PdfBuilder

LIMIT = 1000


def text_of(size: int, word: str) -> bytes:
    """A Markdown document of exactly ``size`` bytes that mentions ``word``."""
    head = f"# {word.title()}\n\nAll about {word}.\n\n".encode()
    return head + b"x" * (size - len(head) - 1) + b"\n"


def indexed_files(index_path: Path) -> int:
    index = KnowledgeIndex(index_path)
    try:
        return index.stats().files
    finally:
        index.close()


def test_a_file_over_the_limit_is_skipped_with_the_reason_and_the_rest_ingested(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "big.txt").write_bytes(text_of(LIMIT + 1, "heron"))
    (docs / "edge.md").write_bytes(text_of(LIMIT, "marmot"))  # at the limit: read
    (docs / "small.md").write_bytes(text_of(100, "otter"))
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'i.db'}\n  max_file_bytes: {LIMIT}\n", encoding="utf-8"
    )
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("3 files: 2 indexed, 0 unchanged, 1 skipped, 0 removed;")
    assert lines[1] == (
        "  skipped docs/big.txt: too large: 1,001 bytes, over index.max_file_bytes "
        "(1,000; 0 = no limit)"
    )
    assert len(lines) == 3  # the counts, the skipped file, the index
    assert indexed_files(tmp_path / "i.db") == 2


def test_a_pdf_is_measured_by_its_file_size_not_its_text(
    tmp_path: Path, build_pdf: PdfBuilder
) -> None:
    pdf = build_pdf([("Manual", ["Herons wade in shallow water."])])
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "manual.pdf").write_bytes(pdf)
    settings = IndexSettings(path=str(tmp_path / "i.db"), max_file_bytes=len(pdf) - 1)
    report = ingest([kb], settings)
    assert (report.indexed, report.bytes_read) == (0, 0)  # refused before a byte was read
    assert report.skipped == [
        Skipped(
            "kb/manual.pdf",
            f"too large: {len(pdf):,} bytes, over index.max_file_bytes "
            f"({len(pdf) - 1:,}; 0 = no limit)",
        )
    ]
    report = ingest([kb], settings.model_copy(update={"max_file_bytes": len(pdf)}))
    assert (report.indexed, report.skipped, report.pages) == (1, [], 1)


def test_zero_is_no_limit(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "big.md").write_bytes(text_of(200_000, "heron"))
    report = ingest([kb], IndexSettings(path=str(tmp_path / "i.db"), max_file_bytes=0))
    assert (report.indexed, report.skipped) == (1, [])


def test_a_file_grown_past_a_lowered_limit_leaves_the_index(tmp_path: Path) -> None:
    # as a file that can no longer be read: its old passages must not stay searchable
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "log.txt").write_bytes(text_of(500, "heron"))
    (kb / "guide.md").write_bytes(text_of(100, "otter"))
    settings = IndexSettings(path=str(tmp_path / "i.db"), max_file_bytes=LIMIT)
    assert ingest([kb], settings).indexed == 2
    (kb / "log.txt").write_bytes(text_of(LIMIT + 1, "heron"))
    report = ingest([kb], settings)
    assert (report.unchanged, report.removed, len(report.skipped)) == (1, 1, 1)
    assert indexed_files(tmp_path / "i.db") == 1


def test_a_file_given_alone_over_the_limit_is_skipped_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.md"
    big.write_bytes(text_of(LIMIT + 1, "heron"))
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'i.db'}\n  max_file_bytes: {LIMIT}\n", encoding="utf-8"
    )
    assert main(["--config", str(config), "ingest", str(big)]) == 0
    out = capsys.readouterr().out
    assert "  skipped big.md: too large: 1,001 bytes" in out


def test_the_setting_defaults_to_50_mb_and_refuses_a_negative_size(tmp_path: Path) -> None:
    assert IndexSettings().max_file_bytes == 50_000_000
    config = tmp_path / "config.yaml"
    config.write_text("index:\n  max_file_bytes: -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"index\.max_file_bytes"):
        load_settings(config)


def test_a_file_longer_than_its_stated_size_is_cut_off_one_byte_past_the_limit() -> None:
    # /proc files state a size of 0, as a file still being written states less than it will
    # hold by the end of the read: the read itself stops past the limit
    status = Path("/proc/self/status")
    assert status.stat().st_size == 0
    with pytest.raises(Unreadable, match=r"^too large: more than 10 bytes, over index\."):
        read_within(status, 10)
    assert read_within(status, 0).startswith(b"Name:")
