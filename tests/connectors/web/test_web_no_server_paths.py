"""Server file paths never reach a web client, while the store keeps the full Answer JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.models import Source
from tests.connectors.web.conftest import build_harness, parse_sse
from tests.fakes.answerer import ScriptedAnswerer

SECRET_DIR = "/srv/citecast-kb/private-layout"


def kb_sources(root: Path) -> list[Source]:
    admin = root / "administration.md"
    admin.write_text("# Admin\n\nRotate the key every `90 days`.\n", encoding="utf-8")
    return [
        Source(
            id="administration.md#1",
            title="Administration guide",
            filename="administration.md",
            path=str(admin),
            media_type="text/markdown",
            text="Rotate the key every `90 days`.",
        ),
        Source(
            id="runbook.pdf#2",
            title="Runbook",
            filename="runbook.pdf",
            path=f"{SECRET_DIR}/runbook.pdf",
            media_type="application/pdf",
            page=2,
            text="Restart the worker after a rotation.",
        ),
    ]


def keys_named(data: Any, name: str) -> list[Any]:
    """Every value stored under ``name`` anywhere in a JSON document."""
    found: list[Any] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == name:
                found.append(value)
            found.extend(keys_named(value, name))
    elif isinstance(data, list):
        for item in data:
            found.extend(keys_named(item, name))
    return found


def assert_no_paths(data: Any, kb: Path) -> None:
    assert keys_named(data, "path") == []
    text = json.dumps(data)
    assert str(kb) not in text and SECRET_DIR not in text


async def test_answer_payloads_and_citation_events_carry_no_server_path(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    sources = kb_sources(kb)
    scripted = ScriptedAnswerer(sources, "Rotate the key [1]. Then restart [2].", chunk=4)
    services, client = build_harness(tmp_path, scripted, file_roots=[str(kb)])
    async with client:
        posted = await client.post("/api/ask", json={"question": "How do I rotate the key?"})
        assert posted.status_code == 200, posted.text
        body = posted.json()
        streamed = await client.get("/api/ask/stream", params={"question": "And then?"})
        events = parse_sse(streamed.text)
        conversation = (await client.get(f"/api/conversations/{body['conversation_id']}")).json()
    # POST: the answer keeps its citations (and file names), minus the server path.
    cited = body["answer"]["citations"]
    assert [c["source"]["id"] for c in cited] == ["administration.md#1", "runbook.pdf#2"]
    assert [c["source"]["filename"] for c in cited] == ["administration.md", "runbook.pdf"]
    assert_no_paths(body, kb)
    # SSE: citation events and the done payload.
    names = [name for name, _ in events]
    assert names.count("citation") == 2 and names[-1] == "done"
    for _, data in events:
        assert_no_paths(data, kb)
    # Reload: the stored conversation, re-rendered for the client.
    assert len(conversation["turns"]) == 1 and conversation["turns"][0]["status"] == "done"
    assert_no_paths(conversation, kb)
    # The store keeps the full Answer JSON (paths included): the server needs them for files.
    stored = services.store.turns(body["conversation_id"])
    paths = keys_named(stored[0].answer, "path")
    assert paths == [str(kb / "administration.md"), f"{SECRET_DIR}/runbook.pdf"]
    services.store.close()


async def test_signed_file_link_still_serves_the_cited_file(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    scripted = ScriptedAnswerer(kb_sources(kb)[:1], "Rotate the key [1].")
    services, client = build_harness(tmp_path, scripted, file_roots=[str(kb)])
    async with client:
        body = (await client.post("/api/ask", json={"question": "rotate?"})).json()
        links = [c.get("url") for c in body["citations"]]
        assert links and isinstance(links[0], str) and "/files/" in links[0]
        download = await client.get(links[0])
    assert download.status_code == 200
    assert b"Rotate the key every" in download.content
    assert_no_paths(body, kb)
    services.store.close()
