"""A category's ``audience_by_channel`` mapping holds for a channel in it only when the channel is
read by no one the category keeps out (found in a QA pass: a channel opened to @everyone inside
a staff-only category, mapped to staff, cited staff sources to everyone). Such a channel gets
what an unmapped channel gets, within the category's groups, and one warning names it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.connectors.test_discord_audience import PRIVATE, PUBLIC, RAW, ask_in
from tests.connectors.test_discord_harness import Harness, World, start_harness, stop_harness
from tests.fakes.discord_api import FakeDiscord

CATEGORY = 4
VIEW = 1 << 10
STAFF_ONLY = frozenset({"public", "staff"})


def allow_view(target: int, *, member: bool = False) -> dict[str, Any]:
    return {"id": str(target), "type": 1 if member else 0, "allow": str(VIEW), "deny": "0"}


def staff_category(
    child_overwrites: Callable[[FakeDiscord, World, list[dict[str, Any]]], list[dict[str, Any]]],
    made: dict[str, int],
    **settings: Any,
) -> Callable[[FakeDiscord, World], dict[str, Any]]:
    """A configure hook: a category only the staff role (and the bot) can view, mapped to staff,
    holding #inside, whose overwrites ``child_overwrites`` makes from the category's."""

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        readers = [world.staff_role, fake.bot_role(world.guild)]
        category = fake.add_channel(
            world.guild, "Staff area", kind=CATEGORY, view_only_roles=readers
        )
        inside = fake.add_channel(world.guild, "inside")
        fake.channels[inside]["parent_id"] = str(category)
        synced = [dict(o) for o in fake.channels[category]["permission_overwrites"]]
        fake.channels[inside]["permission_overwrites"] = child_overwrites(fake, world, synced)
        made.update(category=category, inside=inside)
        return {"audience_by_channel": {str(category): ["public", "staff"]}, **settings}

    return configure


def opened_to_everyone(
    fake: FakeDiscord, world: World, synced: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    return [allow_view(world.guild)]  # not synced: an @everyone VIEW_CHANNEL allow


async def started(
    tmp_path: Path,
    child_overwrites: Callable[[FakeDiscord, World, list[dict[str, Any]]], list[dict[str, Any]]],
    **settings: Any,
) -> tuple[Harness, dict[str, int]]:
    made: dict[str, int] = {}
    h = await start_harness(tmp_path, staff_category(child_overwrites, made, **settings))
    return h, made


def wider_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING
        and "audience_by_channel mapping of its category" in r.getMessage()
    ]


async def test_a_channel_opened_to_everyone_in_a_staff_category_cites_no_staff_source(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h, made = await started(tmp_path, opened_to_everyone)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        with caplog.at_level(logging.INFO):
            first = await ask_in(h, made["inside"], h.world.bob)
            await ask_in(h, made["inside"], h.world.alice)  # staff asking changes nothing
        assert [call[1] for call in answerer.calls] == [frozenset({"public"})] * 2
        assert "Public guide" in first
        assert "Staff runbook" not in first and "intranet.example.com" not in first
        (warning,) = wider_warnings(caplog)  # one per channel, not one per answer
        assert f"#inside ({made['inside']})" in warning
        assert f"Staff area ({made['category']})" in warning
        assert "@everyone can view the channel but not the category" in warning
    finally:
        await stop_harness(h)


async def test_a_thread_of_a_channel_opened_to_everyone_cites_no_staff_source(
    tmp_path: Path,
) -> None:
    h, made = await started(tmp_path, opened_to_everyone)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        alice = int(h.world.alice["id"])
        thread = h.fake.thread_payload(h.world.guild, made["inside"], "bands?", alice)
        text = await ask_in(h, thread, h.world.alice)
        assert answerer.calls[0][1] == frozenset({"public"})
        assert "Staff runbook" not in text
    finally:
        await stop_harness(h)


async def test_a_channel_letting_in_a_role_the_category_keeps_out_cites_no_staff_source(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    extra: list[int] = []

    def plus_contractors(
        fake: FakeDiscord, world: World, synced: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        extra.append(fake.add_role(world.guild, "Contractors"))
        return [*synced, allow_view(extra[0])]

    h, made = await started(tmp_path, plus_contractors)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        with caplog.at_level(logging.INFO):
            text = await ask_in(h, made["inside"], h.world.alice)
        assert answerer.calls[0][1] == frozenset({"public"})  # contractors hold no mapped groups
        assert "Staff runbook" not in text
        (warning,) = wider_warnings(caplog)
        assert (
            f"role @Contractors ({extra[0]}) can view the channel but not the category" in warning
        )
    finally:
        await stop_harness(h)


async def test_a_channel_letting_in_a_member_by_name_cites_no_staff_source(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def plus_bob(
        fake: FakeDiscord, world: World, synced: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        return [*synced, allow_view(int(world.bob["id"]), member=True)]

    h, made = await started(tmp_path, plus_bob)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        with caplog.at_level(logging.INFO):
            await ask_in(h, made["inside"], h.world.alice)
        assert answerer.calls[0][1] == frozenset({"public"})
        (warning,) = wider_warnings(caplog)
        # bob is not in the bot's member cache (no members intent): named by id
        bob = h.world.bob["id"]
        assert f"member {bob} is let in by the channel but not by the category" in warning
    finally:
        await stop_harness(h)


def narrower(fake: FakeDiscord, world: World, synced: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # its own overwrites (not synced), but only the category's readers: staff and the bot
    return [
        {"id": str(world.guild), "type": 0, "allow": "0", "deny": str(VIEW)},
        allow_view(world.staff_role),
        allow_view(int(fake.bot_user["id"]), member=True),
    ]


def synced_with_a_member(
    fake: FakeDiscord, world: World, synced: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    # what the category lets in, a member by name included, the channel lets in: no one else
    alice = allow_view(int(world.alice["id"]), member=True)
    category = next(c for c in fake.channels.values() if c.get("name") == "Staff area")
    category["permission_overwrites"].append(alice)
    return [*synced, alice]


@pytest.mark.parametrize("overwrites", [narrower, synced_with_a_member])
async def test_a_channel_no_wider_than_its_category_keeps_the_categorys_audience(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    overwrites: Callable[[FakeDiscord, World, list[dict[str, Any]]], list[dict[str, Any]]],
) -> None:
    h, made = await started(tmp_path, overwrites)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        with caplog.at_level(logging.INFO):
            text = await ask_in(h, made["inside"], h.world.alice)
        assert answerer.calls[0][1] == STAFF_ONLY
        assert "Staff runbook" in text
        assert wider_warnings(caplog) == []
    finally:
        await stop_harness(h)


async def test_a_wider_channel_gets_no_group_its_category_does_not_grant(tmp_path: Path) -> None:
    h, made = await started(tmp_path, opened_to_everyone)
    try:
        # the guild's own mapping grants "employees", which the category's does not
        h.connector.settings.audience_by_guild[str(h.world.guild)] = ["public", "employees"]
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        await ask_in(h, made["inside"], h.world.alice)
        assert answerer.calls[0][1] == frozenset({"public"})
    finally:
        await stop_harness(h)
