"""A later part of a long Slack answer refused for good leaves no citations without sources.

Slack takes the first messages of a long answer, then refuses the next one itself (a message it
will never take, or one the workspace does not let the bot post). The parts already posted
cite ``[n]`` sources listed only at the end of the answer, which never arrives: they are
replaced by the one apology (the first) and deleted (the rest), as Discord does.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.models import Source
from tests.connectors.slack_harness import ASKER, PUBLIC, Json, mention, slack_world
from tests.fakes.answerer import ScriptedAnswerer

APOLOGY_START = "Sorry"
LINKED_MARKER = re.compile(r"\|\[\d\]>")


def long_answer() -> ScriptedAnswerer:
    """Sixty long paragraphs citing three sources: some four Slack messages."""
    raw = "\n\n".join(
        f"Paragraph {i}: " + "this part explains the topic at some length. " * 12 + f"[{i % 3 + 1}]"
        for i in range(60)
    )
    sources = [
        Source(id=f"d{k}", title=f"Doc {k}", url=f"https://docs.example.com/{k}") for k in (1, 2, 3)
    ]
    return ScriptedAnswerer(sources, raw, chunk=300)


def cited_sections(messages: list[Json]) -> list[str]:
    return [
        b["text"]["text"]
        for m in messages
        for b in m.get("blocks") or []
        if b["type"] == "section" and LINKED_MARKER.search(b["text"]["text"])
    ]


def listed_sources(messages: list[Json]) -> list[str]:
    return [
        e["text"]
        for m in messages
        for b in m.get("blocks") or []
        if b["type"] == "context"
        for e in b["elements"]
    ]


@pytest.mark.parametrize("mode", ["none", "edit", "native"])
@pytest.mark.parametrize("error", ["invalid_blocks", "msg_too_long", "msg_blocks_too_long"])
async def test_a_part_slack_refuses_for_good_leaves_no_citations_without_sources(
    tmp_path: Path, mode: str, error: str
) -> None:
    async with slack_world(tmp_path, long_answer(), streaming=mode) as world:
        # Slack takes the first messages and refuses the next one itself (the stream, in
        # native mode, is the first message)
        world.fake.fail("chat.postMessage", after=1 if mode == "native" else 2, error=error)
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> q", ASKER)
        await world.post_event(mention("q", ts=ts))
        left = world.fake.bot_messages(PUBLIC, ts)
        assert not cited_sections(left) or listed_sources(left), (
            f"{len(cited_sections(left))} sections with citations, no sources"
        )
        # what stays is the one apology, in place of the first part
        assert [m["text"][: len(APOLOGY_START)] for m in left] == [APOLOGY_START]
        assert not any(m.get("streaming") for m in left)


async def test_a_part_the_workspace_restricts_is_withdrawn_with_an_apology_in_its_place(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """restricted_action on a later part: Slack took the first parts, so the channel was open to
    the bot a moment ago; the posted parts still become the apology."""
    caplog.set_level(logging.INFO)
    async with slack_world(tmp_path, long_answer()) as world:
        world.fake.fail("chat.postMessage", after=2, error="restricted_action", times=None)
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> q", ASKER)
        await world.post_event(mention("q", ts=ts))
        left = world.fake.bot_messages(PUBLIC, ts)
        assert [m["text"][: len(APOLOGY_START)] for m in left] == [APOLOGY_START]
        assert cited_sections(left) == []
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "restricted_action" in errors[0], errors


async def test_posted_parts_nothing_can_replace_are_deleted_and_said_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Where not even an edit is taken, the parts are deleted; one line says the asker got
    no apology."""
    caplog.set_level(logging.INFO)
    async with slack_world(tmp_path, long_answer()) as world:
        world.fake.fail("chat.postMessage", after=2, error="restricted_action", times=None)
        world.fake.fail("chat.update", error="restricted_action", times=None)
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> q", ASKER)
        await world.post_event(mention("q", ts=ts))
        assert world.fake.bot_messages(PUBLIC, ts) == []
    told = [r.getMessage() for r in caplog.records if "could not tell the user" in r.getMessage()]
    assert len(told) == 1 and PUBLIC in told[0], told


async def test_a_stream_the_workspace_restricts_midway_is_withdrawn(tmp_path: Path) -> None:
    """restricted_action on a piece of a native stream: what was streamed is stopped and becomes
    the apology, not left streaming with citations and no sources."""
    async with slack_world(tmp_path, long_answer(), streaming="native") as world:
        world.fake.fail("chat.appendStream", after=1, error="restricted_action", times=None)
        world.fake.fail("chat.postMessage", error="restricted_action", times=None)
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> q", ASKER)
        await world.post_event(mention("q", ts=ts))
        left = world.fake.bot_messages(PUBLIC, ts)
        assert [m["text"][: len(APOLOGY_START)] for m in left] == [APOLOGY_START]
        assert not any(m.get("streaming") for m in left)
