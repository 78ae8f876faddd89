"""Discourse webhook pieces without I/O: signature check, event parsing, triggers, history."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import DiscourseSettings
from bot.connectors.discourse_topic import history_from_posts
from bot.connectors.discourse_webhook import (
    PostEvent,
    mentions,
    parse_post_event,
    strip_mention,
    trigger_for,
    verify_signature,
)
from bot.errors import SignatureError, ValidationError
from bot.models import Exchange

SECRET = "webhook-secret"


def sign(body: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def settings(**overrides: Any) -> DiscourseSettings:
    base: dict[str, Any] = {"enabled": True, "categories": [5, 7], "api_username": "citecast"}
    base.update(overrides)
    return DiscourseSettings(**base)


def event(**overrides: Any) -> PostEvent:
    base: dict[str, Any] = {
        "post_id": 11,
        "topic_id": 3,
        "post_number": 2,
        "username": "alice",
        "raw": "How do I install it?",
        "category_id": 5,
    }
    base.update(overrides)
    return PostEvent(**base)


def test_a_correct_signature_passes_and_any_other_is_rejected() -> None:
    body = b'{"post": {"id": 1}}'
    verify_signature(SECRET, body, sign(body))
    verify_signature(SECRET, body, sign(body).upper().replace("SHA256=", "sha256="))
    with pytest.raises(SignatureError, match="does not match"):
        verify_signature(SECRET, body + b" ", sign(body))
    with pytest.raises(SignatureError, match="does not match"):
        verify_signature(SECRET, body, sign(body, "other-secret"))
    with pytest.raises(SignatureError, match="missing"):
        verify_signature(SECRET, body, None)
    with pytest.raises(SignatureError, match="sha256="):
        verify_signature(SECRET, body, hmac.new(SECRET.encode(), body, "sha256").hexdigest())
    with pytest.raises(SignatureError, match="webhook_secret"):
        verify_signature("", body, sign(body, ""))


@given(st.binary(max_size=200), st.binary(min_size=1, max_size=200))
def test_a_signature_never_verifies_another_body(body: bytes, extra: bytes) -> None:
    verify_signature(SECRET, body, sign(body))
    with pytest.raises(SignatureError):
        verify_signature(SECRET, body + extra, sign(body))


def test_parse_reads_the_fields_that_decide_the_answer() -> None:
    body = json.dumps(
        {
            "post": {
                "id": 42,
                "topic_id": 9,
                "post_number": 3,
                "username": "bob",
                "raw": "@citecast what about PDFs?",
                "cooked": "<p>ignored</p>",
                "category_id": 7,
                "topic_title": "Uploads",
                "reply_to_post_number": 2,
                "reply_to_user": {"username": "citecast", "name": "Citecast"},
                "topic_archetype": "regular",
                "post_type": 1,
            }
        }
    ).encode()
    parsed = parse_post_event(body)
    assert parsed == PostEvent(
        post_id=42,
        topic_id=9,
        post_number=3,
        username="bob",
        raw="@citecast what about PDFs?",
        category_id=7,
        topic_title="Uploads",
        reply_to_post_number=2,
        reply_to_username="citecast",
    )


def test_parse_falls_back_to_cooked_text_and_rejects_bad_bodies() -> None:
    body = json.dumps(
        {"post": {"id": 1, "topic_id": 2, "post_number": 1, "cooked": "<p>A &amp; B</p><p>C</p>"}}
    ).encode()
    assert parse_post_event(body).raw == "A & B\nC"
    with pytest.raises(ValidationError, match="not JSON"):
        parse_post_event(b"{nope")
    with pytest.raises(ValidationError, match="'post'"):
        parse_post_event(b'{"topic": {}}')
    with pytest.raises(ValidationError, match="topic_id"):
        parse_post_event(b'{"post": {"id": 1, "post_number": 1}}')


def test_triggers_follow_the_configuration() -> None:
    config = settings()
    assert trigger_for(event(post_number=1), config) == "new_topic"
    assert trigger_for(event(raw="hey @CiteCast, help"), config) == "mention"
    assert trigger_for(event(reply_to_username="citecast"), config) == "reply"
    assert trigger_for(event(), config) is None
    # Never its own posts, never outside the listed categories, never whispers or PMs.
    assert trigger_for(event(username="citecast", post_number=1), config) is None
    assert trigger_for(event(post_number=1, category_id=99), config) is None
    assert trigger_for(event(post_number=1, category_id=None), config) is None
    assert trigger_for(event(post_number=1, post_type=4), config) is None
    quiet = settings(answer_new_topics=False, answer_mentions=False, answer_replies=False)
    for candidate in (
        event(post_number=1),
        event(raw="@citecast hi"),
        event(reply_to_username="citecast"),
    ):
        assert trigger_for(candidate, quiet) is None


def test_a_mention_inside_a_quote_is_not_a_mention() -> None:
    config = settings()
    quoting = '[quote="alice, post:2, topic:3"]\n@citecast how do I install?\n[/quote]\n\n+1'
    assert trigger_for(event(raw=quoting), config) is None
    nested = "[quote]a [quote]@citecast hi[/quote] b[/quote] me too"
    assert trigger_for(event(raw=nested), config) is None
    # The poster's own mention still counts, wherever the quote stands.
    asked = quoting.replace("+1", "@citecast and on ARM?")
    assert trigger_for(event(raw=asked), config) == "mention"
    assert strip_mention(asked, "citecast") == "and on ARM?"


def test_mentions_match_whole_usernames_only() -> None:
    assert mentions("ask @citecast.", "citecast")
    assert mentions("@citecast: hi", "citecast")
    assert not mentions("ask @citecast_bot", "citecast")
    assert not mentions("ask @citecast-dev", "citecast")
    assert not mentions("mail me at x@citecast", "citecast")
    assert not mentions("citecast", "citecast")
    assert strip_mention("@citecast, how do I log in?", "citecast") == "how do I log in?"
    quoted = '[quote="citecast, post:2, topic:7"]\nUse pip.\n[/quote]\n\nAnd on Windows?'
    assert strip_mention(quoted, "citecast") == "And on Windows?"


def test_history_pairs_people_with_the_bot_and_stops_before_the_post() -> None:
    posts = [
        {"post_number": 1, "username": "alice", "raw": "Install fails"},
        {"post_number": 2, "username": "citecast", "raw": "Try the wheel.[^1]"},
        {"post_number": 3, "username": "bob", "cooked": "<p>Same here</p>"},
        {"post_number": 4, "username": "alice", "raw": "Still failing"},
        {"post_number": 5, "username": "alice", "raw": "the current question"},
    ]
    history = history_from_posts(posts, "citecast", before_post_number=5, topic_title="Setup")
    assert history == [
        Exchange(question="@alice: Setup\n\nInstall fails", answer="Try the wheel.[^1]"),
        Exchange(question="@bob: Same here\n\n@alice: Still failing", answer=""),
    ]
    assert history_from_posts(posts, "citecast", before_post_number=1) == []
