"""The web chat before any ``citecast ingest``, with the built-in answerer: a 503 saying the
knowledge base is not available (run citecast ingest), not a 200 "could not find", which has
operators think retrieval is bad; once an index exists, a question it cannot answer is still
"could not find"."""

from __future__ import annotations

from pathlib import Path

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.knowledge import ingest
from tests.connectors.web.conftest import build_harness, make_settings, parse_sse

REASON = "the knowledge base is not available; ask the operator to run citecast ingest"


async def test_no_index_is_a_503_in_both_endpoints(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    services, client = build_harness(tmp_path, Assistant.from_settings(settings))
    async with client:
        posted = await client.post("/api/ask", json={"question": "How do I install it?"})
        streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, {"error": REASON})
    assert parse_sse(streamed.text)[-1] == ("error", {"error": REASON})


async def test_once_ingested_an_unanswerable_question_is_still_not_found(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.md").write_text("# Install\n\nInstall citecast with pip on any system.\n")
    settings = make_settings(tmp_path)
    ingest([docs], settings.index)
    services, client = build_harness(tmp_path, Assistant.from_settings(settings))
    async with client:
        posted = await client.post("/api/ask", json={"question": "What colour is the quokka?"})
    services.store.close()
    assert posted.status_code == 200
    assert posted.json()["answer"]["text"] == NOT_FOUND
