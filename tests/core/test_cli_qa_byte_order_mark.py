"""Input saved or piped with a UTF-8 byte order mark (Notepad, Windows PowerShell) is read as if
it had none: by ``render`` and ``resolve`` on stdin, ``preview --answer`` and ``--sources``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.cli import main

BOM = b"\xef\xbb\xbf"
ANSWER = {
    "text": "Fact [^1].",
    "citations": [{"n": 1, "source": {"id": "a", "title": "A", "url": "https://e.com/a"}}],
}
SOURCES = [{"id": "guide", "title": "Install guide", "url": "https://example.com/install"}]


def _cli(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: bytes = b"",
) -> tuple[int, str, str]:
    """``citecast ARGV`` with ``stdin`` as the bytes on its standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_render_reads_an_answer_with_a_byte_order_mark(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    stdin = BOM + json.dumps(ANSWER).encode()
    code, out, err = _cli(monkeypatch, capsys, ["render", "--channel", "web"], stdin)
    assert (code, err) == (0, "")
    assert "https://e.com/a" in json.loads(out)["html"]


def test_resolve_drops_the_mark_from_the_answer_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sources.json").write_bytes(BOM + json.dumps(SOURCES).encode())
    argv = ["resolve", "--sources", "sources.json"]
    code, out, err = _cli(monkeypatch, capsys, argv, BOM + b"Run the installer [1].")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["text"] == "Run the installer [^1]."  # no invisible U+FEFF in front
    assert answer["citations"][0]["source"]["id"] == "guide"


def test_preview_reads_an_answer_file_with_a_byte_order_mark(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "answer.json").write_bytes(BOM + json.dumps(ANSWER).encode())
    argv = ["preview", "--answer", "answer.json", "--out", "page.html"]
    assert _cli(monkeypatch, capsys, argv) == (0, "page.html\n", "")
    assert "https://e.com/a" in (tmp_path / "page.html").read_text(encoding="utf-8")
