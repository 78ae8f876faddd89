"""The Discourse REST client against the fake forum: auth, limits, retries, uploads, reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient
from bot.connectors.discourse_http import RetryPolicy
from bot.errors import ChannelError, RateLimitedError
from tests.fakes.discourse_api import NOT_PERMITTED, TOO_SIMILAR, FakeDiscourse


async def not_posted() -> bool:
    """The ``landed`` check of a post that is not in the topic yet."""
    return False


class RecordingSleep:
    """Records every wait the client asks for and does not spend it."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
async def forum() -> AsyncIterator[FakeDiscourse]:
    async with FakeDiscourse(max_post_length=5000, authorized_extensions=("png", "pdf")) as fake:
        yield fake


def make_client(
    forum: FakeDiscourse, sleep: RecordingSleep, *, key: str = "test-api-key", attempts: int = 4
) -> DiscourseClient:
    return DiscourseClient(
        forum.url,
        key,
        "citecast",
        retry=RetryPolicy(max_attempts=attempts, base_seconds=0.5, max_seconds=30),
        sleep=sleep,
    )


async def test_posts_carry_the_api_headers_and_a_wrong_key_is_refused(
    forum: FakeDiscourse,
) -> None:
    first = forum.new_topic("Install", "How do I install it?", category_id=5)
    sleep = RecordingSleep()
    client = make_client(forum, sleep)
    post = await client.create_post(first["topic_id"], "Use pip install citecast.", 1)
    assert post["username"] == "citecast"
    assert post["reply_to_post_number"] == 1
    assert forum.bot_posts()[0]["raw"] == "Use pip install citecast."
    await client.aclose()

    intruder = make_client(forum, sleep, key="wrong")
    with pytest.raises(DiscourseAPIError) as caught:
        await intruder.create_post(first["topic_id"], "Another body entirely.", 1)
    await intruder.aclose()
    assert caught.value.status == 403
    assert caught.value.errors == (NOT_PERMITTED,)
    assert len(forum.api_posts) == 1
    assert sleep.waits == []


async def test_429_waits_as_told_and_5xx_backs_off(forum: FakeDiscourse) -> None:
    topic_id = forum.new_topic("Rate", "A question about limits", category_id=5)["topic_id"]
    forum.rate_limit("/posts.json", wait_seconds=7)
    forum.fail("/posts.json", status=502, times=2)
    sleep = RecordingSleep()
    client = make_client(forum, sleep)
    await client.create_post(topic_id, "Here is the whole answer.", 1, landed=not_posted)
    await client.aclose()
    assert sleep.waits == [7.0, 1.0, 2.0]  # Retry-After, then 0.5 * 2**(attempt - 1)
    assert [status for _, path, status in forum.requests if path == "/posts.json"] == [
        429,
        502,
        502,
        200,
    ]


async def test_retries_give_up_with_our_errors(forum: FakeDiscourse) -> None:
    topic_id = forum.new_topic("Down", "Is it down?", category_id=5)["topic_id"]
    sleep = RecordingSleep()
    client = make_client(forum, sleep, attempts=2)
    forum.fail("/posts.json", status=503, times=2)
    with pytest.raises(DiscourseAPIError) as caught:
        await client.create_post(topic_id, "An answer, long enough to post.", 1, landed=not_posted)
    assert caught.value.status == 503
    forum.rate_limit("/posts.json", wait_seconds=3600)
    with pytest.raises(RateLimitedError) as limited:
        await client.create_post(topic_id, "An answer, long enough to post.", 1)
    assert limited.value.retry_after == 3600
    await client.aclose()
    assert forum.api_posts == []
    assert sleep.waits == [0.5]  # the hour-long wait is not spent inside an answer task


async def test_limits_and_the_duplicate_rule_surface_as_422(forum: FakeDiscourse) -> None:
    topic_id = forum.new_topic("Limits", "What are the limits?", category_id=5)["topic_id"]
    client = make_client(forum, RecordingSleep())
    with pytest.raises(DiscourseAPIError) as too_long:
        await client.create_post(topic_id, "x" * 5001, 1)
    assert too_long.value.errors == ("Body is limited to 5000 characters; you entered 5001.",)
    with pytest.raises(DiscourseAPIError) as too_short:
        await client.create_post(topic_id, "  Yes. <!-- a comment does not count -->  ", 1)
    assert too_short.value.errors == ("Body is too short (minimum is 20 characters)",)
    await client.create_post(topic_id, "The same answer, said twice.", 1)
    with pytest.raises(DiscourseAPIError) as duplicate:
        await client.create_post(topic_id, "The  same\nanswer, said twice.", 1)
    await client.aclose()
    assert duplicate.value.status == 422
    assert duplicate.value.errors == (TOO_SIMILAR,)
    assert duplicate.value.mentions("too similar to what you recently posted")


async def test_uploads_return_short_urls_or_the_forums_refusal(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    chart = tmp_path / "chart.png"
    chart.write_bytes(b"\x89PNG fake image bytes")
    sheet = tmp_path / "prices.xlsx"
    sheet.write_bytes(b"PK spreadsheet")
    client = make_client(forum, RecordingSleep())
    upload = await client.upload(chart, "chart.png", "image/png")
    assert upload.short_url.startswith("upload://") and upload.short_url.endswith(".png")
    assert forum.uploads[0].data == chart.read_bytes()
    with pytest.raises(DiscourseAPIError) as refused:
        await client.upload(sheet, "prices.xlsx", None)
    assert refused.value.status == 422
    assert refused.value.mentions("not authorized")
    with pytest.raises(ChannelError, match="cannot read"):
        await client.upload(tmp_path / "missing.pdf", "missing.pdf", "application/pdf")
    await client.aclose()
    assert len(forum.uploads) == 1


async def test_recent_posts_reads_past_the_first_page() -> None:
    async with FakeDiscourse(posts_per_page=3) as forum:
        topic_id = forum.new_topic("Long", "post 1", category_id=5)["topic_id"]
        for n in range(2, 9):
            forum.user_posts(topic_id, f"post {n}", username="bob")
        client = make_client(forum, RecordingSleep())
        topic, posts = await client.recent_posts(topic_id, limit=5)
        everything = (await client.recent_posts(topic_id, limit=100))[1]
        await client.aclose()
    assert topic["title"] == "Long"
    assert [p["raw"] for p in posts] == [f"post {n}" for n in range(4, 9)]
    assert [p["post_number"] for p in everything] == list(range(1, 9))
