"""A judged file gives back only the bytes that were judged, read from its own descriptor."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.knowledge.judged_file import BLOCK, JudgedFile, block_digest

DATA = bytes(range(256)) * (BLOCK * 5 // 2 // 256)  # two and a half blocks


def _judged(file: Path) -> JudgedFile:
    fd = os.open(file, os.O_RDONLY)
    blocks = tuple(block_digest(DATA[i : i + BLOCK]) for i in range(0, len(DATA), BLOCK))
    return JudgedFile(fd, os.fstat(fd), blocks)


def test_reads_across_blocks_give_the_judged_bytes_and_stop_at_its_end(tmp_path: Path) -> None:
    file = tmp_path / "big.bin"
    file.write_bytes(DATA)
    with _judged(file) as judged:
        file.with_name("new.bin").write_bytes(b"x" * len(DATA))
        file.with_name("new.bin").replace(file)  # saved by rename: the descriptor keeps the old
        with file.open("ab") as handle:
            handle.write(b"never judged")
        assert judged.read_at(BLOCK - 3, 7) == DATA[BLOCK - 3 : BLOCK + 4]
        assert judged.read_at(0, len(DATA) + 100) == DATA
        assert judged.read_at(len(DATA) - 2, 100) == DATA[-2:]
        assert judged.read_at(len(DATA), 5) == b""


def test_bytes_written_into_it_after_the_check_are_never_given(tmp_path: Path) -> None:
    file = tmp_path / "big.bin"
    file.write_bytes(DATA)
    with _judged(file) as judged:
        assert judged.read_at(0, 10) == DATA[:10]
        with file.open("r+b") as handle:  # into the second block, in place
            handle.seek(BLOCK + 10)
            handle.write(b"Board only")
        assert judged.read_at(5, 10) == DATA[5:15]  # the first block is as judged
        with pytest.raises(OSError, match="written to since"):
            judged.read_at(BLOCK - 1, 2)


def test_a_file_cut_short_after_the_check_gives_nothing_past_the_cut(tmp_path: Path) -> None:
    file = tmp_path / "big.bin"
    file.write_bytes(DATA)
    with _judged(file) as judged:
        os.truncate(file, BLOCK * 2 + 1)
        assert judged.read_at(0, 4) == DATA[:4]
        with pytest.raises(OSError):
            judged.read_at(BLOCK * 2, 4)
    assert judged.fd == -1  # closed by the with
