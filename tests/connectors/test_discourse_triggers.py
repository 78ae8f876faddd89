"""Which Discourse posts get answered, and what the assistant is told (a forum admin's QA pass).

Discourse's own bots are never answered; a reply that quotes the bot's post is a reply to the
bot (Discourse then leaves ``reply_to_user`` out of the post JSON); a mention inside code is
not a mention; whispers, hidden and deleted posts never reach the assistant as history.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.config import DiscourseSettings
from bot.connectors import discourse_webhook
from bot.connectors.discourse_topic import history_from_posts
from bot.connectors.discourse_webhook import PostEvent, trigger_for
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness

__all__ = ["forum", "harness"]


def settings(**overrides: Any) -> DiscourseSettings:
    base: dict[str, Any] = {"enabled": True, "categories": [5], "api_username": "citecast"}
    base.update(overrides)
    return DiscourseSettings(**base)


def event(**overrides: Any) -> PostEvent:
    base: dict[str, Any] = {
        "post_id": 11,
        "topic_id": 3,
        "post_number": 4,
        "username": "alice",
        "raw": "How do I install it?",
        "category_id": 5,
    }
    base.update(overrides)
    return PostEvent(**base)


# -- Discourse's own bots ------------------------------------------------------------------------


async def test_the_system_user_and_discobot_are_never_answered(harness: Harness) -> None:
    # Creating a category makes "system" open its "About the … category" topic there.
    about = harness.forum.new_topic(
        "About the Help category",
        "(Replace this paragraph.)",
        category_id=PUBLIC,
        username="system",
    )
    tip = harness.forum.user_posts(
        about["topic_id"], "Hi! @citecast, try the tutorial.", username="discobot"
    )
    assert (about["user_id"], tip["user_id"]) == (-1, -2)
    for post in (about, tip):
        response = await harness.deliver(post)
        assert response.json()["ignored"] == "no trigger"
    assert harness.forum.api_posts == [] and harness.answerer.calls == []


def test_built_in_bots_are_known_by_their_user_id_whatever_their_name() -> None:
    config = settings()
    assert trigger_for(event(post_number=1, username="forum-bot", user_id=-1), config) is None
    assert (
        trigger_for(event(raw="@citecast hi", username="ai_helper", user_id=-120), config) is None
    )
    assert trigger_for(event(post_number=1, user_id=None), config) == "new_topic"


def test_users_in_ignore_users_are_never_answered() -> None:
    # another bot (a positive user id) that replies to citecast's posts would start a loop
    config = settings(ignore_users=["Helper-Bot"])
    assert trigger_for(event(raw="@citecast hi", username="helper-bot", user_id=7), config) is None
    assert trigger_for(event(raw="@citecast hi", username="alice", user_id=8), config) == "mention"


# -- replies that quote the bot ------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    ["citecast, post:2, topic:{topic}", "Citecast Bot, post:2, topic:{topic}, username:citecast"],
    ids=["username", "full-name"],
)
async def test_a_reply_quoting_the_bots_post_is_answered(harness: Harness, header: str) -> None:
    first = harness.forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
    await harness.deliver(first)
    quote = f'[quote="{header.format(topic=first["topic_id"])}"]\nInstall with pip\n[/quote]'
    follow_up = harness.forum.user_posts(
        first["topic_id"], f"{quote}\n\nAnd with conda?", reply_to=2
    )
    assert "reply_to_user" not in follow_up  # what Discourse sends for a quoting reply
    response = await harness.deliver(follow_up)
    assert response.json() == {"ok": True, "accepted": "reply"}
    assert [p["reply_to_post_number"] for p in harness.forum.bot_posts()] == [1, 3]
    assert harness.answerer.calls[-1][0] == "And with conda?"


async def test_a_reply_quoting_someone_else_is_not_a_reply_to_the_bot(harness: Harness) -> None:
    first = harness.forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
    await harness.deliver(first)
    topic = first["topic_id"]
    harness.forum.user_posts(topic, "Same here", username="bob")
    quote = f'[quote="bob, post:3, topic:{topic}"]\nSame here\n[/quote]'
    follow_up = harness.forum.user_posts(topic, f"{quote}\n\nWhich distro?", reply_to=3)
    # a quote of the bot's post in a reply to someone else is not a reply to the bot either
    bot_quote = f'[quote="citecast, post:2, topic:{topic}"]\nInstall with pip\n[/quote]'
    other = harness.forum.user_posts(topic, f"{bot_quote}\n\nbob, try this", reply_to=3)
    for post in (follow_up, other):
        response = await harness.deliver(post)
        assert response.json()["ignored"] == "no trigger"
    assert len(harness.forum.bot_posts()) == 1


def test_quote_headers_name_the_quoted_author() -> None:
    text = (
        '[quote="alice, post:3, topic:9"]\na\n[/quote]\n'
        '[quote="Alice Smith, post:4, topic:9, full:true, username:alice"]\nb\n[/quote]\n'
        "[quote]anonymous[/quote]"
    )
    assert [(q.username, q.post_number, q.topic) for q in discourse_webhook.quoted_posts(text)] == [
        ("alice", 3, 9),
        ("alice", 4, 9),
    ]


# -- mentions ------------------------------------------------------------------------------------


def test_a_mention_inside_code_is_not_a_mention() -> None:
    config = settings()
    for raw in (
        "Our bot is called `@citecast`, how do I rename it?",
        "My config:\n\n```yaml\nbot: '@citecast'\n```\n\nWhy does it fail?",
        "~~~\n@citecast\n~~~",
    ):
        assert trigger_for(event(raw=raw), config) is None, raw
    asked = "@citecast why does `pip install` fail?\n\n```\nerror: @citecast\n```"
    assert trigger_for(event(raw=asked), config) == "mention"


def test_private_messages_are_never_answered_even_with_a_category() -> None:
    pm = event(post_number=1, topic_archetype="private_message")
    assert trigger_for(pm, settings()) is None


async def test_a_very_long_post_is_cut_to_the_question_limit(harness: Harness) -> None:
    first = harness.forum.new_topic("Logs", "Install fails", category_id=PUBLIC)
    long = harness.forum.user_posts(first["topic_id"], "@citecast why? " + "log line " * 2000)
    await harness.deliver(long)
    limit = harness.connector.services.settings.web.max_question_chars
    question = harness.answerer.calls[-1][0]
    assert question.startswith("why? log line") and len(question) <= limit


# -- history -------------------------------------------------------------------------------------


async def test_whispers_hidden_and_deleted_posts_never_reach_the_assistant(
    harness: Harness,
) -> None:
    harness.forum.staff.add("citecast")  # a staff bot user can read whispers
    first = harness.forum.new_topic("Refund", "My order was charged twice", category_id=PUBLIC)
    topic = first["topic_id"]
    harness.forum.user_posts(topic, "Staff: customer ACME, card 4242", username="bob", post_type=4)
    harness.forum.user_posts(topic, "spam spam", username="bob", hidden=True)
    harness.forum.user_posts(topic, "my phone is 555-0100", deleted_at="2024-01-01T00:00:00.000Z")
    question = harness.forum.user_posts(topic, "@citecast how long do refunds take?")
    await harness.deliver(question)
    history = harness.answerer.calls[-1][2]
    told = "\n".join(f"{h.question}\n{h.answer}" for h in history)
    assert "My order was charged twice" in told
    for secret in ("ACME", "4242", "spam", "555-0100"):
        assert secret not in told


def test_history_keeps_only_regular_visible_posts() -> None:
    posts = [
        {"post_number": 1, "username": "alice", "raw": "Question", "post_type": 1},
        {"post_number": 2, "username": "bob", "raw": "whisper", "post_type": 4},
        {"post_number": 3, "username": "mod", "raw": "note", "post_type": 2},
        {"post_number": 4, "username": "bob", "raw": "flagged", "hidden": True},
        {"post_number": 5, "username": "bob", "raw": "gone", "user_deleted": True},
        {"post_number": 6, "username": "citecast", "raw": "Answer"},
    ]
    history = history_from_posts(posts, "citecast", before_post_number=7)
    assert [(h.question, h.answer) for h in history] == [("@alice: Question", "Answer")]
