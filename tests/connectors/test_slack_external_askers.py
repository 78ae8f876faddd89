"""People of another organisation (Slack Connect) and DMs not known to be the asker's never get
the workspace's own groups: a private document is never cited to someone who may not see it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    ASKER,
    DM,
    CannedAnswerer,
    answer_citing,
    direct_message,
    mention,
    slack_world,
)

OUTSIDER = "U0GUEST"
STAFF = {"staff.example": ["staff"]}


def guest_dm(text: str, *, ts: str | None = None) -> dict[str, object]:
    """A DM to the bot from a Slack Connect user: Slack names their own team in the event."""
    event = direct_message(text, ts=ts)
    event.update(user=OUTSIDER, user_team="T0OTHER", source_team="T0OTHER", team="T0OTHER")
    return event


def infos(caplog: pytest.LogCaptureFixture, word: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.INFO and word in r.getMessage()
    ]


async def test_a_dm_from_another_organisation_gets_no_email_groups(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Same email domain as staff (a partner's guest address, a look-alike, or a former
    # colleague now elsewhere): their workspace is not this one, so the mapping does not apply.
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        world.fake.add_user(OUTSIDER, "eve@staff.example", team_id="T0OTHER")
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.post_event(guest_dm("what do we pay?"))
            await world.post_event(guest_dm("and bonuses?"))
        assert [call[1] for call in answerer.calls] == [frozenset({"public"})] * 2
        [line] = infos(caplog, OUTSIDER)  # said once, not per question
        assert "T0OTHER" in line
        assert "public_audience" in line


async def test_a_stranger_gets_no_user_group_groups(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_usergroup={"S0HR": ["hr"]}) as world:
        world.fake.add_user(OUTSIDER, None, is_stranger=True)
        world.fake.add_usergroup("S0HR", [ASKER, OUTSIDER])
        await world.post_event(guest_dm("pay?"))
        assert answerer.calls[0][1] == frozenset({"public"})


async def test_the_dms_own_channel_mapping_still_applies_to_an_outsider(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path,
        answerer,
        audience_by_email_domain=STAFF,
        audience_by_channel={DM: ["partners"]},
    ) as world:
        world.fake.add_user(OUTSIDER, "eve@staff.example", team_id="T0OTHER")
        await world.post_event(guest_dm("pay?"))
        assert answerer.calls[0][1] == frozenset({"public", "partners"})


async def test_a_colleague_of_this_workspace_still_gets_their_groups(tmp_path: Path) -> None:
    # The check costs people of this workspace nothing (auth.test names it).
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        await world.post_event(direct_message("pay?"))
        assert answerer.calls[0][1] == frozenset({"public", "staff"})


async def test_unknown_workspace_identity_grants_no_own_groups(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        # the first request asks auth.test for the bot's identity (whose answer the audience
        # keeps too, so it would not ask again): both that and the audience's own ask fail
        world.fake.fail("auth.test", error="internal_error", times=2)
        await world.post_event(direct_message("pay?"))
        await world.post_event(direct_message("pay now?"))  # tried again: granted
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public"}),
            frozenset({"public", "staff"}),
        ]


async def test_a_dm_whose_lookup_failed_grants_no_own_groups(tmp_path: Path) -> None:
    # An event without channel_type (an app_mention) in a D… channel whose conversations.info
    # fails: whose DM it is cannot be told, so it counts as read by others too.
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        world.fake.fail("conversations.info", error="internal_error", times=None)
        await world.post_event(mention("pay?", channel=DM))
        assert answerer.calls[0][1] == frozenset({"public"})


async def test_a_dm_named_as_someone_elses_grants_the_asker_no_own_groups(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        world.fake.add_channel(DM, "im", im_user="U0SOMEONE")
        await world.post_event(mention("pay?", channel=DM))
        assert answerer.calls[0][1] == frozenset({"public"})


async def test_a_dm_named_as_the_askers_grants_their_groups(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        world.fake.add_channel(DM, "im", im_user=ASKER)
        await world.post_event(mention("pay?", channel=DM))
        assert answerer.calls[0][1] == frozenset({"public", "staff"})


async def test_a_private_answer_to_an_outsider_gets_no_own_groups(tmp_path: Path) -> None:
    # for_private_view (an ephemeral answer) goes through the same check.
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        world.fake.add_user(OUTSIDER, "eve@staff.example", team_id="T0OTHER")
        audience = await world.connector.audiences.for_private_view(DM, OUTSIDER)
        assert audience == frozenset({"public"})
        assert await world.connector.audiences.for_private_view(DM, ASKER) == frozenset(
            {"public", "staff"}
        )
