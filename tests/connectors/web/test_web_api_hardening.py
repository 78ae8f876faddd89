"""Hostile requests found by probing the API: each once got a 500 or made the server answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.web.conftest import (
    CannedAnswerer,
    WebHarness,
    build_harness,
    cited_answer,
    passage,
)

JSON = {"content-type": "application/json"}


def app_of(client: httpx.AsyncClient) -> Any:
    transport = client._transport
    assert isinstance(transport, httpx.ASGITransport)
    return transport.app


async def test_a_number_too_long_to_read_is_a_400_not_a_500(web: WebHarness) -> None:
    # 5000 digits is valid JSON but over Python's int limit: json.loads raised a bare
    # ValueError, which the route did not catch
    digits = "1" * 5000
    ask = await web.client.post(
        "/api/ask", content=f'{{"question": "hi", "n": {digits}}}', headers=JSON
    )
    vote = await web.client.post(
        "/api/feedback",
        content=f'{{"conversation_id": "{"a" * 32}", "turn_id": {digits}, "value": "helpful"}}',
        headers=JSON,
    )
    for response in (ask, vote):
        assert response.status_code == 400
        assert response.json() == {"error": "request body has a number too long to read"}
    assert web.answerer.calls == []


async def test_a_content_length_in_other_digits_is_refused_not_a_500(web: WebHarness) -> None:
    # "²" passes str.isdigit() and then int() raised; h11 refuses it, but the app must not
    # depend on the server in front of it (raw ASGI, as another server could pass it on)
    body = b'{"question": "hi"}'
    sent: list[dict[str, Any]] = []
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if delivered:
            return {"type": "http.disconnect"}
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/ask",
        "raw_path": b"/api/ask",
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"citecast.test"),
            (b"content-type", b"application/json"),
            (b"content-length", "²".encode("latin-1")),
        ],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    await app_of(web.client)(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    assert start["status"] == 200
    assert web.answerer.calls[0][0] == "hi"


async def test_turn_keys_in_other_digits_or_with_non_ascii_signatures_are_404(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    signer = FileSigner(b"k" * 32, "http://citecast.test", 3600)
    _, client = build_harness(tmp_path, answerer, signer=signer)
    async with client:
        turn_id = (await client.post("/api/ask", json={"question": "q?"})).json()["turn_id"]
        signature = str(signer.turn_key(turn_id)).partition("-")[2]  # it may hold a "-" too
        keys = [
            "²-abc",  # isdigit() but not int()
            "1-é",  # compare_digest raises TypeError on non-ASCII text
            f"{turn_id}-{signature[:-1]}é",
            "١-" + signature,  # an Arabic-Indic one: int() reads it, but it is no key of ours
        ]
        responses = [await client.get(f"/turns/{key}") for key in keys]
        assert (await client.get(f"/turns/{turn_id}-{signature}")).status_code == 200
    for key, response in zip(keys, responses, strict=True):
        assert (response.status_code, response.json()) == (404, {"error": "not found"}), key


async def test_head_on_the_stream_answers_nothing(web: WebHarness) -> None:
    # Starlette sends HEAD to the GET handler and still iterates a streaming body: a link
    # checker or a prefetch had the question answered and stored as a turn
    response = await web.client.head("/api/ask/stream?question=only+checking")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.content == b""
    refused = await web.client.head("/api/ask/stream?question=")
    assert refused.status_code == 400
    assert web.answerer.calls == []
    assert web.services.store._db.execute("SELECT COUNT(*) FROM turns").fetchone()[0] == 0


async def test_a_page_elsewhere_cannot_make_visitors_ask_through_an_image(
    web: WebHarness,
) -> None:
    # <img src=".../api/ask/stream?question=…"> on any site: a no-cors GET carries no Origin,
    # only fetch metadata saying it is cross-site
    for site in ("cross-site", "same-site"):
        sneaky = await web.client.get(
            "/api/ask/stream?question=spam",
            headers={
                "sec-fetch-site": site,
                "sec-fetch-mode": "no-cors",
                "sec-fetch-dest": "image",
            },
        )
        assert sneaky.status_code == 403, site
        assert sneaky.json() == {"error": "this site may not use the citecast API"}
    assert web.answerer.calls == []
    # the chat page's own fetch (same-origin), an address typed in (none), curl (nothing)
    for headers in ({"sec-fetch-site": "same-origin"}, {"sec-fetch-site": "none"}, {}):
        ok = await web.client.get("/api/ask/stream?question=fine", headers=headers)
        assert ok.status_code == 200 and "event: done" in ok.text, headers


async def test_turn_page_hides_an_answer_whose_answerer_read_private_sources(
    tmp_path: Path,
) -> None:
    # a Slack DM answer for staff that cites only a public guide, but was written after
    # reading the salary bands: its text may repeat them, so the public page must not show it
    answerer = CannedAnswerer(cited_answer(passage(1)))
    signer = FileSigner(b"k" * 32, "http://citecast.test", 3600)
    services, client = build_harness(tmp_path, answerer, signer=signer)
    public = cited_answer(passage(1), text="Level 5 earns 90k.[^1]")
    salaries = Source(id="hr", title="Salary bands", text="L5: 90k", audience=("staff",))

    def registry(*read: Source, evidence: tuple[Source, ...] = ()) -> dict[str, Any]:
        return {
            "version": 1,
            "audience": ["public", "staff"],
            "numbered": [{"n": n, "source": s.to_json()} for n, s in enumerate(read, 1)],
            "evidence": [s.to_json() for s in evidence],
        }

    store = services.store
    read_private = store.add_turn(
        "d" * 32, "slack", "q", public.to_json(), registry(passage(1), salaries)
    )
    evidence_private = store.add_turn(
        "d" * 32, "slack", "q", public.to_json(), registry(passage(1), evidence=(salaries,))
    )
    broken = store.add_turn("d" * 32, "slack", "q", public.to_json(), {"numbered": "x"})
    read_public = store.add_turn("e" * 32, "slack", "q", public.to_json(), registry(passage(1)))
    # the next answer in the thread of read_private read only the public guide, but had the
    # earlier answer (which read the bands) as its history
    follow_up = store.add_turn("d" * 32, "slack", "q", public.to_json(), registry(passage(1)))
    async with client:
        hidden = [
            await client.get(f"/turns/{signer.turn_key(turn)}")
            for turn in (read_private, evidence_private, broken, follow_up)
        ]
        shown = await client.get(f"/turns/{signer.turn_key(read_public)}")
    for response in hidden:
        assert (response.status_code, response.json()) == (404, {"error": "not found"})
        assert "90k" not in response.text
    assert shown.status_code == 200 and "Level 5 earns 90k." in shown.text


async def test_answers_stored_for_a_wider_audience_never_reach_the_model(tmp_path: Path) -> None:
    # web.audience was [staff] and is [public] now: the reload hides the staff answer, and the
    # next question must not hand it to the model as history either
    staff_answer = cited_answer(passage(1, id="hr", title="Salary bands", audience=("staff",)))
    answerer = CannedAnswerer(staff_answer)
    services, client = build_harness(tmp_path, answerer, audience=["staff"])
    async with client:
        first = (await client.post("/api/ask", json={"question": "salaries?"})).json()
    services.store.close()
    public = CannedAnswerer(cited_answer(passage(2)))
    services, public_client = build_harness(tmp_path, public)  # same store, public viewer now
    cid = first["conversation_id"]
    async with public_client:
        post = await public_client.post(
            "/api/ask", json={"question": "and again?", "conversation_id": cid}
        )
        streamed = await public_client.get(
            "/api/ask/stream", params={"question": "once more?", "conversation_id": cid}
        )
    assert post.status_code == 200 and "event: done" in streamed.text
    histories = [[exchange.question for exchange in call[2]] for call in public.calls]
    assert histories == [[], ["and again?"]]
    services.store.close()


async def test_an_answer_stored_in_a_form_this_version_cannot_read_is_hidden(
    web: WebHarness,
) -> None:
    # e.g. written by a newer citecast whose sources have a field this one does not know:
    # the reload shows the rest of the conversation instead of a 500
    first = (await web.ask("first?")).json()
    cid = first["conversation_id"]
    newer = cited_answer(passage(1)).to_json()
    newer["citations"][0]["source"]["colour"] = "red"
    web.services.store.add_turn(cid, "web", "second?", newer)
    response = await web.client.get(f"/api/conversations/{cid}")
    assert response.status_code == 200
    turns = response.json()["turns"]
    assert [turn["status"] for turn in turns] == ["done", "hidden"]
    assert "answer" not in turns[1]
    follow_up = await web.ask("third?", conversation_id=cid)
    assert follow_up.status_code == 200
    assert [exchange.question for exchange in web.answerer.calls[-1][2]] == ["first?"]


async def test_an_answer_that_read_a_hidden_source_is_hidden_on_reload_and_from_the_model(
    tmp_path: Path,
) -> None:
    # web.audience was [staff]: the answer cites only a public guide but its answerer read the
    # salary bands; now the chat is public, and neither the reload nor the model may see it
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(tmp_path, answerer)
    salaries = Source(id="hr", title="Salary bands", text="L5: 90k", audience=("staff",))
    registry = {
        "version": 1,
        "audience": ["public", "staff"],
        "numbered": [{"n": 1, "source": passage(1).to_json()}],
        "evidence": [salaries.to_json()],
    }
    said = cited_answer(passage(1), text="Level 5 earns 90k.[^1]").to_json()
    async with client:
        cid = (await client.post("/api/ask", json={"question": "first?"})).json()["conversation_id"]
        services.store.add_turn(cid, "web", "salaries?", said, registry)
        turns = (await client.get(f"/api/conversations/{cid}")).json()["turns"]
        await client.post("/api/ask", json={"question": "and?", "conversation_id": cid})
    assert [turn["status"] for turn in turns] == ["done", "hidden"]
    assert "90k" not in str(turns)
    assert [exchange.question for exchange in answerer.calls[-1][2]] == ["first?"]
    services.store.close()
