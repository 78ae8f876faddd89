"""Delivery: Block Kit limits held for big answers, retries, files, feedback buttons."""

from __future__ import annotations

import re
import time
from pathlib import Path

from bot.connectors.slack_files import upload_title
from bot.models import Answer, Citation, Source
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    all_blocks,
    answer_citing,
    context_texts,
    mention,
    slack_world,
)
from tests.fakes.slack_blocks import validate_blocks


async def test_sixty_citations_all_arrive_within_the_limits(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(60))
    async with slack_world(tmp_path, answerer) as world:
        await world.post_event(mention("cite everything", ts="1600000000.010000"))
        fake = world.fake
        assert fake.calls and all(c.response.get("ok") for c in fake.calls)
        messages = fake.bot_messages(PUBLIC, thread_ts="1600000000.010000")
        for message in messages:
            assert validate_blocks(message["blocks"]) == []
        sources = context_texts(messages)
        for n in range(1, 61):
            assert sum(f"[{n}] Guide {n}>" in s for s in sources) == 1, n


async def test_sixty_citations_stream_natively_within_the_limits(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(60), chunk=50)
    async with slack_world(tmp_path, answerer, streaming="native") as world:
        await world.post_event(mention("cite everything", ts="1600000000.011000"))
        fake = world.fake
        assert all(c.response.get("ok") for c in fake.calls)
        messages = fake.bot_messages(PUBLIC, thread_ts="1600000000.011000")
        sources = context_texts(messages)
        assert all(any(f"Guide {n}>" in s for s in sources) for n in range(1, 61))


async def test_a_long_answer_is_split_into_several_messages_in_order(tmp_path: Path) -> None:
    text = "\n\n".join(
        f"# Part {i}\n\nSection {i} explains step {i} in detail.[^{i % 5 + 1}]" for i in range(40)
    )
    answerer = CannedAnswerer(answer_citing(5, text=text))
    async with slack_world(tmp_path, answerer) as world:
        await world.post_event(mention("everything", ts="1600000000.012000"))
        messages = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.012000")
        assert len(messages) >= 2
        assert all(len(m["blocks"]) <= 50 for m in messages)
        headers = [b["text"]["text"] for b in all_blocks(messages) if b["type"] == "header"]
        assert headers == [f"Part {i}" for i in range(40)]
        assert len(context_texts(messages)) == 5
        feedback = [b for b in all_blocks(messages) if b.get("block_id") == "citecast_feedback"]
        assert len(feedback) == 1
        assert feedback[0] in messages[-1]["blocks"]


async def test_a_rate_limited_post_waits_retry_after_and_posts_once(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        world.fake.fail("chat.postMessage", status=429, retry_after=7)
        await world.post_event(mention("busy", ts="1600000000.013000"))
        attempts = world.fake.calls_to("chat.postMessage")
        assert [c.status for c in attempts] == [429, 200]
        assert world.sleeps == [7.0]
        assert len(world.fake.bot_messages(PUBLIC)) == 1


async def test_a_rate_limit_longer_than_retry_max_is_left_to_the_outbox(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, retry_max_seconds=60) as world:
        world.fake.fail("chat.postMessage", status=429, retry_after=3600, times=2)
        await world.post_event(mention("busy", ts="1600000000.013500"))
        # not an hour of waiting inside the answer's task: one try, then the outbox
        assert [c.status for c in world.fake.calls_to("chat.postMessage")] == [429]
        assert world.sleeps == []
        [queued] = world.store.pending("slack")
        assert await world.connector.outbox.flush() == 0  # Slack still says wait an hour
        [still] = world.store.pending("slack")
        assert still.id == queued.id and world.fake.bot_messages(PUBLIC) == []
        # and the outbox does not ask again before the hour is up
        assert still.next_attempt_at >= time.time() + 3500


async def test_server_errors_are_retried_with_backoff(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, retry_backoff_seconds=0.5) as world:
        world.fake.fail("chat.postMessage", status=500, times=2)
        await world.post_event(mention("flaky", ts="1600000000.014000"))
        attempts = world.fake.calls_to("chat.postMessage")
        assert [c.status for c in attempts] == [500, 500, 200]
        assert world.sleeps == [0.5, 1.0]
        assert len(world.fake.bot_messages(PUBLIC)) == 1


async def test_an_answer_slack_will_not_take_is_queued_and_sent_once(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, max_retries=1) as world:
        world.fake.fail("chat.postMessage", status=500, times=2)
        await world.post_event(mention("down", ts="1600000000.015000"))
        assert world.fake.bot_messages(PUBLIC) == []
        [queued] = world.store.pending("slack")
        assert queued.payload["thread_ts"] == "1600000000.015000"
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.015000")
        assert [t.status for t in turns] == ["done"]
        assert await world.connector.outbox.flush() == 1
        assert await world.connector.outbox.flush() == 0
        [message] = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.015000")
        assert len(context_texts([message])) == 1
        assert world.store.pending("slack") == []


async def test_a_partly_posted_answer_resumes_without_repeating(tmp_path: Path) -> None:
    text = "\n\n".join(f"# Part {i}\n\nStep {i} in detail.[^{i % 3 + 1}]" for i in range(40))
    answerer = CannedAnswerer(answer_citing(3, text=text))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        world.fake.fail("chat.postMessage", error="fatal_error", after=1)
        await world.post_event(mention("everything", ts="1600000000.019000"))
        assert len(world.fake.bot_messages(PUBLIC)) == 1
        await world.connector.outbox.flush()
        messages = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.019000")
        headers = [b["text"]["text"] for b in all_blocks(messages) if b["type"] == "header"]
        assert headers == [f"Part {i}" for i in range(40)]
        assert world.store.pending("slack") == []


def file_answer(path: Path) -> Answer:
    source = Source(
        id="handbook", title="Staff handbook", filename="handbook.pdf", path=str(path),
        media_type="application/pdf", page=3,
    )  # fmt: skip
    return Answer(
        text="Leave is 25 days.[^1]",
        citations=(Citation(n=1, source=source, source_number=1),),
    )


async def test_a_cited_file_without_a_url_is_uploaded_into_the_thread(tmp_path: Path) -> None:
    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(b"%PDF-1.4 fake handbook" * 50)
    answerer = CannedAnswerer(file_answer(pdf))
    async with slack_world(tmp_path, answerer) as world:
        await world.post_event(mention("leave?", ts="1600000000.016000"))
        fake = world.fake
        [complete] = fake.calls_to("files.completeUploadExternal", ok_only=True)
        assert complete.args["channel_id"] == PUBLIC
        assert complete.args["thread_ts"] == "1600000000.016000"
        [upload] = fake.state.uploads.values()
        assert upload["data"] == pdf.read_bytes()
        assert upload["filename"] == "handbook.pdf"
        sources = context_texts(fake.bot_messages(PUBLIC))
        assert any("handbook.pdf" in s for s in sources)


def chunks_of(path: Path, count: int) -> Answer:
    """An answer citing ``count`` passages of one file, then a web page."""
    chunks = [
        Source(
            id=f"docs/getting-started.md#{i}",
            title="Getting started",
            path=str(path),
            filename="getting-started.md",
            media_type="text/markdown",
            section=f"Step {i}",
        )
        for i in range(1, count + 1)
    ]
    web = Source(id="web", title="Web guide", url="https://docs.example.com/web")
    citations = [Citation(n=n, source=s, source_number=n) for n, s in enumerate(chunks, 1)]
    citations.append(Citation(n=count + 1, source=web, source_number=count + 1))
    text = " ".join(f"Step {n}.[^{n}]" for n in range(1, count + 2))
    return Answer(text=text, citations=tuple(citations))


async def test_a_file_cited_several_times_is_uploaded_once_titled_with_every_number(
    tmp_path: Path,
) -> None:
    guide = tmp_path / "getting-started.md"
    guide.write_text("# Getting started\n\nStep one.\n")
    async with slack_world(tmp_path, CannedAnswerer(chunks_of(guide, 4))) as world:
        await world.post_event(mention("how do I start?", ts="1600000000.018000"))
        [upload] = world.fake.state.uploads.values()
        assert upload["title"] == "[1][2][3][4] getting-started.md"
        sources = context_texts(world.fake.bot_messages(PUBLIC))
        assert sum("(attached: getting-started.md)" in s for s in sources) == 4


def test_an_upload_title_names_many_numbers_within_bounds() -> None:
    entry = {"n": 1, "numbers": list(range(1, 31))}
    title = upload_title(entry, "getting-started.md")
    assert title.startswith("[1][2][3][4][5][6][7][8][9][10][11]")
    assert title.endswith("… getting-started.md") and len(title) < 70
    assert upload_title({"n": 2}, "notes.md") == "[2] notes.md"


async def test_a_file_over_the_size_limit_is_named_not_uploaded(tmp_path: Path) -> None:
    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(b"x" * 5000)
    answerer = CannedAnswerer(file_answer(pdf))
    async with slack_world(tmp_path, answerer, max_file_bytes=1000) as world:
        await world.post_event(mention("leave?", ts="1600000000.017000"))
        assert world.fake.calls_to("files.getUploadURLExternal") == []
        sources = context_texts(world.fake.bot_messages(PUBLIC))
        assert any("handbook.pdf" in s for s in sources)
        assert not any("attached" in s for s in sources)


async def test_feedback_buttons_record_one_vote_per_user(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        await world.post_event(mention("rate me", ts="1600000000.018000"))
        [message] = world.fake.bot_messages(PUBLIC)
        [feedback] = [b for b in message["blocks"] if b.get("block_id") == "citecast_feedback"]
        helpful = feedback["elements"][0]
        turn_id = int(helpful["value"])
        first = await world.click(helpful["action_id"], helpful["value"])
        again = await world.click(helpful["action_id"], helpful["value"])
        other = await world.click("citecast_feedback_not_helpful", helpful["value"], user="U0OTHER")
        assert [first.status_code, again.status_code, other.status_code] == [200, 200, 200]
        assert world.store.feedback(turn_id) == ["helpful", "not_helpful"]
        thanks = world.fake.calls_to("chat.postEphemeral", ok_only=True)
        assert [c.args["user"] for c in thanks] == ["U0ASKER", "U0OTHER"]
        assert {c.args["thread_ts"] for c in thanks} == {"1.0"}
        assert world.fake.bot_messages(PUBLIC) == [message]


async def test_nothing_posted_can_ping_the_channel(tmp_path: Path) -> None:
    text = "Say <!channel> and <!here> and <@U123> loudly.[^1]"
    answer = answer_citing(1, text=text, title="<!everyone> guide")
    async with slack_world(tmp_path, CannedAnswerer(answer), streaming="native") as world:
        await world.post_event(mention("ping?"))
        sent = world.fake.everything_sent()
        assert not re.search(r"<!(channel|here|everyone)", sent)
