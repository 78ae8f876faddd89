"""Who may read the answer decides what it may cite: channels, restricted roles, DMs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.models import Answer, Source
from tests.connectors.test_discord_harness import (
    Harness,
    World,
    harness,
    start_harness,
    stop_harness,
)
from tests.fakes.discord_api import FakeDiscord

__all__ = ["harness"]

PUBLIC = Source(id="pub", title="Public guide", url="https://docs.example.com/public")
PRIVATE = Source(
    id="private-id",
    title="Staff runbook",
    url="https://intranet.example.com/runbook",
    audience=("staff",),
)
RAW = "Restart the service [1]. The runbook has the steps <CIT private-id />."


def stored_answer(h: Harness, channel: int) -> Answer:
    (turn,) = h.store.turns(f"discord:{channel}:{h.last_question_id}")
    assert turn.answer is not None
    return Answer.from_json(turn.answer)


async def ask_in(h: Harness, channel: int, author: dict[str, Any]) -> str:
    question = h.fake.user_message(channel, author, "how do I restart?", mention_bot=True)
    await h.deliver(question)
    return "\n".join(m["content"] for m in h.fake.messages_in(channel))


async def test_a_public_channel_never_cites_a_private_source(harness: Harness) -> None:
    h = harness
    answerer = h.use([PUBLIC, PRIVATE], RAW)
    # alice holds the staff role, but everyone in #general reads the answer
    text = await ask_in(h, h.world.general, h.world.alice)
    assert answerer.calls[0][1] == frozenset({"public"})
    assert "Public guide" in text
    assert "Staff runbook" not in text
    assert "intranet.example.com" not in text
    assert "CIT" not in text
    answer = stored_answer(h, h.world.general)
    assert [c.source.id for c in answer.citations] == ["pub"]
    assert [d.reason for d in answer.dropped] == ["forbidden"]


async def test_a_channel_only_the_staff_role_can_view_may_cite_staff_sources(
    harness: Harness,
) -> None:
    h = harness
    answerer = h.use([PUBLIC, PRIVATE], RAW)
    text = await ask_in(h, h.world.staff_channel, h.world.alice)
    assert answerer.calls[0][1] == frozenset({"public", "staff"})
    assert "[Staff runbook](<https://intranet.example.com/runbook>)" in text


async def test_a_dm_uses_the_askers_mapped_roles(harness: Harness) -> None:
    h = harness
    answerer = h.use([PUBLIC, PRIVATE], RAW)
    alice_dm = h.fake.open_dm(h.world.alice)
    text = await ask_in(h, alice_dm, h.world.alice)
    assert answerer.calls[0][1] == frozenset({"public", "staff"})
    assert "Staff runbook" in text

    bob_dm = h.fake.open_dm(h.world.bob)
    text = await ask_in(h, bob_dm, h.world.bob)
    assert answerer.calls[1][1] == frozenset({"public"})
    assert "Staff runbook" not in text
    assert "intranet.example.com" not in text


async def test_explicit_channel_and_user_mappings(tmp_path: Path) -> None:
    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        return {
            "audience_by_role": {},
            "audience_by_channel": {str(world.general): ["public", "staff"]},
            "dm_audience_by_user": {world.bob["id"]: ["staff"]},
        }

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        text = await ask_in(h, h.world.general, h.world.bob)
        assert answerer.calls[0][1] == frozenset({"public", "staff"})
        assert "Staff runbook" in text
        # the staff channel's role is no longer mapped: only what everyone may see
        text = await ask_in(h, h.world.staff_channel, h.world.alice)
        assert answerer.calls[1][1] == frozenset({"public"})
        assert "Staff runbook" not in text
        text = await ask_in(h, h.fake.open_dm(h.world.bob), h.world.bob)
        assert answerer.calls[2][1] == frozenset({"public", "staff"})
        assert "Staff runbook" in text
    finally:
        await stop_harness(h)


async def test_a_channel_shared_by_several_roles_gets_only_their_common_groups(
    tmp_path: Path,
) -> None:
    channels: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        support = fake.add_role(world.guild, "Support")
        unmapped = fake.add_role(world.guild, "Unmapped")
        staff, me = world.staff_role, fake.bot_role(world.guild)
        channels.append(
            fake.add_channel(world.guild, "staff+support", view_only_roles=[staff, support, me])
        )
        channels.append(
            fake.add_channel(
                world.guild,
                "staff+guest",
                view_only_roles=[staff, me],
                view_only_members=[int(world.bob["id"])],
            )
        )
        channels.append(
            fake.add_channel(world.guild, "staff+other", view_only_roles=[staff, unmapped, me])
        )
        return {"audience_by_role": {str(staff): ["staff", "ops"], str(support): ["staff"]}}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        for channel in channels:
            await ask_in(h, channel, h.world.alice)
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public", "staff"}),  # what both roles share, not "ops"
            frozenset({"public"}),  # a guest let in by name holds no role groups
            frozenset({"public"}),  # an unmapped role may view it too
        ]
    finally:
        await stop_harness(h)


async def test_the_overwrites_that_let_the_bot_in_do_not_narrow_the_audience(
    tmp_path: Path,
) -> None:
    # Discord shows the bot a channel hidden from @everyone only through an overwrite for its
    # own user or its own managed role (or Administrator); neither is a reader to count.
    channels: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        staff, me = world.staff_role, int(fake.bot_user["id"])
        channels.append(
            fake.add_channel(
                world.guild, "by-member", view_only_roles=[staff], view_only_members=[me]
            )
        )
        channels.append(
            fake.add_channel(
                world.guild, "by-role", view_only_roles=[staff, fake.bot_role(world.guild)]
            )
        )
        # another bot let in by its managed role reads the answer too: it holds no groups
        other = fake.add_role(world.guild, "otherbot")
        fake.guilds[world.guild]["roles"][-1].update(
            managed=True, tags={"bot_id": world.other_bot["id"]}
        )
        channels.append(
            fake.add_channel(
                world.guild,
                "with-other-bot",
                view_only_roles=[staff, other],
                view_only_members=[me],
            )
        )
        return {}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        texts = [await ask_in(h, channel, h.world.alice) for channel in channels]
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public", "staff"}),
            frozenset({"public", "staff"}),
            frozenset({"public"}),
        ]
        assert ["Staff runbook" in text for text in texts] == [True, True, False]
    finally:
        await stop_harness(h)


async def test_a_thread_is_read_by_its_parents_audience(tmp_path: Path) -> None:
    # a thread's readers are among its parent channel's: it never widens what may be cited
    mapped: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        mapped.append(fake.add_channel(world.guild, "ops"))
        return {"audience_by_channel": {str(mapped[0]): ["public", "staff"]}}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        w, alice = h.world, int(h.world.alice["id"])
        in_staff = h.fake.thread_payload(w.guild, w.staff_channel, "restart help", alice)
        await h.fake.dispatch("THREAD_CREATE", {**h.fake.channels[in_staff], "newly_created": True})
        # a private thread the bot learns of only from the mention (no THREAD_CREATE)
        private = h.fake.thread_payload(w.guild, w.general, "just us", alice)
        h.fake.channels[private]["type"] = 12
        in_mapped = h.fake.thread_payload(w.guild, mapped[0], "ops talk", alice)
        texts = [
            await ask_in(h, thread, h.world.alice) for thread in (in_staff, private, in_mapped)
        ]
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public", "staff"}),
            frozenset({"public"}),  # alice is staff, but #general's readers are not
            frozenset({"public", "staff"}),
        ]
        assert ["Staff runbook" in text for text in texts] == [True, False, True]
    finally:
        await stop_harness(h)
