"""The web API over the real app: ask, stream, conversations, backend failures, health, pages."""

from __future__ import annotations

from pathlib import Path

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
    assert config.json() == {
        "max_question_chars": 4000,
        "title": "citecast",
        "subtitle": "Answers from the knowledge base, every claim with its source.",
        "suggested_prompts": [],
        "sse_heartbeat": 15.0,
        "language": "",
    }


SCRIPTS = (
    "sources",
    "citations",
    "plain_markdown",
    "answer_actions",
    "scroll",
    "history",
    "turns",
    "stream",
    "chat",
)


async def test_chat_page_widget_and_assets_are_served(web: WebHarness) -> None:
    page = await web.client.get("/")
    assert page.status_code == 200
    assert "default-src 'self'" in page.headers["content-security-policy"]
    # in order of use: each module uses the ones before it, chat.js uses them all
    order = [page.text.index(f'src="static/{name}.js?v=') for name in SCRIPTS]
    assert order == sorted(order)
    assert page.text.count('<script src="static/') == len(SCRIPTS)
    widget = await web.client.get("/widget.js")
    assert widget.headers["content-type"].startswith("text/javascript")
    assert "attachShadow" in widget.text
    # the widget loads the same modules in the same order
    assert 'var modules = ["' + '", "'.join(SCRIPTS) + '"];' in widget.text
    for asset in [*(f"/static/{name}.js" for name in SCRIPTS), "/static/chat.css"]:
        assert (await web.client.get(asset)).status_code == 200
    assert (await web.client.get("/static/../web.py")).status_code == 404


async def test_the_deployment_names_the_chat_and_its_pages(tmp_path: Path) -> None:
    # web.title / web.subtitle come from config: shown as text, never as markup
    title, subtitle = "Acme <Docs> & Co", 'Ask "anything" <b>here</b>'
    signer = FileSigner(b"k" * 32, "http://citecast.test", 3600)
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(
        tmp_path, answerer, signer=signer, title=title, subtitle=subtitle
    )
    async with client:
        page = (await client.get("/")).text
        config = (await client.get("/api/config")).json()
        turn = (await client.post("/api/ask", json={"question": "hi"})).json()["turn_id"]
        shared = (await client.get(f"/turns/{signer.turn_key(turn)}")).text
    services.store.close()
    assert "<title>Acme &lt;Docs&gt; &amp; Co — answers with sources</title>" in page
    assert 'data-title="Acme &lt;Docs&gt; &amp; Co"' in page
    assert 'data-subtitle="Ask &#34;anything&#34; &lt;b&gt;here&lt;/b&gt;"' in page
    assert "<b>" not in page and "<Docs>" not in page
    assert (config["title"], config["subtitle"]) == (title, subtitle)
    assert '<h1 class="cc-title">Acme &lt;Docs&gt; &amp; Co</h1>' in shared


async def test_answers_carry_a_share_url_that_opens_the_turn_page(web: WebHarness) -> None:
    posted = (await web.ask("How do I install it?")).json()
    events = await web.stream(question="And streamed?")
    done = events[-1][1]
    cid = posted["conversation_id"]
    [stored] = (await web.client.get(f"/api/conversations/{cid}")).json()["turns"]
    assert stored["share_url"] == posted["share_url"]
    for body in (posted, done):
        url = body["share_url"]
        # The key is the turn id plus its HMAC: the bare turn_id alone finds nothing.
        assert url.startswith(f"http://citecast.test/turns/{body['turn_id']}-")
        page = await web.client.get(url.removeprefix("http://citecast.test"))
        assert page.status_code == 200
        assert "Guide 1" in page.text and '<section id="sources"' in page.text
    assert done["share_url"] != posted["share_url"]
    assert (await web.client.get(f"/turns/{posted['turn_id']}")).status_code == 404


async def test_share_url_uses_the_public_address(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(
        tmp_path, answerer, public_base_url="https://help.example.com/"
    )
    async with client:
        body = (await client.post("/api/ask", json={"question": "hi"})).json()
    services.store.close()
    assert body["share_url"].startswith(f"https://help.example.com/turns/{body['turn_id']}-")
