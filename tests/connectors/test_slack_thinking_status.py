"""An assistant thread never keeps saying ``thinking…`` once citecast has stopped working on it.

Slack removes a thread's status when the app replies there (the fake does the same). When no
reply can be posted now, the status must say what happens instead: the answer will follow
(queued in the outbox), or it failed. Each path ends with the answer or a short note.
"""

from __future__ import annotations

from pathlib import Path

from bot.connectors.slack_delivery import DELAYED_STATUS, FAILED_STATUS
from bot.connectors.slack_outbox import MAX_ATTEMPTS
from tests.connectors.slack_harness import (
    DM,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    direct_message,
    slack_world,
)
from tests.fakes.answerer import BrokenAnswerer

THINKING = "thinking\u2026"
# a post that fails with the first try and every retry (max_retries: 3) goes to the outbox
SERVER_ERRORS = 4
APOLOGY = "Sorry, I couldn't answer that just now. Please try again in a moment."


async def ask_in_assistant_thread(world: SlackWorld, text: str = "install?") -> str:
    """Open an assistant thread in the DM, ask in it; returns the thread's ts."""
    thread = world.fake.add_message(DM, "", "U0BOT", subtype="assistant_app_thread")
    await world.post_event(direct_message(text, thread_ts=thread))
    return thread


def statuses_set(world: SlackWorld, thread: str) -> list[str]:
    return [
        str(c.args["status"])
        for c in world.fake.calls_to("assistant.threads.setStatus", ok_only=True)
        if c.args["thread_ts"] == thread
    ]


def texts(world: SlackWorld, thread: str) -> list[str]:
    return [str(m["text"]) for m in world.fake.bot_messages(DM, thread_ts=thread)]


async def test_an_answer_delivered_at_once_removes_the_status(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        thread = await ask_in_assistant_thread(world)
        assert statuses_set(world, thread) == [THINKING]
        assert texts(world, thread) == ["Fact 1.[1]"]
        assert world.fake.status(DM, thread) == ""


async def test_a_queued_answer_says_it_will_follow_then_arrives(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=500, times=SERVER_ERRORS)
        thread = await ask_in_assistant_thread(world)
        assert texts(world, thread) == []
        assert world.fake.status(DM, thread) == DELAYED_STATUS
        assert await world.connector.outbox.flush() == 1
        assert texts(world, thread) == ["Fact 1.[1]"]
        assert world.fake.status(DM, thread) == ""


async def test_a_queued_edit_mode_answer_says_it_will_follow(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(3), chunk=5)
    async with slack_world(tmp_path, answerer, streaming="edit") as world:
        world.fake.fail("chat.postMessage", status=500, times=None)
        thread = await ask_in_assistant_thread(world)
        assert texts(world, thread) == []
        assert world.fake.status(DM, thread) == DELAYED_STATUS


async def test_a_lost_answer_that_slack_took_leaves_no_note_behind(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        # Slack posts the answer (removing the status) but its reply is lost: the answer is
        # queued and the note set after the post; the outbox finds the post and removes it.
        world.fake.fail("chat.postMessage", drop=True, processed=True)
        thread = await ask_in_assistant_thread(world)
        assert world.fake.status(DM, thread) == DELAYED_STATUS
        assert await world.connector.outbox.flush() == 1
        assert texts(world, thread) == ["Fact 1.[1]"]
        assert world.fake.status(DM, thread) == ""


async def test_a_queued_answer_slack_then_refuses_ends_in_the_apology(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=500, times=SERVER_ERRORS)
        thread = await ask_in_assistant_thread(world)
        world.fake.fail("chat.postMessage", error="msg_blocks_too_long")
        assert await world.connector.outbox.flush() == 0
        assert world.store.pending("slack") == []
        assert texts(world, thread) == [APOLOGY]
        assert world.fake.status(DM, thread) == ""


async def test_a_queued_answer_dropped_after_the_last_try_ends_in_the_apology(
    tmp_path: Path,
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=500, times=SERVER_ERRORS)
        thread = await ask_in_assistant_thread(world)
        [item] = world.store.pending("slack")
        for _ in range(MAX_ATTEMPTS - 1):  # every try but the last failed already
            world.store.mark_failed_attempt(item.id, "fatal_error", retry_in=0.0)
        world.fake.fail("chat.postMessage", error="fatal_error")
        assert await world.connector.outbox.flush() == 0
        assert world.store.pending("slack") == []
        assert texts(world, thread) == [APOLOGY]
        assert world.fake.status(DM, thread) == ""


async def test_when_not_even_the_apology_can_be_posted_the_status_says_so(
    tmp_path: Path,
) -> None:
    async with slack_world(tmp_path, BrokenAnswerer(())) as world:
        world.fake.fail("chat.postMessage", status=500, times=None)
        thread = await ask_in_assistant_thread(world)
        assert texts(world, thread) == []
        assert world.fake.status(DM, thread) == FAILED_STATUS


async def test_a_failed_answer_replaces_the_status_with_the_apology(tmp_path: Path) -> None:
    async with slack_world(tmp_path, BrokenAnswerer(["Partly "]), streaming="edit") as world:
        thread = await ask_in_assistant_thread(world)
        assert texts(world, thread) == [APOLOGY]
        assert world.fake.status(DM, thread) == ""


async def test_a_plain_dm_sets_no_status(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=429, retry_after=600)
        await world.post_event(direct_message("install?"))  # a DM, not an assistant thread
        assert world.fake.calls_to("assistant.threads.setStatus") == []
        assert len(world.store.pending("slack")) == 1


async def test_a_streamed_answer_removes_the_status(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=5)
    async with slack_world(tmp_path, answerer, streaming="native") as world:
        thread = await ask_in_assistant_thread(world)
        assert world.fake.calls_to("chat.startStream", ok_only=True)
        assert texts(world, thread) == [
            "Fact 1.[[1]](https://docs.example.com/guide-1)"
            " Fact 2.[[2]](https://docs.example.com/guide-2)"
        ]
        assert world.fake.status(DM, thread) == ""


async def test_a_stream_that_cannot_start_nor_post_says_it_will_follow(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=5)
    async with slack_world(tmp_path, answerer, streaming="native") as world:
        world.fake.streaming_error = "feature_not_enabled"
        world.fake.fail("chat.postMessage", status=500, times=None)
        thread = await ask_in_assistant_thread(world)
        assert texts(world, thread) == []
        assert len(world.store.pending("slack")) == 1
        assert world.fake.status(DM, thread) == DELAYED_STATUS


async def test_the_status_comes_before_naming_the_people_mentioned(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        for n in range(5):
            world.fake.add_user(f"U0P{n}", name=f"Person {n}")
        people = " ".join(f"<@U0P{n}>" for n in range(5))
        thread = await ask_in_assistant_thread(world, f"what did {people} decide?")
        methods = [c.method for c in world.fake.calls if c.method != "auth.test"]
        assert methods[0] == "assistant.threads.setStatus"
        assert methods.count("users.info") >= 5
        assert texts(world, thread) == ["Fact 1.[1]"]


async def test_the_status_shows_again_after_the_long_question_note(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        limit = world.connector.services.settings.web.max_question_chars
        thread = await ask_in_assistant_thread(world, "why " * limit)
        shown = [
            (c.method, c.args.get("status"))
            for c in world.fake.calls
            if c.method in ("chat.postMessage", "assistant.threads.setStatus")
        ]
        # the note's post removes the status: it is set again before the answer is worked out
        assert shown[-3:] == [
            ("chat.postMessage", None),
            ("assistant.threads.setStatus", THINKING),
            ("chat.postMessage", None),
        ]
        assert len(texts(world, thread)) == 2
