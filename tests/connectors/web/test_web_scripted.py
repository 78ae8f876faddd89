"""The web API with ScriptedAnswerer: real registry and resolver, exact model outputs."""

from __future__ import annotations

from pathlib import Path

from bot.models import Source
from tests.connectors.web.conftest import build_harness, parse_sse
from tests.fakes.answerer import ScriptedAnswerer


def sources(count: int) -> list[Source]:
    return [
        Source(
            id=f"doc-{i}",
            title=f"Runbook {i}",
            url=f"https://docs.example.com/runbook-{i}",
            page=i,
            text=f"Step {i} of the runbook.",
        )
        for i in range(1, count + 1)
    ]


async def test_private_marker_is_dropped_as_forbidden_for_public_viewer(tmp_path: Path) -> None:
    private = Source(id="private-id", title="Board minutes", audience=("board",), text="secret")
    scripted = ScriptedAnswerer(
        [*sources(1), private], "Public fact [1]. Secret fact <CIT private-id />.", chunk=3
    )
    _, client = build_harness(tmp_path, scripted)
    async with client:
        posted = (await client.post("/api/ask", json={"question": "minutes?"})).json()
        events = parse_sse((await client.get("/api/ask/stream?question=minutes")).text)
    assert [c["source"]["id"] for c in posted["answer"]["citations"]] == ["doc-1"]
    assert [d["reason"] for d in posted["answer"]["dropped"]] == ["forbidden"]
    assert "Board minutes" not in posted["html"] and "CIT" not in posted["html"]
    streamed = [data for name, data in events if name == "citation"]
    assert [c["source"]["id"] for c in streamed] == ["doc-1"]
    assert all("Board minutes" not in str(data) for _, data in events)
    assert scripted.calls[0][1] == frozenset({"public"})
    done = events[-1][1]
    assert done["answer"] == posted["answer"] and done["html"] == posted["html"]


async def test_sixty_citations_and_a_long_answer_stream_and_reload(tmp_path: Path) -> None:
    many = sources(60)
    paragraphs = [
        f"Paragraph {i} explains step {i} in enough words to be a real paragraph [{i}]."
        for i in range(1, 61)
    ]
    raw = "\n\n".join(paragraphs) + "\n\n" + "Closing words. " * 250
    assert len(raw) > 7_000
    scripted = ScriptedAnswerer(many, raw, chunk=11)
    services, client = build_harness(tmp_path, scripted)
    async with client:
        events = parse_sse((await client.get("/api/ask/stream?question=everything")).text)
        done = events[-1][1]
        cid = done["conversation_id"]
        reloaded = (await client.get(f"/api/conversations/{cid}")).json()["turns"][0]
    names = [name for name, _ in events]
    assert names[-1] == "done"
    assert names.count("citation") == 60
    assert [c["n"] for c in done["answer"]["citations"]] == list(range(1, 61))
    assert done["html"].count('<sup class="citation') == 60
    assert done["html"].count("<li id=") == 60
    appended = "".join(d.get("append", "") for n, d in events if n == "delta")
    assert appended.count('<sup class="citation') >= 59, "blocks render as they complete"
    assert reloaded["answer"] == done["answer"]
    assert reloaded["html"] == done["html"]
    [turn] = services.store.turns(cid)
    assert turn.registry is not None and turn.status == "done"
