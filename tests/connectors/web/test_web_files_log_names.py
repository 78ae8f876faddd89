"""``/files/`` log lines keep a file's name on one line.

A file name is the file system's: one holding a line break (``pay.md\\n<date> INFO serving
x``) was logged raw and forged a log line of its own, and an ANSI escape in it would repaint
the terminal of whoever reads the log. The handler's log lines now write control characters
and Unicode line breaks as escapes.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.connectors.web_files import file_response, logged
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.knowledge.ingest import ingest
from bot.models import Source

SECRET = b"log-names-secret-0123456789abcdef"
FORGED = "pay.md\n2026-12-01 12:00:00 INFO bot.connectors.web_files: serving \x1b[2Jall.md"


def _messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.connectors.web_files"]


def test_a_served_file_name_with_a_line_break_stays_on_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    path = kb / FORGED
    path.write_text("# Pay\n\nThe walrus salary is public.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    assert ingest([kb], settings).indexed == 1
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    source = Source(id="pay", path=str(path), filename=path.name, kind="file")
    token = signer.token_for(source, frozenset({"public"}))
    assert token is not None
    files = IndexedFiles(settings.path)
    with caplog.at_level(logging.INFO, logger="bot.connectors.web_files"):
        assert file_response(signer, token, files=files, download=True).status_code == 200
        path.write_text("---\naudience: [staff]\n---\n# Pay\n\nNow private.\n")
        ingest([kb], settings)
        assert file_response(signer, token, files=IndexedFiles(settings.path)).status_code == 404
    escaped = "pay.md\\n2026-12-01 12:00:00 INFO bot.connectors.web_files: serving \\x1b[2Jall.md"
    assert _messages(caplog) == [
        f"serving {escaped} to audience public",
        f"refused {escaped}: audience public may no longer read it",
    ]


def test_logged_escapes_every_kind_of_line_break_and_keeps_other_text() -> None:
    assert logged("a\r\nb\tc\x00d\x7fe\x85f\u2028g\u2029h") == (
        "a\\r\\nb\\tc\\x00d\\x7fe\\x85f\\u2028g\\u2029h"
    )
    assert logged("Prüfbericht 2026 (final).pdf") == "Prüfbericht 2026 (final).pdf"
