"""Properties of the SSE stream: whatever the model writes and however it is split, the
streamed text is the final answer, citations come before their use, and done equals POST."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.models import Source
from tests.connectors.web.conftest import build_harness, parse_sse
from tests.fakes.answerer import ScriptedAnswerer

SOURCES = [
    Source(id=f"s{i}", title=f"Doc {i}", url=f"https://docs.example.com/{i}", text=f"text {i}")
    for i in range(1, 6)
]
PIECES = st.sampled_from(
    [
        "Fact",
        " one",
        ".",
        " [1]",
        " [2][3]",
        "[7]",
        " <citation>4</citation>",
        "\n\n",
        "\n- item",
        "`[5]`",
        " [2023]",
        "\n```\ncode [1]\n```\n",
        " <b>bold</b>",
        " émoji 🙂",
    ]
)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.lists(PIECES, max_size=25).map("".join), chunk=st.integers(1, 40))
async def test_stream_matches_post_for_any_split(tmp_path: Path, raw: str, chunk: int) -> None:
    scripted = ScriptedAnswerer(SOURCES, raw or "Nothing.", chunk=chunk)
    services, client = build_harness(tmp_path, scripted)
    async with client:
        events = parse_sse((await client.get("/api/ask/stream?question=q")).text)
        posted = (await client.post("/api/ask", json={"question": "q"})).json()
    services.store.close()
    assert events[0][0] == "start" and events[-1][0] == "done"
    done = events[-1][1]
    text = ""
    announced: set[int] = set()
    for name, data in events:
        if name == "citation":
            announced.add(data["n"])
        elif name == "delta":
            text += data["text"]
            used = {c["n"] for c in done["answer"]["citations"] if f"[^{c['n']}]" in text}
            assert used <= announced
    assert text == done["answer"]["text"]
    assert done["answer"] == posted["answer"]
    assert done["html"] == posted["html"]
    assert "<b>" not in done["html"]


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.text(max_size=200))
async def test_stream_endpoint_any_question(tmp_path: Path, question: str) -> None:
    scripted = ScriptedAnswerer(SOURCES, "Fact [1].", chunk=3)
    services, client = build_harness(tmp_path, scripted)
    async with client:
        response = await client.get("/api/ask/stream", params={"question": question})
    services.store.close()
    if response.status_code == 200:
        assert parse_sse(response.text)[-1][0] == "done"
    else:
        assert response.status_code == 400
        assert isinstance(response.json()["error"], str)
