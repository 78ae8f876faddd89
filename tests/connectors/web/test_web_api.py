"""The web API over the real app: ask, stream, conversations, validation, audience."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.filetokens import FileSigner
from tests.connectors.web.conftest import (
    CannedAnswerer,
    WebHarness,
    build_harness,
    cited_answer,
    parse_sse,
    passage,
)


async def test_ask_returns_answer_html_and_ids(web: WebHarness) -> None:
    response = await web.ask("How do I install it?")
    assert response.status_code == 200
    body = response.json()
    assert (
        body["answer"]["text"] == "Claim 1 is true.[^1]\n\nClaim 2 is true.[^2]\n\nThat is all.\n"
    )
    assert [c["n"] for c in body["answer"]["citations"]] == [1, 2]
    assert len(body["conversation_id"]) == 32
    assert isinstance(body["turn_id"], int)
    assert '<sup class="citation">' in body["html"]
    assert "Guide 1" in body["html"] and "Guide 2" in body["html"]
    assert [c["n"] for c in body["citations"]] == [1, 2]
    assert response.headers["cache-control"] == "no-store"


async def test_turn_is_stored_with_answer_and_registry(web: WebHarness) -> None:
    body = (await web.ask("How do I install it?")).json()
    [turn] = web.services.store.turns(body["conversation_id"])
    assert turn.channel == "web"
    assert turn.status == "done"
    assert turn.question == "How do I install it?"
    assert turn.answer == body["answer"]
    assert turn.registry == {"sources": []}


async def test_follow_up_passes_history_and_keeps_conversation(web: WebHarness) -> None:
    first = (await web.ask("First question?")).json()
    second = await web.ask("And then?", conversation_id=first["conversation_id"])
    assert second.status_code == 200
    assert second.json()["conversation_id"] == first["conversation_id"]
    question, audience, history = web.answerer.calls[-1]
    assert question == "And then?"
    assert audience == frozenset({"public"})
    assert [(h.question, h.answer) for h in history] == [
        ("First question?", first["answer"]["text"])
    ]


async def test_conversation_endpoint_replays_same_numbers(web: WebHarness) -> None:
    first = (await web.ask("First question?")).json()
    cid = first["conversation_id"]
    await web.ask("Second?", conversation_id=cid)
    response = await web.client.get(f"/api/conversations/{cid}")
    assert response.status_code == 200
    turns = response.json()["turns"]
    assert [t["question"] for t in turns] == ["First question?", "Second?"]
    assert turns[0]["answer"] == first["answer"]
    assert turns[0]["html"] == first["html"]
    assert [c["n"] for c in turns[0]["answer"]["citations"]] == [1, 2]


async def test_conversation_endpoint_rejects_bad_and_unknown_ids(web: WebHarness) -> None:
    bad = await web.client.get("/api/conversations/..%2F..%2Fetc")
    assert bad.status_code in (400, 404)
    assert "error" in bad.json()
    unknown = await web.client.get("/api/conversations/" + "0" * 32)
    assert unknown.status_code == 404
    assert unknown.json() == {"error": "unknown conversation"}


async def test_other_channels_conversations_are_not_readable(web: WebHarness) -> None:
    cid = "a" * 32
    web.services.store.add_turn(cid, "slack", "private slack question", {"text": "x"})
    response = await web.client.get(f"/api/conversations/{cid}")
    assert response.status_code == 404
    follow = await web.ask("continue?", conversation_id=cid)
    assert follow.status_code == 404
    assert web.answerer.calls == []


async def test_unknown_conversation_id_is_404_without_asking(web: WebHarness) -> None:
    response = await web.ask("hi", conversation_id="f" * 32)
    assert response.status_code == 404
    assert "unknown conversation_id" in response.json()["error"]
    assert web.answerer.calls == []


async def test_validation_errors_are_json_with_reasons(web: WebHarness) -> None:
    cases: list[tuple[dict[str, object] | list[object] | str, int, str]] = [
        ({}, 400, "question is required"),
        ({"question": ""}, 400, "question is empty"),
        ({"question": "   \n\t "}, 400, "question is empty"),
        ({"question": 42}, 400, "question must be a string"),
        ({"question": "hi", "conversation_id": "not-an-id"}, 400, "conversation_id"),
        ({"question": "hi", "extra": 1}, 400, "unknown field(s): extra"),
        (["question"], 400, "JSON object"),
        ({"question": "x" * 4001}, 400, "longer than 4000"),
    ]
    for body, status, reason in cases:
        response = await web.client.post("/api/ask", json=body)
        assert response.status_code == status, body
        assert reason in response.json()["error"], (body, response.json())
    assert web.answerer.calls == []


async def test_body_must_be_json_utf8_and_small(web: WebHarness) -> None:
    form = await web.client.post("/api/ask", data={"question": "hi"})
    assert form.status_code == 415
    broken = await web.client.post(
        "/api/ask", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert broken.status_code == 400
    assert broken.json() == {"error": "request body is not valid JSON"}
    latin1 = await web.client.post(
        "/api/ask", content=b'{"question": "caf\xe9"}', headers={"content-type": "application/json"}
    )
    assert latin1.json() == {"error": "request body is not UTF-8"}
    huge = await web.client.post("/api/ask", json={"question": "a" * 70_000})
    assert huge.status_code == 413
    assert "larger than 64000 bytes" in huge.json()["error"]
    deep = await web.client.post(
        "/api/ask", content=b"[" * 50_000, headers={"content-type": "application/json"}
    )
    assert deep.status_code == 400
    assert web.answerer.calls == []


async def test_body_cap_holds_without_content_length(web: WebHarness) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(100):
            yield b"a" * 1000

    response = await web.client.post(
        "/api/ask", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


async def test_hostile_questions_are_stored_verbatim_and_never_break(web: WebHarness) -> None:
    hostile = [
        "<script>alert(1)</script>",
        "Robert'); DROP TABLE turns;--",
        "[1] [^2] <CIT private-id /> <citation>3</citation>",
        "\u202eevil\u202c reversed",
        "emoji 🙂 and 𝕄𝕒𝕥𝕙",
        "{{7*7}} ${jndi:ldap://x} %s%s%n",
    ]
    for question in hostile:
        response = await web.ask(question)
        assert response.status_code == 200, question
        [turn] = web.services.store.turns(response.json()["conversation_id"])
        assert turn.question == question
    assert "<script>" not in response.json()["html"]


async def test_control_characters_are_removed_and_lone_surrogates_rejected(
    web: WebHarness,
) -> None:
    response = await web.ask("what\x00 is\x1b[31m this\x07?")
    assert response.status_code == 200
    assert web.answerer.calls[-1][0] == "what  is [31m this ?"
    surrogate = await web.client.post(
        "/api/ask",
        content=b'{"question": "bad \\ud800 text"}',
        headers={"content-type": "application/json"},
    )
    assert surrogate.status_code == 400
    assert surrogate.json() == {"error": "question is not valid Unicode"}


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.text(max_size=300))
async def test_any_question_gets_json_answer_or_reason(web: WebHarness, question: str) -> None:
    response = await web.client.post("/api/ask", json={"question": question})
    assert response.status_code in (200, 400)
    body = response.json()
    assert ("answer" in body) if response.status_code == 200 else isinstance(body["error"], str)


async def test_backend_failure_is_502_and_turn_failed(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)), fail=True)
    services, client = build_harness(tmp_path, answerer)
    async with client:
        response = await client.post("/api/ask", json={"question": "hi?"})
    assert response.status_code == 502
    assert response.json() == {"error": "the assistant failed to answer; try again"}
    with services.store._lock:
        rows = services.store._db.execute("SELECT status FROM turns").fetchall()
    assert rows == [("failed",)]


async def test_private_source_is_never_shown_to_public_viewer(tmp_path: Path) -> None:
    secret = passage(2, id="salaries", title="Salary bands", audience=("staff",))
    answerer = CannedAnswerer(cited_answer(passage(1), secret))
    _services, client = build_harness(tmp_path, answerer)
    async with client:
        response = await client.post("/api/ask", json={"question": "salaries?"})
        events = parse_sse((await client.get("/api/ask/stream?question=salaries")).text)
    assert response.status_code == 502
    assert "Salary" not in response.text
    assert events[-1] == ("error", {"error": "the assistant failed to answer; try again"})
    assert all("Salary" not in str(data) for _, data in events)


async def test_staff_audience_from_config_reaches_the_answerer(tmp_path: Path) -> None:
    secret = passage(2, id="salaries", title="Salary bands", audience=("staff",))
    answerer = CannedAnswerer(cited_answer(secret))
    _services, client = build_harness(tmp_path, answerer, audience=["staff"])
    async with client:
        response = await client.post("/api/ask", json={"question": "salaries?"})
    assert response.status_code == 200
    assert answerer.calls[0][1] == frozenset({"staff"})
    assert "Salary bands" in response.json()["html"]


async def test_stream_events_in_order_and_done_matches_post(web: WebHarness) -> None:
    events = await web.stream(question="How do I install it?")
    names = [name for name, _ in events]
    assert names[0] == "start"
    assert names[-1] == "done"
    assert names.count("citation") == 2
    assert "delta" in names and "error" not in names
    announced: set[int] = set()
    so_far = ""
    for name, data in events:
        if name == "citation":
            announced.add(data["n"])
        elif name == "delta":
            so_far += data["text"]
            used = {n for n in (1, 2) if f"[^{n}]" in so_far}
            assert used <= announced, "a citation arrives before the text that uses it"
    text = "".join(data["text"] for name, data in events if name == "delta")
    done = events[-1][1]
    assert text == done["answer"]["text"]
    assert done["conversation_id"] == events[0][1]["conversation_id"]
    assert done["turn_id"] == events[0][1]["turn_id"]
    citations = [data for name, data in events if name == "citation"]
    assert [c["href"] for c in citations] == [
        "https://docs.example.com/guide-1",
        "https://docs.example.com/guide-2",
    ]
    appended = [data["append"] for name, data in events if name == "delta" and "append" in data]
    assert appended, "a completed block must be rendered while streaming"
    assert "Claim 1 is true" in appended[0] and '<sup class="citation">' in appended[0]
    assert "Claim 2 is true" in "".join(appended)
    assert all("That is all" not in html for html in appended), "the open block is a tail"
    tails = [data["tail"] for name, data in events if name == "delta" and "tail" in data]
    assert any("Claim 2 is" in tail for tail in tails)
    assert any("That is all" in tail for tail in tails)
    posted = (await web.ask("How do I install it?")).json()
    assert done["html"] == posted["html"]
    assert done["answer"] == posted["answer"]


async def test_stream_turn_is_stored_for_reload(web: WebHarness) -> None:
    events = await web.stream(question="streamed?")
    cid = events[0][1]["conversation_id"]
    turns = (await web.client.get(f"/api/conversations/{cid}")).json()["turns"]
    assert turns[0]["status"] == "done"
    assert turns[0]["html"] == events[-1][1]["html"]


async def test_stream_validation_is_4xx_json(web: WebHarness) -> None:
    missing = await web.client.get("/api/ask/stream")
    assert missing.status_code == 400
    assert missing.json() == {"error": "question is required"}
    twice = await web.client.get("/api/ask/stream?question=a&question=b")
    assert twice.status_code == 400
    long = await web.client.get("/api/ask/stream", params={"question": "q" * 5000})
    assert long.status_code == 400
    assert web.answerer.calls == []


async def test_stream_backend_failure_is_an_error_event(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)), fail=True)
    services, client = build_harness(tmp_path, answerer)
    async with client:
        events = parse_sse((await client.get("/api/ask/stream?question=hi")).text)
    assert [name for name, _ in events] == ["start", "error"]
    assert events[1][1] == {"error": "the assistant failed to answer; try again"}
    [turn] = services.store.turns(events[0][1]["conversation_id"])
    assert turn.status == "failed"


async def test_health_and_config(web: WebHarness) -> None:
    health = await web.client.get("/healthz")
    assert health.json() == {"status": "ok", "in_flight": 0}
    config = await web.client.get("/api/config")
    assert config.json() == {"max_question_chars": 4000}


async def test_chat_page_widget_and_assets_are_served(web: WebHarness) -> None:
    page = await web.client.get("/")
    assert page.status_code == 200
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert 'src="/static/chat.js"' in page.text
    widget = await web.client.get("/widget.js")
    assert widget.headers["content-type"].startswith("text/javascript")
    assert "attachShadow" in widget.text
    for asset in ("/static/chat.js", "/static/chat.css"):
        assert (await web.client.get(asset)).status_code == 200
    assert (await web.client.get("/static/../web.py")).status_code == 404


async def test_cors_only_for_configured_origins(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    _, client = build_harness(tmp_path, answerer, cors_origins=["http://site.example"])
    async with client:
        allowed = await client.options(
            "/api/ask",
            headers={
                "origin": "http://site.example",
                "access-control-request-method": "POST",
                "access-control-request-headers": "content-type",
            },
        )
        denied = await client.options(
            "/api/ask",
            headers={"origin": "http://evil.example", "access-control-request-method": "POST"},
        )
        simple = await client.get("/healthz", headers={"origin": "http://site.example"})
        other = await client.get("/healthz", headers={"origin": "http://evil.example"})
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == "http://site.example"
    assert denied.status_code == 400
    assert simple.headers["access-control-allow-origin"] == "http://site.example"
    assert "access-control-allow-origin" not in other.headers


async def test_request_log_line_has_latency_and_citations(web: WebHarness, caplog: object) -> None:
    import logging

    import pytest

    assert isinstance(caplog, pytest.LogCaptureFixture)
    with caplog.at_level(logging.INFO, logger="citecast.requests"):
        cid = (await web.ask("logged?")).json()["conversation_id"]
        await web.stream(question="streamed and logged?")
        await web.client.get(f"/api/conversations/{cid}")
        await web.client.get("/files/some-secret-token.sig")
    import json

    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "citecast.requests"]
    assert lines[0]["method"] == "POST" and lines[0]["path"] == "/api/ask"
    assert lines[0]["status"] == 200 and lines[0]["citations"] == 2
    assert isinstance(lines[0]["ms"], float)
    assert lines[1]["path"] == "/api/ask/stream" and lines[1]["citations"] == 2
    assert all("logged" not in json.dumps(line) for line in lines), "questions stay out of logs"
    assert [line["path"] for line in lines[2:]] == ["/api/conversations/…", "/files/…"]
    assert cid not in caplog.text and "some-secret-token" not in caplog.text


async def test_foreign_origins_cannot_make_the_server_answer(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    _, client = build_harness(tmp_path, answerer, cors_origins=["http://site.example"])
    async with client:
        evil = {"origin": "http://evil.example"}
        post = await client.post("/api/ask", json={"question": "hi"}, headers=evil)
        stream = await client.get("/api/ask/stream?question=hi", headers=evil)
        convo = await client.get("/api/conversations/" + "a" * 32, headers=evil)
        assert answerer.calls == []
        friend = await client.post(
            "/api/ask", json={"question": "hi"}, headers={"origin": "http://site.example"}
        )
        own = await client.post(
            "/api/ask", json={"question": "hi"}, headers={"origin": "http://citecast.test"}
        )
    for response in (post, stream, convo):
        assert response.status_code == 403
        assert response.json() == {"error": "this site may not use the citecast API"}
    assert friend.status_code == 200 and own.status_code == 200


async def test_turn_page_shows_full_sources_of_public_answers_only(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1), passage(2)))
    signer = FileSigner(b"k" * 32, "http://citecast.test", 3600)
    services, client = build_harness(tmp_path, answerer, signer=signer)
    private = cited_answer(passage(3, id="hr", title="Salary bands", audience=("staff",)))
    async with client:
        body = (await client.post("/api/ask", json={"question": "secret question?"})).json()
        page = await client.get(f"/turns/{signer.turn_key(body['turn_id'])}")
        # Turn ids are sequential: an unsigned id, or another turn's signature, finds nothing.
        unsigned = await client.get(f"/turns/{body['turn_id']}")
        forged = await client.get(
            f"/turns/{body['turn_id']}-" + signer.turn_key(body["turn_id"] + 1).split("-")[1]
        )
        hidden_id = services.store.add_turn("c" * 32, "slack", "q", private.to_json())
        hidden = await client.get(f"/turns/{signer.turn_key(hidden_id)}")
        pending_id = services.store.add_turn("c" * 32, "slack", "q", status="pending")
        pending = await client.get(f"/turns/{signer.turn_key(pending_id)}")
        missing = await client.get(f"/turns/{signer.turn_key(99999)}")
        not_int = await client.get("/turns/abc")
    assert page.status_code == 200
    assert '<section id="sources" class="sources"' in page.text
    assert "Guide 1" in page.text and "Guide 2" in page.text
    assert "secret question" not in page.text, "the question is never shown"
    assert "script-src" not in page.headers["content-security-policy"]
    assert "<script" not in page.text
    for response in (unsigned, forged, hidden, pending, missing, not_int):
        assert response.status_code == 404
        assert response.json() == {"error": "not found"}
    assert "Salary" not in hidden.text


async def test_reload_hides_answers_stored_for_a_wider_audience(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1, audience=("staff",))))
    services, client = build_harness(tmp_path, answerer, audience=["staff"])
    async with client:
        cid = (await client.post("/api/ask", json={"question": "q?"})).json()["conversation_id"]
    services.store.close()
    _, public_client = build_harness(tmp_path, answerer)  # same store, public viewer now
    async with public_client:
        turns = (await public_client.get(f"/api/conversations/{cid}")).json()["turns"]
    assert turns[0]["status"] == "hidden"
    assert "answer" not in turns[0] and "html" not in turns[0]
