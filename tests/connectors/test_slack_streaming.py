"""Streaming answers: native chat.*Stream, fallback to post-then-edit, a stream Slack closes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    DM,
    PUBLIC,
    CannedAnswerer,
    all_blocks,
    answer_citing,
    context_texts,
    direct_message,
    mention,
    slack_world,
)
from tests.fakes.answerer import BrokenAnswerer

LONG_TEXT = "\n\n".join(f"Paragraph {i} says something useful.[^{i % 3 + 1}]" for i in range(60))


def streamed_markdown(world_calls: list[dict[str, object]]) -> str:
    text = ""
    for args in world_calls:
        text += str(args.get("markdown_text") or "")
        for chunk in args.get("chunks") or []:  # type: ignore[attr-defined]
            text += chunk.get("text", "")
    return text


async def test_native_stream_ends_with_sources_and_feedback(tmp_path: Path) -> None:
    answer = answer_citing(3)
    answerer = CannedAnswerer(answer, chunk=5)
    async with slack_world(tmp_path, answerer, streaming="native", stream_buffer_chars=10) as world:
        await world.post_event(mention("stream it", ts="1600000000.001000"))
        fake = world.fake
        assert fake.calls_to("chat.postMessage") == []
        starts = fake.calls_to("chat.startStream", ok_only=True)
        assert len(starts) == 1
        assert starts[0].args["thread_ts"] == "1600000000.001000"
        assert starts[0].args["recipient_user_id"] == "U0ASKER"
        assert starts[0].args["recipient_team_id"] == "T0TEAM"
        assert len(fake.calls_to("chat.appendStream", ok_only=True)) >= 1
        stops = fake.calls_to("chat.stopStream", ok_only=True)
        assert len(stops) == 1
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.001000")
        assert message["streaming"] is False
        # each marker links to its source, as the rendered message's <url|[n]> does
        assert message["text"] == " ".join(
            f"Fact {n}.[[{n}]](https://docs.example.com/guide-{n})" for n in (1, 2, 3)
        )
        sources = context_texts([message])
        for n in (1, 2, 3):
            assert sum(f"Guide {n}" in s for s in sources) == 1
        assert any(b.get("block_id") == "citecast_feedback" for b in message["blocks"])


@pytest.mark.parametrize("refusal", ["feature_not_enabled", "unknown_method"])
async def test_unsupported_streaming_falls_back_to_post_then_edit(
    tmp_path: Path, refusal: str
) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=4)
    async with slack_world(tmp_path, answerer, streaming="native", stream_buffer_chars=8) as world:
        world.fake.streaming_error = refusal
        await world.post_event(mention("fallback please", ts="1600000000.002000"))
        fake = world.fake
        assert [c.response["error"] for c in fake.calls_to("chat.startStream")] == [refusal]
        posts = fake.calls_to("chat.postMessage", ok_only=True)
        updates = fake.calls_to("chat.update", ok_only=True)
        assert len(posts) == 1
        assert len(updates) >= 2
        assert all(len(u.args.get("text") or "") <= 4000 for u in updates)
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.002000")
        assert "Fact 2." in " ".join(
            b["text"]["text"] for b in message["blocks"] if b["type"] == "section"
        )
        assert len(context_texts([message])) == 2
        assert any(b.get("block_id") == "citecast_feedback" for b in message["blocks"])


async def test_short_answers_that_cannot_stream_are_posted_once(tmp_path: Path) -> None:
    """The stream helper only starts at stop() for a short answer; the refusal comes there."""
    answerer = CannedAnswerer(answer_citing(1), chunk=100)
    async with slack_world(
        tmp_path, answerer, streaming="native", stream_buffer_chars=5000
    ) as world:
        world.fake.streaming_error = "feature_not_enabled"
        await world.post_event(mention("short", ts="1600000000.003000"))
        assert len(world.fake.calls_to("chat.postMessage", ok_only=True)) == 1
        assert world.fake.calls_to("chat.update") == []
        assert len(world.fake.bot_messages(PUBLIC)) == 1


async def test_a_stream_slack_closes_mid_answer_is_completed(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(tmp_path, answerer, streaming="native", stream_buffer_chars=6) as world:
        world.fake.close_stream_after = 2
        await world.post_event(mention("closed", ts="1600000000.004000"))
        fake = world.fake
        closed = [
            c for c in fake.calls if c.response.get("error") == "message_not_in_streaming_state"
        ]
        assert closed
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.004000")
        assert message["streaming"] is False
        assert message.get("edits") == 1
        body = " ".join(b["text"]["text"] for b in message["blocks"] if b["type"] == "section")
        assert "Fact 4." in body
        assert len(context_texts([message])) == 4
        assert any(b.get("block_id") == "citecast_feedback" for b in message["blocks"])


async def test_an_answer_too_long_for_one_stream_is_completed_normally(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(3, text=LONG_TEXT), chunk=50)
    async with slack_world(
        tmp_path,
        answerer,
        streaming="native",
        stream_buffer_chars=100,
        native_stream_max_chars=500,
    ) as world:
        await world.post_event(mention("long", ts="1600000000.005000"))
        fake = world.fake
        shown = streamed_markdown(
            [c.args for c in fake.calls if c.method.startswith("chat.") and "Stream" in c.method]
        )
        assert len(shown) <= 500
        messages = fake.bot_messages(PUBLIC, thread_ts="1600000000.005000")
        body = " ".join(b["text"]["text"] for b in all_blocks(messages) if b["type"] == "section")
        assert "Paragraph 59 says" in body
        assert all(not m.get("streaming") for m in messages)
        assert all(c.response.get("ok") for c in fake.calls if c.method != "chat.appendStream")


async def test_edit_mode_edits_at_most_once_per_interval(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(5), chunk=3)
    async with slack_world(
        tmp_path, answerer, streaming="edit", edit_interval_seconds=3600.0
    ) as world:
        await world.post_event(mention("throttled", ts="1600000000.006000"))
        fake = world.fake
        assert len(fake.calls_to("chat.postMessage")) == 1
        # one placeholder post, then only the final edit: the interval never elapsed
        assert len(fake.calls_to("chat.update")) == 1
        assert world.sleeps and world.sleeps[-1] > 3500
        [message] = fake.bot_messages(PUBLIC)
        assert len(context_texts([message])) == 5


async def test_edit_mode_with_no_interval_edits_as_text_arrives(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(3), chunk=6)
    async with slack_world(tmp_path, answerer, streaming="edit") as world:
        await world.post_event(mention("live", ts="1600000000.007000"))
        updates = world.fake.calls_to("chat.update", ok_only=True)
        assert len(updates) >= 5
        texts = [
            " ".join(b["text"]["text"] for b in u.args["blocks"] if b["type"] == "section")
            for u in updates
        ]
        assert texts == sorted(texts, key=len)


async def test_a_failure_mid_stream_replaces_the_partial_answer(tmp_path: Path) -> None:
    answerer = BrokenAnswerer(["Half of an ", "answer that ", "never ends"])
    async with slack_world(tmp_path, answerer, streaming="native", stream_buffer_chars=4) as world:
        await world.post_event(direct_message("doomed", ts="1600000000.008000"))
        [message] = world.fake.bot_messages(DM)
        assert message["streaming"] is False
        assert message["text"] == world.connector.settings.apology
        assert len(world.fake.calls_to("chat.postMessage")) == 0


async def test_assistant_threads_show_thinking_and_offer_prompts(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, suggested_prompts=["How do I install?", "Where are the docs?"]
    ) as world:
        started = {
            "type": "assistant_thread_started",
            "assistant_thread": {"user_id": "U0ASKER", "channel_id": DM, "thread_ts": "1.000001"},
        }
        await world.post_event(started)
        [prompts] = world.fake.calls_to("assistant.threads.setSuggestedPrompts", ok_only=True)
        assert [p["message"] for p in prompts.args["prompts"]] == [
            "How do I install?",
            "Where are the docs?",
        ]
        await world.post_event(direct_message("install?", thread_ts="1.000001"))
        [status] = world.fake.calls_to("assistant.threads.setStatus", ok_only=True)
        assert status.args["status"] == "thinking\u2026"
        assert status.args["thread_ts"] == "1.000001"
        assert len(world.fake.bot_messages(DM, thread_ts="1.000001")) == 1


async def test_a_closed_stream_that_cannot_be_edited_is_replaced(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(tmp_path, answerer, streaming="native", stream_buffer_chars=6) as world:
        world.fake.close_stream_after = 1
        world.fake.fail("chat.update", error="cant_update_message")
        await world.post_event(mention("closed", ts="1600000000.009000"))
        fake = world.fake
        assert len(fake.calls_to("chat.delete", ok_only=True)) == 1
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.009000")
        assert "streaming" not in message
        assert len(context_texts([message])) == 4


async def test_sources_too_long_for_the_stream_end_arrive_in_a_completed_message(
    tmp_path: Path,
) -> None:
    # 60 long titles hold more block text than Slack takes in one chat.stopStream
    answer = answer_citing(60, title="A guide whose title runs on and on " * 6)
    async with slack_world(tmp_path, CannedAnswerer(answer, chunk=40), streaming="native") as world:
        await world.post_event(mention("many sources", ts="1600000000.007000"))
        fake = world.fake
        refused = [c.method for c in fake.calls if not c.response.get("ok")]
        assert refused == []
        messages = fake.bot_messages(PUBLIC, thread_ts="1600000000.007000")
        sources = context_texts(messages)
        for n in range(1, 61):
            assert (
                sum(f"doc-{n}" in s or f"guide-{n}>" in s or f"guide-{n}|" in s for s in sources)
                == 1
            )
