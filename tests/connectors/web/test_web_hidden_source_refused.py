"""The web never renders a hidden source as "restricted source" beside the claim it backs.

A renderer shows a source the viewer may not see as "restricted source" and nothing else, but
the sentence it backs is in the answer's text. Live paths resolve and render for one audience
(the turn's registry never numbers a hidden source), and the web server refuses, besides, an
answer that cites one anyway (``WebTurns.check_audience``): here an answerer breaking that rule
gets the viewer a refusal, never the rendered payload with the staff source's claim in it.
"""

from __future__ import annotations

from pathlib import Path

from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    parse_sse,
    passage,
)

FAILED = {"error": "the assistant failed to answer; try again"}
STAFF = passage(
    2, id="plan", title="Zanzibar plan", text="The merger closes in May.", audience=("staff",)
)
ANSWER = cited_answer(
    passage(1), STAFF, text="The sky is blue.[^1]\n\nThe merger closes in May.[^2]"
)


async def test_a_posted_answer_citing_a_hidden_source_is_refused(tmp_path: Path) -> None:
    answerer = CannedAnswerer(ANSWER)
    _, client = build_harness(tmp_path, answerer)
    async with client:
        posted = await client.post("/api/ask", json={"question": "When is the merger?"})
    assert [audience for _, audience, _ in answerer.calls] == [frozenset({"public"})]
    assert (posted.status_code, posted.json()) == (502, FAILED)


async def test_a_streamed_answer_citing_a_hidden_source_ends_in_an_error(tmp_path: Path) -> None:
    _, client = build_harness(tmp_path, CannedAnswerer(ANSWER))
    async with client:
        response = await client.get("/api/ask/stream?question=When+is+the+merger%3F")
    events = parse_sse(response.text)
    assert events[-1] == ("error", FAILED)
    assert [data["n"] for name, data in events if name == "citation"] == [1]
    assert "done" not in [name for name, _ in events]
    assert "restricted source" not in response.text and "Zanzibar" not in response.text
