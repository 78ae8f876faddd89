"""The fake Slack Web API refuses what Slack refuses, through the real slack_sdk client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from tests.fakes.slack_api import FakeSlackAPI
from tests.fakes.slack_blocks import validate_blocks


def section(text: str) -> dict[str, object]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlackAPI]:
    api = FakeSlackAPI()
    await api.start()
    api.add_channel("C1", "public")
    yield api
    await api.stop()


def client_for(fake: FakeSlackAPI) -> AsyncWebClient:
    return AsyncWebClient(token=fake.bot_token, base_url=fake.base_url, retry_handlers=[])


async def test_accepts_a_valid_message_and_records_it(fake: FakeSlackAPI) -> None:
    client = client_for(fake)
    response = await client.chat_postMessage(channel="C1", text="hi", blocks=[section("hi")])
    assert response["ok"] is True
    assert fake.bot_messages("C1")[0]["text"] == "hi"
    assert fake.calls_to("chat.postMessage")[0].args["blocks"] == [section("hi")]


@pytest.mark.parametrize(
    ("blocks", "needle"),
    [
        ([section("x")] * 51, "at most 50 items"),
        ([section("x" * 3001)], "less than 3001"),
        ([{"type": "header", "text": {"type": "plain_text", "text": "h" * 151}}], "151"),
        (
            [{"type": "context", "elements": [{"type": "mrkdwn", "text": "s"}] * 11}],
            "at most 10",
        ),
        ([{"type": "section", "text": {"type": "mrkdwn", "text": ""}}], "more than 0"),
        ([{"type": "bogus"}], "unsupported type"),
    ],
)
async def test_refuses_blocks_over_the_limits(
    fake: FakeSlackAPI, blocks: list[dict[str, object]], needle: str
) -> None:
    with pytest.raises(SlackApiError) as info:
        await client_for(fake).chat_postMessage(channel="C1", text="t", blocks=blocks)
    assert info.value.response["error"] == "invalid_blocks"
    assert any(needle in problem for problem in info.value.response["errors"])
    assert fake.bot_messages("C1") == []


async def test_refuses_over_long_text_and_update_text(fake: FakeSlackAPI) -> None:
    client = client_for(fake)
    with pytest.raises(SlackApiError) as long_post:
        await client.chat_postMessage(channel="C1", text="x" * 40_001)
    assert long_post.value.response["error"] == "msg_too_long"
    posted = await client.chat_postMessage(channel="C1", text="short")
    with pytest.raises(SlackApiError) as long_update:
        await client.chat_update(channel="C1", ts=posted["ts"], text="y" * 4001)
    assert long_update.value.response["error"] == "msg_too_long"
    await client.chat_update(channel="C1", ts=posted["ts"], text="y" * 4000)
    assert fake.bot_messages("C1")[0]["text"] == "y" * 4000


async def test_scripted_failures_answer_like_slack(fake: FakeSlackAPI) -> None:
    client = client_for(fake)
    fake.fail("chat.postMessage", status=429, retry_after=3)
    with pytest.raises(SlackApiError) as limited:
        await client.chat_postMessage(channel="C1", text="x")
    assert limited.value.response.status_code == 429
    assert limited.value.response.headers["Retry-After"] == "3"
    fake.streaming_error = "feature_not_enabled"
    with pytest.raises(SlackApiError) as refused:
        await client.chat_startStream(channel="C1", thread_ts="1.0")
    assert refused.value.response["error"] == "feature_not_enabled"
    assert (await client.chat_postMessage(channel="C1", text="x"))["ok"] is True


async def test_stream_lifecycle_and_closing_mid_way(fake: FakeSlackAPI) -> None:
    client = client_for(fake)
    with pytest.raises(SlackApiError) as no_recipient:
        await client.chat_startStream(channel="C1", thread_ts="1.0", markdown_text="a")
    assert no_recipient.value.response["error"] == "missing_recipient_user_id"
    fake.close_stream_after = 1
    started = await client.chat_startStream(
        channel="C1",
        thread_ts="1.0",
        markdown_text="a",
        recipient_team_id="T0TEAM",
        recipient_user_id="U1",
    )
    await client.chat_appendStream(channel="C1", ts=started["ts"], markdown_text="b")
    with pytest.raises(SlackApiError) as closed:
        await client.chat_appendStream(channel="C1", ts=started["ts"], markdown_text="c")
    assert closed.value.response["error"] == "message_not_in_streaming_state"
    assert fake.bot_messages("C1")[0]["text"] == "ab"


def test_block_validation_accepts_a_typical_answer() -> None:
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "Title"}},
        section("Body <https://a.example|[1]>"),
        {"type": "context", "elements": [{"type": "mrkdwn", "text": "[1] A"}]},
        {
            "type": "actions",
            "block_id": "citecast_feedback",
            "elements": [
                {
                    "type": "button",
                    "text": {"type": "plain_text", "text": "Helpful"},
                    "action_id": "a",
                    "value": "1",
                }
            ],
        },
    ]
    assert validate_blocks(blocks) == []


async def test_thread_replies_come_in_pages_oldest_first(fake: FakeSlackAPI) -> None:
    client = client_for(fake)
    root = fake.add_message("C1", "question", "U1")
    for i in range(4):
        fake.add_message("C1", f"reply {i}", "U1", thread_ts=root)
    texts: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = await client.conversations_replies(channel="C1", ts=root, limit=2, cursor=cursor)
        pages += 1
        texts += [m["text"] for m in page["messages"]]
        cursor = (page.get("response_metadata") or {}).get("next_cursor")
        assert page["has_more"] is bool(cursor)
        if not cursor:
            break
    assert pages == 3
    assert texts == ["question", "reply 0", "reply 1", "reply 2", "reply 3"]
    with pytest.raises(SlackApiError) as bad:
        await client.conversations_replies(channel="C1", ts=root, cursor="not-a-cursor")
    assert bad.value.response["error"] == "invalid_cursor"


async def test_thread_replies_start_after_oldest_unless_inclusive(fake: FakeSlackAPI) -> None:
    client = client_for(fake)
    root = fake.add_message("C1", "question", "U1")
    stamps = [fake.add_message("C1", f"reply {i}", "U1", thread_ts=root) for i in range(5)]

    async def replies(oldest: str, *, inclusive: bool | None = None) -> list[str]:
        texts: list[str] = []
        cursor: str | None = None
        while True:
            page = await client.conversations_replies(
                channel="C1", ts=root, limit=2, cursor=cursor, oldest=oldest, inclusive=inclusive
            )
            texts += [m["text"] for m in page["messages"] if m["ts"] != root]
            cursor = (page.get("response_metadata") or {}).get("next_cursor")
            if not cursor:
                return texts

    assert await replies(stamps[2]) == ["reply 3", "reply 4"]
    assert await replies(stamps[2], inclusive=True) == ["reply 2", "reply 3", "reply 4"]
    assert await replies("0") == [f"reply {i}" for i in range(5)]
    assert await replies(stamps[4]) == []


@pytest.mark.parametrize("oldest", ["yesterday", "1.2.3", "12:00"])
async def test_thread_replies_refuse_a_malformed_oldest(fake: FakeSlackAPI, oldest: str) -> None:
    client = client_for(fake)
    root = fake.add_message("C1", "question", "U1")
    fake.add_message("C1", "reply", "U1", thread_ts=root)
    with pytest.raises(SlackApiError) as bad:
        await client.conversations_replies(channel="C1", ts=root, oldest=oldest)
    assert bad.value.response["error"] == "invalid_ts_oldest"
