"""Discourse webhooks end to end: replies, signatures, ignored events, dedupe, mentions, history."""

from __future__ import annotations

from tests.connectors.discourse_harness import (
    FAQ,
    GUIDE,
    OTHER,
    PUBLIC,
    SECRET,
    Harness,
    footnotes,
    forum,
    harness,
    only_post,
)
from tests.fakes.discourse_api import signed_delivery, webhook_request

__all__ = ["forum", "harness"]


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
        assert response.json()["ignored"] == "no trigger"
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


async def test_quoting_a_mention_of_the_bot_does_not_ask_it_again(harness: Harness) -> None:
    first = harness.forum.new_topic("Install", "Anyone on ARM?", category_id=PUBLIC)
    await harness.deliver(first)
    quoted = f'[quote="alice, post:1, topic:{first["topic_id"]}"]\n@citecast install?\n[/quote]'
    plus_one = harness.forum.user_posts(first["topic_id"], f"{quoted}\n\n+1", username="bob")
    response = await harness.deliver(plus_one)
    assert response.json()["ignored"] == "no trigger"
    assert len(harness.forum.bot_posts()) == 1 and len(harness.answerer.calls) == 1
