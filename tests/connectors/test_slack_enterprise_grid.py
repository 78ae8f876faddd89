"""Enterprise Grid and Slack Connect, as Slack sends them: the organisation's own people (of any
of its workspaces) get their groups, people of another organisation never do, an app installed
on the whole organisation is answered, and a thread's turns are one conversation whoever asks."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from bot.connectors.web_turn_page import shareable_answer
from tests.connectors.slack_harness import (
    ASKER,
    DM,
    PUBLIC,
    SECRET,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    direct_message,
    mention,
    settle,
    slack_world,
)
from tests.fakes.slack_api import slack_signature_headers

ORG = "E0ORG"  # this Enterprise Grid organisation
SISTER = "T0SISTER"  # another workspace of it
PARTNER_ORG, PARTNER_TEAM = "E0PARTNER", "T0PARTNER"  # another organisation (Slack Connect)
COLLEAGUE, PARTNER = "W0SAM", "W0EVE"
SHARED = "C0SHARED"
STAFF = {"staff.example": ["staff"]}
_ids = itertools.count(1)


def grid(world: SlackWorld, *, org_install: bool = False) -> None:
    """Make the fake a workspace of ORG (installed there, or on all of ORG), with a colleague
    of a sister workspace and a partner of another organisation, all with staff emails and in
    the S0HR user group (Slack knows them before the first event: bolt asks auth.test then)."""
    fake = world.fake
    fake.enterprise_id, fake.org_install = ORG, org_install
    fake.add_user(ASKER, "ada@staff.example")  # again, now with enterprise_user
    # a person of the sister workspace who is in this one too (S0HR is this workspace's)
    fake.add_user(
        COLLEAGUE, "sam@staff.example", team_id=SISTER, enterprise_id=ORG, teams=[SISTER, "T0TEAM"]
    )
    fake.add_user(PARTNER, "eve@staff.example", team_id=PARTNER_TEAM, enterprise_id=PARTNER_ORG)
    fake.add_usergroup("S0HR", [ASKER, COLLEAGUE, PARTNER])
    fake.add_channel(SHARED, "private", "with-partner", shared="external")


async def deliver(world: SlackWorld, event: dict[str, Any], **where: Any) -> None:
    """Post the envelope Slack sends this installation for ``event``, then wait for the answer."""
    body = world.fake.envelope(event, f"EvGRID{next(_ids):04d}", **where)
    raw = json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **slack_signature_headers(SECRET, raw)}
    response = await world.http.post("/slack/events", content=raw, headers=headers)
    assert response.status_code == 200
    await settle(world.connector)


def dm_from(user: str, team: str, text: str = "what do we pay?") -> dict[str, Any]:
    """A DM to the bot; Slack names the sender's team in ``team`` and ``user_team``."""
    event = direct_message(text)
    event.update(user=user, team=team, user_team=team, source_team=team)
    return event


async def test_a_colleague_of_another_workspace_of_the_organisation_gets_their_groups(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain=STAFF, audience_by_usergroup={"S0HR": ["hr"]}
    ) as world:
        grid(world)
        await deliver(world, dm_from(COLLEAGUE, SISTER))
        await deliver(world, dm_from(ASKER, "T0TEAM"))
        assert [call[1] for call in answerer.calls] == [frozenset({"public", "staff", "hr"})] * 2


async def test_a_partner_of_another_organisation_never_gets_the_organisations_groups(
    tmp_path: Path,
) -> None:
    # Same email domain, same user group: Slack Connect people are not the organisation's.
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path,
        answerer,
        audience_by_email_domain=STAFF,
        audience_by_usergroup={"S0HR": ["hr"]},
        private_channels_use_user_groups=True,
    ) as world:
        grid(world)
        await deliver(world, dm_from(PARTNER, PARTNER_TEAM))
        partner_in_shared = mention("pay?", channel=SHARED, user=PARTNER, team=PARTNER_TEAM)
        await deliver(world, partner_in_shared, ext_shared=True)
        audience = await world.connector.audiences.for_private_view(DM, PARTNER)
        assert [call[1] for call in answerer.calls] == [frozenset({"public"})] * 2
        assert audience == frozenset({"public"})


async def test_an_org_wide_install_is_answered_and_knows_the_organisations_people(
    tmp_path: Path,
) -> None:
    # auth.test names no workspace (is_enterprise_install); the event comes from a workspace
    # of the organisation with authorizations[0].team_id null.
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain=STAFF, audience_by_usergroup={"S0HR": ["hr"]}
    ) as world:
        grid(world, org_install=True)
        question = mention("how do I deploy?", user=COLLEAGUE, team=SISTER)
        await deliver(world, question, team=SISTER)
        await deliver(world, dm_from(COLLEAGUE, SISTER), team=SISTER)
        await deliver(world, dm_from(ASKER, "T0TEAM"))
        await deliver(world, dm_from(PARTNER, PARTNER_TEAM))
        assert len(world.fake.bot_messages(PUBLIC, thread_ts=question["ts"])) == 1
        assert len(world.fake.bot_messages(DM)) == 3
        own = frozenset({"public", "staff", "hr"})
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public"}),  # a public channel: the channel decides, not the asker
            own,
            own,
            frozenset({"public"}),  # Slack Connect: never the organisation's groups
        ]
        [turn] = world.store.turns(f"slack:{ORG}:{PUBLIC}:{question['ts']}")
        assert turn.status == "done"
        # an org-wide token names the workspace of each user group it asks about
        lookups = world.fake.calls_to("usergroups.users.list", ok_only=True)
        assert lookups and all(c.args.get("team_id") == "T0TEAM" for c in lookups)


async def test_a_shared_threads_turns_stay_one_conversation_whoever_asks(
    tmp_path: Path,
) -> None:
    # In a Slack Connect channel the partner's event names their own team. Their follow-up's
    # turn must join the thread's conversation: the model read the first answer as history,
    # so a shared page of the follow-up must weigh it too.
    answerer = CannedAnswerer(answer_citing(1, audience=("partners",)))
    async with slack_world(tmp_path, answerer, audience_by_channel={SHARED: ["partners"]}) as world:
        grid(world)
        # in the fake's thread too, stamped now, so the follow-up reads it as history
        root_ts = world.fake.add_message(SHARED, "<@U0BOT> what does the contract say?", ASKER)
        root = mention("what does the contract say?", channel=SHARED, ts=root_ts)
        await deliver(world, root, ext_shared=True)
        answerer.answer = answer_citing(1)  # a public source this time
        follow_up = mention(
            "and the deadline?",
            channel=SHARED,
            user=PARTNER,
            team=PARTNER_TEAM,
            user_team=PARTNER_TEAM,
            thread_ts=root_ts,
            ts=world.fake.add_message(SHARED, "and the deadline?", PARTNER, thread_ts=root_ts),
        )
        await deliver(world, follow_up, ext_shared=True)
        assert len(answerer.calls[1][2]) == 1  # the first exchange was the model's history
        turns = world.store.turns(f"slack:T0TEAM:{SHARED}:{root_ts}")
        assert [t.question for t in turns] == ["what does the contract say?", "and the deadline?"]
        assert shareable_answer(turns[1], frozenset({"public"}), turns) is None


async def test_a_connect_dms_turns_are_keyed_by_this_workspace(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, streaming="native") as world:
        grid(world)
        first = dm_from(PARTNER, PARTNER_TEAM, "first?")
        await deliver(world, first)
        await deliver(world, dm_from(PARTNER, PARTNER_TEAM, "second?") | {"thread_ts": first["ts"]})
        turns = world.store.turns(f"slack:T0TEAM:{DM}:{first['ts']}")
        assert [t.question for t in turns] == ["first?", "second?"]
        assert world.store.turns(f"slack:{PARTNER_TEAM}:{DM}:{first['ts']}") == []
        # the answer still streams to the partner's own team (recipient_team_id)
        streams = world.fake.calls_to("chat.startStream", ok_only=True)
        assert [c.args.get("recipient_team_id") for c in streams] == [PARTNER_TEAM] * 2
