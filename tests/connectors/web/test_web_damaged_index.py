"""A knowledge index with a damaged page, under the web chat's built-in answerer: a 503 saying
the knowledge base is not available (both endpoints), not a 502 "try again" with a traceback
per question; the log names the damage and the rebuild command once."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.knowledge import ingest
from tests.connectors.web.conftest import build_harness, make_settings, parse_sse

REASON = "the knowledge base is not available; ask the operator to run citecast ingest"


def _damage_meta_page(index: Path) -> None:
    with sqlite3.connect(index) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'meta'").fetchone()
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with index.open("r+b") as raw:
        raw.seek((root[0] - 1) * size)
        raw.write(b"\xff" * size)


async def test_a_damaged_index_is_a_503_in_both_endpoints(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.md").write_text("# Install\n\nInstall citecast with pip on any system.\n")
    settings = make_settings(tmp_path)
    ingest([docs], settings.index)
    _damage_meta_page(Path(settings.index.path))
    services, client = build_harness(tmp_path, Assistant.from_settings(settings))
    caplog.clear()
    async with client:
        posted = await client.post("/api/ask", json={"question": "How do I install it?"})
        streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, {"error": REASON})
    assert parse_sse(streamed.text)[-1] == ("error", {"error": REASON})
    assert not [r for r in caplog.records if r.exc_info]
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1  # the setup alarm: once per cause, then one INFO line a question
    assert f"{settings.index.path} is damaged (database disk image is malformed)" in errors[0]
    assert errors[0].endswith(f"rebuild it: `citecast ingest --rebuild {docs.resolve()}`")
