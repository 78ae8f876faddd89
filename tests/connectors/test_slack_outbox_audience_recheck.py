"""A queued Slack answer is judged again, just before it is posted, for who reads its thread then.

The QA steps (recheckfix), over the real connector and slack-bolt against the fake Slack: a
private channel mapped to ``[staff]`` gets a staff answer; Slack's answer to the first
``chat.postMessage`` is lost, so the answer waits in the outbox; the channel is made public,
or shared with another organisation; the outbox's next pass must not post the answer (its
"Salary bands 2026" source) there. It is dropped as a refusal for good is: the asker gets the
apology, the turn is failed, one line says why. The same holds for an answer's files waiting in
the outbox when a file it cites was made private since (``citecast ingest``).

A channel shared outside that ``audience_by_channel`` maps to ``staff`` keeps that mapping, as a
new question there would (README "Who may see what"): its queued answer is posted.

A Slack outage during the check, of the channel's lookup or of the asker's (``users.info``,
``usergroups.users.list``, ``auth.test``), is a failed try, never a drop; a new question asked
meanwhile still gets the asker's fewer groups (strictfix).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.config import IndexSettings, Settings
from bot.knowledge import ingest
from tests.connectors.slack_harness import (
    ASKER,
    DM,
    PRIVATE,
    PUBLIC,
    SlackWorld,
    direct_message,
    mention,
    slack_world,
)
from tests.connectors.test_slack_audience import PUBLIC_DOC, scripted
from tests.connectors.web.test_web_files_made_private import (
    QUESTION,
    ingest_private,
    kb_with_roadmap,
)
from tests.fakes.answerer import ScriptedAnswerer

DROPPED = "dropped a queued Slack answer for G0PRIVATE before posting it"


async def queue_answer(world: SlackWorld, channel: str = PRIVATE) -> str:
    """Ask in ``channel`` while Slack's answer to the first post is lost: the answer is queued.
    Returns the question's ts."""
    fake = world.fake
    fake.fail("chat.postMessage", drop=True)
    ts = fake.add_message(channel, "<@U0BOT> pay?", ASKER)
    await world.post_event(mention("pay?", channel=channel, ts=ts))
    [queued] = world.store.pending("slack")
    assert fake.bot_messages(channel) == []
    return str(queued.id)


def posted(world: SlackWorld, channel: str = PRIVATE) -> str:
    return str(world.fake.bot_messages(channel))


@pytest.mark.parametrize("opened", ["made public", "shared outside"])
async def test_a_queued_answer_is_not_posted_where_the_asker_s_groups_no_longer_reach(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, opened: str
) -> None:
    answerer = scripted()
    mapped = opened == "made public"
    async with slack_world(
        tmp_path,
        answerer,
        request_timeout_seconds=1.0,
        # made public: the channel's mapping no longer counts; shared outside: the asker's
        # own groups, which private_channels_use_user_groups granted, no longer do
        audience_by_channel={PRIVATE: ["staff"]} if mapped else {},
        audience_by_email_domain={} if mapped else {"staff.example": ["staff"]},
        private_channels_use_user_groups=not mapped,
    ) as world:
        item = await queue_answer(world)
        assert answerer.calls[0][1] == frozenset({"public", "staff"})
        if opened == "made public":
            world.fake.add_channel(PRIVATE, "public", "staff-only")
        else:
            world.fake.add_channel(PRIVATE, "private", "staff-only", shared="external")
        with caplog.at_level(logging.ERROR, logger="bot.connectors"):
            assert await world.connector.outbox.flush() == 0
        sent = posted(world)
        assert "Salary bands" not in sent and "Band C" not in sent
        assert world.connector.settings.apology in sent
        stored = world.store.outbox_item(item)
        assert stored is not None and stored.status == "dead"
        [turn] = world.store.turns(f"slack:T0TEAM:{PRIVATE}:{turn_thread(world)}")
        assert turn.status == "failed"
        [line] = [r.getMessage() for r in caplog.records if DROPPED in r.getMessage()]
        assert "G0PRIVATE is read by public now" in line


def turn_thread(world: SlackWorld) -> str:
    """The thread ts of the one question asked (the first message in the private channel)."""
    return str(world.fake.state.messages[PRIVATE][0]["ts"])


async def test_a_channel_still_private_gets_its_queued_answer(tmp_path: Path) -> None:
    async with slack_world(
        tmp_path, scripted(), request_timeout_seconds=1.0, audience_by_channel={PRIVATE: ["staff"]}
    ) as world:
        await queue_answer(world)
        lookups = len(world.fake.calls_to("conversations.info"))
        assert await world.connector.outbox.flush() == 1
        assert "Salary bands 2026" in posted(world)
        # a staff answer costs one lookup of who reads the channel now
        assert len(world.fake.calls_to("conversations.info")) == lookups + 1


async def test_a_shared_channel_keeps_its_mapping_as_a_new_question_would(tmp_path: Path) -> None:
    async with slack_world(
        tmp_path, scripted(), request_timeout_seconds=1.0, audience_by_channel={PRIVATE: ["staff"]}
    ) as world:
        await queue_answer(world)
        world.fake.add_channel(PRIVATE, "private", "staff-only", shared="external")
        assert await world.connector.outbox.flush() == 1
        assert "Salary bands 2026" in posted(world)


async def test_a_queued_public_answer_is_posted_without_a_lookup(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([PUBLIC_DOC], "Run the installer [1].")
    async with slack_world(
        tmp_path, answerer, request_timeout_seconds=1.0, audience_by_channel={PRIVATE: ["staff"]}
    ) as world:
        await queue_answer(world)
        world.fake.add_channel(PRIVATE, "public", "staff-only")
        lookups = len(world.fake.calls_to("conversations.info"))
        assert await world.connector.outbox.flush() == 1
        assert "Install guide" in posted(world)
        assert len(world.fake.calls_to("conversations.info")) == lookups


async def test_a_queued_staff_answer_in_the_asker_s_dm_is_posted(tmp_path: Path) -> None:
    async with slack_world(
        tmp_path,
        scripted(),
        request_timeout_seconds=1.0,
        audience_by_email_domain={"staff.example": ["staff"]},
    ) as world:
        world.fake.add_channel(DM, "im", im_user=ASKER)  # Slack names the DM's person
        world.fake.fail("chat.postMessage", drop=True)
        await world.post_event(direct_message("pay?"))
        assert len(world.store.pending("slack")) == 1
        assert await world.connector.outbox.flush() == 1
        assert "Salary bands 2026" in posted(world, DM)


@pytest.mark.parametrize("private", [True, False])
async def test_queued_files_of_a_file_made_private_since_are_not_uploaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, private: bool
) -> None:
    monkeypatch.chdir(tmp_path)  # the harness's index.path is relative (.citecast/index.db)
    kb = kb_with_roadmap(tmp_path)
    index = IndexSettings()
    ingest([kb], index)
    answerer = Assistant.from_settings(Settings(index=index))
    async with slack_world(tmp_path, answerer) as world:
        fake = world.fake
        fake.fail("files.completeUploadExternal", drop=True)  # the file waits in the outbox
        ts = fake.add_message(PUBLIC, f"<@U0BOT> {QUESTION}", ASKER)
        await world.post_event(mention(QUESTION, ts=ts))
        assert "roadmap" in posted(world, PUBLIC)
        [item] = world.store.pending("slack")
        assert item.payload["files"] and not item.payload["messages"]
        if private:
            ingest_private(kb, index, "front matter")
        with caplog.at_level(logging.ERROR, logger="bot.connectors"):
            await world.connector.outbox.flush()
        shares = fake.calls_to("files.completeUploadExternal", ok_only=True)
        stored = world.store.outbox_item(item.id)
        assert stored is not None
        if private:
            assert shares == [] and stored.status == "dead"
            [line] = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
            assert line.startswith("not uploading an answer's files into C0PUBLIC")
        else:
            assert len(shares) == 1 and stored.status == "sent"


async def test_a_slack_outage_keeps_the_queued_staff_answer_for_the_next_try(
    tmp_path: Path,
) -> None:
    # Counted as public, a failed lookup would drop the staff answer with the apology; it is a
    # failed try instead, and the answer is posted once Slack says who reads the channel.
    async with slack_world(
        tmp_path, scripted(), request_timeout_seconds=1.0, audience_by_channel={PRIVATE: ["staff"]}
    ) as world:
        item = await queue_answer(world)
        world.fake.fail("conversations.info", error="internal_error")
        assert await world.connector.outbox.flush() == 0
        stored = world.store.outbox_item(item)
        assert stored is not None and (stored.status, stored.attempts) == ("pending", 1)
        assert posted(world) == "[]"  # neither the answer nor the apology
        # due now rather than after the outbox's backoff
        world.store.mark_failed_attempt(item, "Slack was down", retry_in=0.0)
        assert await world.connector.outbox.flush() == 1
        assert "Salary bands 2026" in posted(world)


STAFF_GROUP = "S0STAFF"
LOOKUPS = ["users.info", "usergroups.users.list", "auth.test"]


def asker_mapping(lookup: str) -> dict[str, object]:
    """Settings that give the asker ``staff`` through ``lookup``: the user-group mapping alone
    for usergroups.users.list (an email domain would grant it all the same), else the email
    domain (users.info names it; auth.test says the asker is of this workspace)."""
    if lookup == "usergroups.users.list":
        return {"audience_by_usergroup": {STAFF_GROUP: ["staff"]}}
    return {"audience_by_email_domain": {"staff.example": ["staff"]}}


def forget(world: SlackWorld, lookup: str) -> None:
    """Forget what the live question learnt by ``lookup``, as its cache expiring would (the
    workspace's identity, never expiring, as if the start-up auth.test had told nothing), so
    the outbox's check must ask Slack again."""
    directory = world.connector.audiences.directory
    if lookup == "users.info":
        directory._users.clear()
    elif lookup == "usergroups.users.list":
        directory._members.clear()
    else:
        directory._home = None


async def queue_dm_answer(world: SlackWorld) -> str:
    """A staff answer in the asker's DM whose post is lost: it waits in the outbox."""
    world.fake.add_channel(DM, "im", im_user=ASKER)
    world.fake.add_usergroup(STAFF_GROUP, [ASKER])
    world.fake.fail("chat.postMessage", drop=True)
    await world.post_event(direct_message("pay?"))
    [queued] = world.store.pending("slack")
    return str(queued.id)


@pytest.mark.parametrize("lookup", LOOKUPS)
async def test_a_failed_lookup_of_the_asker_keeps_their_queued_dm_answer(
    tmp_path: Path, lookup: str
) -> None:
    # Granting the asker fewer groups would drop the staff answer with the apology, as if they
    # had lost staff; Slack only failed to say, so it is a failed try and posted once it does.
    answerer = scripted()
    async with slack_world(
        tmp_path, answerer, request_timeout_seconds=1.0, **asker_mapping(lookup)
    ) as world:
        item = await queue_dm_answer(world)
        assert answerer.calls[0][1] == frozenset({"public", "staff"})
        forget(world, lookup)
        world.fake.fail(lookup, error="internal_error", times=None)
        asked = len(world.fake.calls_to(lookup))
        assert await world.connector.outbox.flush() == 0
        assert len(world.fake.calls_to(lookup)) > asked  # the check asked Slack, which failed
        stored = world.store.outbox_item(item)
        assert stored is not None and (stored.status, stored.attempts) == ("pending", 1)
        assert posted(world, DM) == "[]"  # neither the answer nor the apology
        world.fake.recover(lookup)
        world.store.mark_failed_attempt(item, "Slack was down", retry_in=0.0)  # due now
        assert await world.connector.outbox.flush() == 1
        assert "Salary bands 2026" in posted(world, DM)


@pytest.mark.parametrize("lookup", LOOKUPS)
async def test_a_new_question_while_a_lookup_of_the_asker_fails_gets_fewer_groups(
    tmp_path: Path, lookup: str
) -> None:
    # The live path answers for what it cites now: an unknown asker has no own groups, the
    # safe direction, rather than no answer at all.
    answerer = scripted()
    async with slack_world(tmp_path, answerer, **asker_mapping(lookup)) as world:
        world.fake.add_channel(DM, "im", im_user=ASKER)
        world.fake.add_usergroup(STAFF_GROUP, [ASKER])
        forget(world, lookup)
        world.fake.fail(lookup, error="internal_error", times=None)
        await world.post_event(direct_message("pay?"))
        assert answerer.calls[0][1] == frozenset({"public"})
        assert "Salary bands" not in posted(world, DM)
