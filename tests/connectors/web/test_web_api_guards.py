"""The web API over the real app: validation, hostile input, audience, origins, turn pages, logs."""

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
    # a widget on that site may read a 429's Retry-After (fetch hides other headers)
    assert simple.headers["access-control-expose-headers"].lower() == "retry-after"
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
        await web.client.get("/turns/12-secretsignature")
    import json

    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "citecast.requests"]
    assert lines[0]["method"] == "POST" and lines[0]["path"] == "/api/ask"
    assert lines[0]["status"] == 200 and lines[0]["citations"] == 2
    assert isinstance(lines[0]["ms"], float)
    assert lines[1]["path"] == "/api/ask/stream" and lines[1]["citations"] == 2
    assert all("logged" not in json.dumps(line) for line in lines), "questions stay out of logs"
    assert [line["path"] for line in lines[2:]] == ["/api/conversations/…", "/files/…", "/turns/…"]
    assert cid not in caplog.text and "some-secret-token" not in caplog.text
    assert "secretsignature" not in caplog.text


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
            f"/turns/{body['turn_id']}-"
            + str(signer.turn_key(body["turn_id"] + 1)).partition("-")[2]
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


async def test_stream_refuses_a_query_string_that_is_not_utf8(web: WebHarness) -> None:
    # POST refuses a body that is not UTF-8; the stream's query string gets the same check
    # instead of having the bad bytes stored as U+FFFD.
    for query in ("question=%ff%fe", "question=bad%ed%a0%80", "question=ok&conversation_id=%c0"):
        response = await web.client.get(f"/api/ask/stream?{query}")
        assert (response.status_code, response.json()) == (
            400,
            {"error": "query string is not UTF-8"},
        ), query
    assert web.answerer.calls == []
    events = parse_sse((await web.client.get("/api/ask/stream?question=caf%C3%A9+ok%3F")).text)
    assert events[-1][0] == "done"
    assert web.answerer.calls[0][0] == "café ok?"


async def test_a_person_following_a_dead_share_link_gets_a_page(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    signer = FileSigner(b"k" * 32, "http://citecast.test", 3600)
    services, client = build_harness(tmp_path, answerer, signer=signer, title="Acme help")
    private = cited_answer(passage(3, id="hr", title="Salary bands", audience=("staff",)))
    hidden_id = services.store.add_turn("c" * 32, "slack", "q", private.to_json())
    browser = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    async with client:
        hidden = await client.get(f"/turns/{signer.turn_key(hidden_id)}", headers=browser)
        cut = await client.get(f"/turns/{hidden_id}", headers=browser)
    for response in (hidden, cut):
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("text/html")
        assert "Acme help" in response.text and "cannot be shown" in response.text
        assert "script-src" not in response.headers["content-security-policy"]
    assert hidden.text == cut.text, "a hidden answer looks exactly like a broken link"
    assert "Salary" not in hidden.text


async def test_every_response_is_marked_nosniff(web: WebHarness) -> None:
    responses = [
        await web.ask("sniffed?"),
        await web.client.get("/api/config"),
        await web.client.get("/static/chat.css"),
        await web.client.get("/no/such/page"),
    ]
    for response in responses:
        assert response.headers["x-content-type-options"] == "nosniff", response.url
        assert response.headers.get_list("x-content-type-options") == ["nosniff"]
