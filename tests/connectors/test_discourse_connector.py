"""The Discourse connector end to end: signed webhooks through the real route, the real
registry, resolver and renderer (via ScriptedAnswerer), and the fake forum on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import mistune
import pytest
from starlette.applications import Starlette

from bot.assistant.base import Reply, ReplyEvent
from bot.config import Settings
from bot.connectors.discourse import DiscourseConnector
from bot.models import Exchange, Source
from bot.runtime import Services
from bot.store import Store
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, signed_delivery, webhook_request

SECRET = "s3cret-webhook"
PUBLIC, OTHER, STAFF = 5, 6, 9


class RecordingSleep:
    """Records the client's backoff waits without spending them."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@dataclass
class Harness:
    forum: FakeDiscourse
    store: Store
    connector: DiscourseConnector
    http: httpx.AsyncClient
    sleep: RecordingSleep
    answerer: ScriptedAnswerer

    async def deliver(
        self, post: dict[str, Any], *, event: str = "post_created", secret: str = SECRET
    ) -> httpx.Response:
        body, headers = webhook_request(post, secret, event=event)
        response = await self.http.post("/discourse/webhook", content=body, headers=headers)
        await self.connector.drain()
        return response

    def script(self, sources: Sequence[Source], raw: str) -> None:
        self.answerer = ScriptedAnswerer(sources, raw)
        self.connector.services.assistant = self.answerer


def settings_for(forum: FakeDiscourse, tmp_path: Path, **discourse: Any) -> Settings:
    section: dict[str, Any] = {
        "enabled": True,
        "base_url": forum.url,
        "api_key": forum.api_key,
        "api_username": "citecast",
        "webhook_secret": SECRET,
        "categories": [PUBLIC, STAFF],
        "audience_by_category": {str(STAFF): ["staff"]},
        "max_attempts": 3,
        "retry_base_seconds": 0,
        "retry_max_seconds": 5,
        "outbox_poll_seconds": 0.01,
    }
    section.update(discourse)
    return Settings.model_validate(
        {"store": {"path": str(tmp_path / "citecast.db")}, "discourse": section}
    )


@pytest.fixture
async def forum() -> AsyncIterator[FakeDiscourse]:
    async with FakeDiscourse() as fake:
        yield fake


async def make_harness(forum: FakeDiscourse, tmp_path: Path, **discourse: Any) -> Harness:
    settings = settings_for(forum, tmp_path, **discourse)
    store = Store(settings.store.path)
    answerer = ScriptedAnswerer([GUIDE], "Install with pip [1].")
    sleep = RecordingSleep()
    connector = DiscourseConnector(Services(settings, store, answerer), sleep=sleep)
    app = Starlette(routes=connector.routes())
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://citecast")
    return Harness(forum, store, connector, http, sleep, answerer)


@pytest.fixture
async def harness(forum: FakeDiscourse, tmp_path: Path) -> AsyncIterator[Harness]:
    h = await make_harness(forum, tmp_path)
    yield h
    await h.http.aclose()
    await h.connector.stop()
    h.store.close()


GUIDE = Source(
    id="guide",
    title="Install guide",
    url="https://docs.example/install",
    text="Install with pip.",
    page=3,
)
FAQ = Source(id="faq", title="FAQ [beta]", url="https://docs.example/faq", text="Answers.")
SECRET_PLAN = Source(
    id="private-id",
    title="Confidential roadmap",
    url="https://intranet.example/roadmap",
    text="Launch in May.",
    audience=("staff",),
)


def footnotes(raw: str) -> tuple[list[str], dict[str, list[tuple[str, str]]]]:
    """Footnote references and each definition's links, as Discourse's markdown would read them."""
    tokens = mistune.create_markdown(renderer=None, plugins=["footnotes"])(raw)
    refs: list[str] = []
    links: dict[str, list[tuple[str, str]]] = {}

    def text_of(children: list[dict[str, Any]]) -> str:
        return "".join(c.get("raw", "") or text_of(c.get("children", [])) for c in children)

    def walk(items: list[dict[str, Any]], key: str | None) -> None:
        for token in items:
            kind = token["type"]
            if kind == "footnote_ref":
                refs.append(token["raw"])
            elif kind == "footnote_item":
                item_key = str(token["attrs"]["key"])
                links[item_key] = []
                walk(token.get("children", []), item_key)
                continue
            elif kind == "link" and key is not None:
                links[key].append((text_of(token["children"]), token["attrs"]["url"]))
            walk(token.get("children", []), key)

    assert isinstance(tokens, list)
    walk(tokens, None)
    return refs, links


async def outbox_empty(harness: Harness) -> None:
    """Wait (boundedly) until the outbox worker has delivered every pending reply."""
    await outbox_empty_store(harness.store)


async def outbox_empty_store(store: Store) -> None:
    """Wait (boundedly) until ``store`` holds no pending Discourse reply."""
    for _ in range(1000):
        if not store.pending("discourse"):
            return
        await asyncio.sleep(0.01)


def only_post(forum: FakeDiscourse) -> dict[str, Any]:
    posts = forum.bot_posts()
    assert len(posts) == 1, [p["raw"] for p in posts]
    return posts[0]


# -- webhook handling --------------------------------------------------------------------------


async def test_new_topic_gets_a_reply_with_native_footnotes(harness: Harness) -> None:
    harness.script([GUIDE, FAQ], "Install with pip [1]. See the FAQ [2] and again [1].")
    first = harness.forum.new_topic("Install?", "How do I install it?", category_id=PUBLIC)
    response = await harness.deliver(first)
    assert response.status_code == 200
    assert response.json() == {"ok": True, "accepted": "new_topic"}

    post = only_post(harness.forum)
    assert post["topic_id"] == first["topic_id"]
    assert post["reply_to_post_number"] == 1
    refs, links = footnotes(post["raw"])
    assert refs == ["1", "2", "1"]
    assert set(links) == {"1", "2"}
    assert links["1"][0][1] == GUIDE.url and "Install guide" in links["1"][0][0]
    assert links["2"][0][1] == FAQ.url and "FAQ [beta]" in links["2"][0][0]

    question, audience, history = harness.answerer.calls[0]
    assert question == "Install?\n\nHow do I install it?"
    assert audience == frozenset({"public"})
    assert history == ()
    turns = harness.store.turns(f"discourse-topic-{first['topic_id']}")
    assert [(t.channel, t.status) for t in turns] == [("discourse", "done")]
    assert turns[0].answer is not None and len(turns[0].answer["citations"]) == 2


async def test_signatures_are_required_and_checked(harness: Harness) -> None:
    first = harness.forum.new_topic("Hi", "A question here", category_id=PUBLIC)
    body, headers = webhook_request(first, SECRET)
    unsigned = {k: v for k, v in headers.items() if k != "X-Discourse-Event-Signature"}
    missing = await harness.http.post("/discourse/webhook", content=body, headers=unsigned)
    forged = await harness.deliver(first, secret="not-the-secret")
    tampered = await harness.http.post(
        "/discourse/webhook", content=body.replace(b"A question", b"B question"), headers=headers
    )
    await harness.connector.drain()
    assert (missing.status_code, forged.status_code, tampered.status_code) == (401, 403, 403)
    assert harness.forum.api_posts == [] and harness.answerer.calls == []


async def test_pings_and_other_events_are_acknowledged_and_ignored(harness: Harness) -> None:
    first = harness.forum.new_topic("Hi", "A question here", category_id=PUBLIC)
    body, headers = signed_delivery({"ping": "OK"}, SECRET, event="ping", event_type="ping")
    ping = await harness.http.post("/discourse/webhook", content=body, headers=headers)
    edited = await harness.deliver(first, event="post_edited")
    assert ping.status_code == edited.status_code == 200
    assert ping.json()["ignored"] == "ping"
    assert harness.forum.api_posts == []


async def test_a_replayed_delivery_is_answered_once(harness: Harness) -> None:
    first = harness.forum.new_topic("Twice", "Will I get two answers?", category_id=PUBLIC)
    responses = [await harness.deliver(first) for _ in range(3)]
    assert [r.status_code for r in responses] == [200, 200, 200]
    assert responses[1].json()["ignored"] == "duplicate delivery"
    only_post(harness.forum)
    assert len(harness.answerer.calls) == 1


async def test_own_posts_and_unlisted_categories_are_ignored(harness: Harness) -> None:
    first = harness.forum.new_topic("Hello", "Question in public", category_id=PUBLIC)
    own = harness.forum.user_posts(first["topic_id"], "@citecast I said this", username="citecast")
    elsewhere = harness.forum.new_topic("Off", "@citecast here?", category_id=OTHER)
    reply_elsewhere = harness.forum.user_posts(elsewhere["topic_id"], "@citecast again")
    for post in (own, elsewhere, reply_elsewhere):
        response = await harness.deliver(post)
        assert response.json() == {"ok": True, "ignored": "no trigger"}
    assert harness.forum.api_posts == [] and harness.answerer.calls == []


async def test_mentions_and_replies_to_the_bot_are_answered_with_history(
    harness: Harness,
) -> None:
    first = harness.forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
    await harness.deliver(first)
    harness.forum.user_posts(first["topic_id"], "Same for me", username="bob")
    mention = harness.forum.user_posts(first["topic_id"], "@citecast any workaround?")
    await harness.deliver(mention)
    reply = harness.forum.user_posts(
        first["topic_id"], "Thanks, and on macOS?", username="bob", reply_to=5
    )
    await harness.deliver(reply)

    posts = harness.forum.bot_posts()
    assert [p["reply_to_post_number"] for p in posts] == [1, 4, 6]
    assert [call[0] for call in harness.answerer.calls] == [
        "Setup\n\nInstall fails on Linux",
        "any workaround?",
        "Thanks, and on macOS?",
    ]
    history = harness.answerer.calls[1][2]
    assert history[0].question == "@alice: Setup\n\nInstall fails on Linux"
    assert history[0].answer == posts[0]["raw"]
    assert history[1].question == "@bob: Same for me" and history[1].answer == ""
    assert len(harness.answerer.calls[2][2]) == 2
    assert harness.answerer.calls[2][2][1].answer == posts[1]["raw"]
    conversation = f"discourse-topic-{first['topic_id']}"
    assert len(harness.store.turns(conversation)) == 3


# -- audience ----------------------------------------------------------------------------------


async def test_a_private_source_is_never_cited_in_a_public_category(harness: Harness) -> None:
    raw = "Public fact [1]. Secret plan <CIT private-id /> launches soon [2]."
    harness.script([GUIDE, SECRET_PLAN], raw)
    first = harness.forum.new_topic("Plans?", "What is planned?", category_id=PUBLIC)
    await harness.deliver(first)
    posted = only_post(harness.forum)["raw"]
    for leak in ("Confidential", "intranet.example", "Launch in May", "private-id", "CIT"):
        assert leak not in posted
    refs, links = footnotes(posted)
    assert set(refs) == {"1"} and [url for _, url in links["1"]] == [GUIDE.url]

    staff = harness.forum.new_topic("Plans, staff", "What is planned?", category_id=STAFF)
    await harness.deliver(staff)
    assert harness.answerer.calls[-1][1] == frozenset({"staff"})
    staff_raw = harness.forum.bot_posts()[-1]["raw"]
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in staff_raw


# -- length ------------------------------------------------------------------------------------


def many_sources(count: int) -> list[Source]:
    return [
        Source(
            id=f"doc-{i}",
            title=f"Reference page {i}",
            url=f"https://docs.example/reference/{i}",
            text=f"Fact number {i}.",
        )
        for i in range(1, count + 1)
    ]


@pytest.mark.parametrize("max_post_length", [32_000, 6_000])
async def test_sixty_citations_fit_and_every_source_arrives(
    forum: FakeDiscourse, tmp_path: Path, max_post_length: int
) -> None:
    forum.max_post_length = max_post_length
    h = await make_harness(forum, tmp_path, max_post_length=max_post_length)
    try:
        sources = many_sources(60)
        raw = " ".join(
            f"Fact number {i} holds in every supported configuration [{i}]." for i in range(1, 61)
        )
        h.script(sources, raw)
        first = forum.new_topic("Everything", "Tell me everything", category_id=PUBLIC)
        await h.deliver(first)
        posts = forum.bot_posts()
        if max_post_length == 32_000:
            assert len(posts) == 1
        defined: dict[str, list[tuple[str, str]]] = {}
        for post in posts:
            assert len(post["raw"]) <= max_post_length
            assert post["reply_to_post_number"] == 1
            refs, links = footnotes(post["raw"])
            assert refs and set(refs) <= set(links)  # every reference resolves in its own post
            defined.update(links)
        assert sorted(defined, key=int) == [str(i) for i in range(1, 61)]
        for i, source in enumerate(sources, start=1):
            assert defined[str(i)] == [(f"Reference page {i}", source.url)]
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


# -- reliability -------------------------------------------------------------------------------


async def test_rate_limit_is_honoured_then_the_reply_is_posted(harness: Harness) -> None:
    harness.forum.rate_limit("/posts.json", wait_seconds=2)
    harness.forum.fail("/posts.json", status=500)
    first = harness.forum.new_topic("Busy", "Are you busy?", category_id=PUBLIC)
    await harness.deliver(first)
    only_post(harness.forum)
    assert harness.sleep.waits == [2.0, 0.0]
    assert [item.status for item in harness.store.pending("discourse")] == []


async def test_the_same_answer_twice_gets_a_unique_suffix(harness: Harness) -> None:
    one = harness.forum.new_topic("Install A", "How to install?", category_id=PUBLIC)
    two = harness.forum.new_topic("Install B", "How to install?", category_id=PUBLIC)
    await harness.deliver(one)
    await harness.deliver(two)
    first, second = harness.forum.bot_posts()
    assert second["topic_id"] == two["topic_id"]
    assert second["raw"].startswith(first["raw"])
    assert second["raw"] != first["raw"]
    assert second["raw"].endswith(f"<!-- citecast: reply to post {two['id']} -->")
    assert footnotes(second["raw"]) == footnotes(first["raw"])


async def test_a_lost_response_does_not_double_post(harness: Harness) -> None:
    harness.forum.fail("/posts.json", status=502, after_accept=True)
    first = harness.forum.new_topic("Flaky", "Is the proxy flaky?", category_id=PUBLIC)
    await harness.deliver(first)
    only_post(harness.forum)
    statuses = [s for _, path, s in harness.forum.requests if path == "/posts.json"]
    assert statuses == [502, 422]
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "sent"


async def test_a_failed_reply_stays_in_the_outbox_and_is_resent(harness: Harness) -> None:
    harness.forum.fail("/posts.json", status=503, times=3)
    first = harness.forum.new_topic("Down", "Is the forum down?", category_id=PUBLIC)
    await harness.deliver(first)
    assert harness.forum.api_posts == []
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "pending" and item.attempts == 1
    turns = harness.store.turns(f"discourse-topic-{first['topic_id']}")
    assert turns[0].status == "done"

    await harness.connector.start()
    await outbox_empty(harness)
    only_post(harness.forum)
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "sent"


# -- uploads -----------------------------------------------------------------------------------


def file_sources(tmp_path: Path) -> list[Source]:
    chart = tmp_path / "chart.png"
    chart.write_bytes(b"\x89PNG chart")
    sheet = tmp_path / "prices.xlsx"
    sheet.write_bytes(b"PK sheet")
    return [
        Source(id="chart", title="Sales chart", path=str(chart), filename="chart.png",
               media_type="image/png", kind="file"),
        Source(id="sheet", title="Price list", path=str(sheet), filename="prices.xlsx",
               media_type="application/vnd.ms-excel", kind="file"),
    ]  # fmt: skip


async def test_allowed_files_are_uploaded_and_others_shown_by_name(
    harness: Harness, tmp_path: Path
) -> None:
    harness.script(file_sources(tmp_path), "Sales grew [1]. Prices are listed [2].")
    first = harness.forum.new_topic("Files", "Where are the numbers?", category_id=PUBLIC)
    await harness.deliver(first)
    posted = only_post(harness.forum)["raw"]
    [upload] = harness.forum.uploads
    assert upload.filename == "chart.png"
    refs, links = footnotes(posted)
    assert refs == ["1", "2"]
    assert any(url == upload.short_url for _, url in links["1"])
    assert links["2"] == []
    assert "[^2]: Price list: prices.xlsx" in posted.splitlines()
    assert posted.count("upload://") == 1


async def test_configured_extensions_restrict_uploads(forum: FakeDiscourse, tmp_path: Path) -> None:
    h = await make_harness(forum, tmp_path, allowed_upload_extensions=["pdf"])
    try:
        h.script(file_sources(tmp_path), "Sales grew [1]. Prices are listed [2].")
        first = forum.new_topic("Files", "Where are the numbers?", category_id=PUBLIC)
        await h.deliver(first)
        posted = only_post(forum)["raw"]
        assert forum.uploads == []
        assert "upload://" not in posted
        assert "chart.png" in posted or "Sales chart" in posted
        assert [path for _, path, _ in forum.requests if path == "/uploads.json"] == []
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


# -- lifecycle ---------------------------------------------------------------------------------


class GatedAnswerer:
    """Answers like ScriptedAnswerer, but only once ``gate`` is opened."""

    def __init__(self, inner: ScriptedAnswerer) -> None:
        self.inner = inner
        self.gate = asyncio.Event()
        self.started = asyncio.Event()

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.started.set()
        await self.gate.wait()
        return await self.inner.reply(question, audience, history)

    def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        return self.inner.stream(question, audience, history)


async def test_the_webhook_is_acknowledged_before_the_answer(harness: Harness) -> None:
    gated = GatedAnswerer(harness.answerer)
    harness.connector.services.assistant = gated
    first = harness.forum.new_topic("Slow", "A slow question", category_id=PUBLIC)
    body, headers = webhook_request(first, SECRET)
    response = await harness.http.post("/discourse/webhook", content=body, headers=headers)
    assert response.status_code == 200
    await gated.started.wait()
    assert harness.forum.api_posts == []
    gated.gate.set()
    await harness.connector.drain()
    only_post(harness.forum)


async def test_stop_records_unfinished_answers_as_failed(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    h = await make_harness(forum, tmp_path)
    h.connector.shutdown_grace = 0
    gated = GatedAnswerer(h.answerer)
    h.connector.services.assistant = gated
    first = forum.new_topic("Stuck", "A question that never ends", category_id=PUBLIC)
    body, headers = webhook_request(first, SECRET)
    await h.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    await h.connector.stop()
    turns = h.store.turns(f"discourse-topic-{first['topic_id']}")
    assert [t.status for t in turns] == ["failed"]
    assert forum.api_posts == []
    await h.http.aclose()
    h.store.close()


async def test_a_reply_left_in_the_outbox_by_a_crash_is_sent_at_start(
    harness: Harness,
) -> None:
    first = harness.forum.new_topic("Crash", "Did it crash?", category_id=PUBLIC)
    payload = {
        "topic_id": first["topic_id"],
        "raw": "The answer that was composed before the crash.",
        "reply_to_post_number": 1,
        "post_id": first["id"],
        "part": 1,
    }
    harness.store.enqueue("discourse", payload, item_id=f"discourse-{first['id']}")
    await harness.connector.start()
    await outbox_empty(harness)
    assert only_post(harness.forum)["raw"] == payload["raw"]
    assert harness.store.pending("discourse") == []


class StaticSigner:
    """Stands in for FileSigner: a predictable signed link per source."""

    def url_for(self, source: Source, audience: frozenset[str]) -> str | None:
        return f"https://citecast.example/files/{source.id}-{'-'.join(sorted(audience))}"

    def turn_key(self, turn_id: int) -> str:
        return f"{turn_id}-signed"


async def test_a_refused_file_falls_back_to_a_signed_link(harness: Harness, tmp_path: Path) -> None:
    harness.connector.services.signer = StaticSigner()
    harness.script(file_sources(tmp_path), "Sales grew [1]. Prices are listed [2].")
    first = harness.forum.new_topic("Files", "Where are the numbers?", category_id=PUBLIC)
    await harness.deliver(first)
    posted = only_post(harness.forum)["raw"]
    _, links = footnotes(posted)
    [upload] = harness.forum.uploads
    assert links["1"] == [("chart.png|attachment", upload.short_url)]
    assert links["2"] == [("prices.xlsx", "https://citecast.example/files/sheet-public")]
    assert "citecast-upload://" not in posted


async def test_enabled_connectors_builds_the_discourse_connector(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    from bot.connectors.base import enabled_connectors

    settings = settings_for(forum, tmp_path)
    store = Store(settings.store.path)
    try:
        connectors = enabled_connectors(Services(settings, store, ScriptedAnswerer([], "")))
        assert [c.name for c in connectors] == ["discourse"]
        assert [getattr(r, "path", None) for r in connectors[0].routes()] == ["/discourse/webhook"]
    finally:
        store.close()


async def test_the_served_app_answers_a_webhook_over_http(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    """``citecast serve``'s app on a real loopback socket: lifespan starts and stops us."""
    import uvicorn

    from bot.connectors.app import build_app

    settings = settings_for(forum, tmp_path)
    store = Store(settings.store.path)
    services = Services(settings, store, ScriptedAnswerer([GUIDE], "Install with pip [1]."))
    app = build_app(services, shutdown_grace=1.0)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        first = forum.new_topic("Served", "Does serve work?", category_id=PUBLIC)
        body, headers = webhook_request(first, SECRET)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            response = await http.post("/discourse/webhook", content=body, headers=headers)
            forged = await http.post(
                "/discourse/webhook",
                content=body,
                headers=headers | {"X-Discourse-Event-Signature": "sha256=" + "0" * 64},
            )
        assert (response.status_code, forged.status_code) == (200, 403)
        for _ in range(1000):
            turns = store.turns(f"discourse-topic-{first['topic_id']}")
            if turns and turns[0].status == "done":
                break
            await asyncio.sleep(0.01)
        await outbox_empty_store(store)
    finally:
        server.should_exit = True
        await serving
    _, links = footnotes(only_post(forum)["raw"])
    assert links["1"] == [("Install guide", GUIDE.url)]
    store.close()
