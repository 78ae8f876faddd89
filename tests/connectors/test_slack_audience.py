"""Audiences: who reads the answer decides what it may cite (real registry and resolver)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.slack_text import to_stream_markdown
from bot.models import Source
from tests.connectors.slack_harness import (
    ASKER,
    DM,
    PRIVATE,
    PUBLIC,
    context_texts,
    direct_message,
    mention,
    slack_world,
)
from tests.fakes.answerer import ScriptedAnswerer

PUBLIC_DOC = Source(
    id="install-guide",
    title="Install guide",
    url="https://docs.example.com/install",
    text="Run the installer.",
)
PRIVATE_DOC = Source(
    id="private-id",
    title="Salary bands 2026",
    url="https://intranet.example.com/salary-bands",
    text="Band C pays 90k.",
    audience=("staff",),
)
RAW = "Run the installer [1]. Band C pays well <CIT private-id />."
SECRETS = ("Salary bands", "intranet.example.com", "private-id", "Band C pays 90k")


def scripted() -> ScriptedAnswerer:
    return ScriptedAnswerer([PUBLIC_DOC, PRIVATE_DOC], RAW)


@pytest.mark.parametrize("streaming", ["none", "edit", "native"])
async def test_a_public_channel_never_sees_a_private_source(tmp_path: Path, streaming: str) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path,
        answerer,
        streaming=streaming,
        audience_by_email_domain={"staff.example": ["staff"]},
        audience_by_channel={PUBLIC: ["staff"]},
    ) as world:
        await world.post_event(mention("what do we pay?", ts="1600000000.040000"))
        assert answerer.calls[0][1] == frozenset({"public"})
        sent = world.fake.everything_sent()
        for secret in SECRETS:
            assert secret not in sent
        sources = context_texts(world.fake.bot_messages(PUBLIC))
        assert any("Install guide" in s for s in sources)
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.040000")
        assert turn.answer is not None
        assert [d["reason"] for d in turn.answer["dropped"]] == ["forbidden"]


async def test_a_dm_from_staff_may_cite_the_private_source(tmp_path: Path) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain={"staff.example": ["staff"]}
    ) as world:
        await world.post_event(direct_message("what do we pay?"))
        assert answerer.calls[0][1] == frozenset({"public", "staff"})
        sources = context_texts(world.fake.bot_messages(DM))
        assert any("Salary bands 2026" in s for s in sources)
        assert any("Install guide" in s for s in sources)


async def test_a_dm_from_an_outsider_may_not(tmp_path: Path) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain={"other.example": ["staff"]}
    ) as world:
        await world.post_event(direct_message("what do we pay?"))
        assert answerer.calls[0][1] == frozenset({"public"})
        assert "Salary bands" not in world.fake.everything_sent()


async def test_user_groups_grant_groups_in_dms(tmp_path: Path) -> None:
    answerer = scripted()
    async with slack_world(tmp_path, answerer, audience_by_usergroup={"S0HR": ["staff"]}) as world:
        world.fake.add_usergroup("S0HR", [ASKER, "U0SOMEONE"])
        await world.post_event(direct_message("pay?"))
        assert answerer.calls[0][1] == frozenset({"public", "staff"})
        assert any("Salary bands" in s for s in context_texts(world.fake.bot_messages(DM)))


async def test_private_channels_use_the_channel_mapping_not_the_asker(tmp_path: Path) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path,
        answerer,
        audience_by_email_domain={"staff.example": ["staff"]},
        audience_by_channel={PRIVATE: ["board"]},
    ) as world:
        await world.post_event(mention("pay?", channel=PRIVATE))
        assert answerer.calls[0][1] == frozenset({"public", "board"})
        assert "Salary bands" not in world.fake.everything_sent()


async def test_private_channels_may_opt_in_to_the_askers_groups(tmp_path: Path) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path,
        answerer,
        audience_by_email_domain={"staff.example": ["staff"]},
        private_channels_use_user_groups=True,
    ) as world:
        await world.post_event(mention("pay?", channel=PRIVATE))
        assert answerer.calls[0][1] == frozenset({"public", "staff"})


async def test_failed_lookups_grant_nothing(tmp_path: Path) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain={"staff.example": ["staff"]}
    ) as world:
        world.fake.fail("users.info", error="user_not_found")
        await world.post_event(direct_message("pay?"))
        assert answerer.calls[0][1] == frozenset({"public"})


async def test_a_long_streamed_answer_shows_exactly_the_resolved_text(tmp_path: Path) -> None:
    sentences = " ".join(
        f"Step {i} of the install is described here [{i % 2 + 1}]." for i in range(140)
    )
    other = Source(id="faq", title="FAQ", url="https://docs.example.com/faq")
    answerer = ScriptedAnswerer([PUBLIC_DOC, other], sentences, chunk=7)
    async with slack_world(
        tmp_path, answerer, streaming="native", native_stream_max_chars=12_000
    ) as world:
        await world.post_event(mention("all the steps", ts="1600000000.030000"))
        [message] = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.030000")
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.030000")
        assert turns[0].answer is not None
        assert len(turns[0].answer["text"]) > 6000
        links = {c["n"]: c["source"]["url"] for c in turns[0].answer["citations"]}
        assert message["text"] == to_stream_markdown(turns[0].answer["text"], links=links)
        assert len(context_texts([message])) == 2


async def test_user_lookups_are_cached_between_questions(tmp_path: Path) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain={"staff.example": ["staff"]}
    ) as world:
        await world.post_event(direct_message("first?"))
        await world.post_event(direct_message("second?"))
        assert [call[1] for call in answerer.calls] == [frozenset({"public", "staff"})] * 2
        assert len(world.fake.calls_to("users.info")) == 1


LOOKUPS = {
    # the failing Slack method, where the question is asked, and what would widen the audience
    "conversations.info": (PRIVATE, {"audience_by_channel": {PRIVATE: ["staff"]}}),
    "users.info": (DM, {"audience_by_email_domain": {"staff.example": ["staff"]}}),
    "usergroups.users.list": (DM, {"audience_by_usergroup": {"S0HR": ["staff"]}}),
}


@pytest.mark.parametrize("method", sorted(LOOKUPS))
@pytest.mark.parametrize("failure", [{"drop": True}, {"hang": 1.5}], ids=["dropped", "timed-out"])
async def test_lookups_lost_on_the_network_grant_nothing_and_still_answer(
    tmp_path: Path, method: str, failure: dict[str, object]
) -> None:
    channel, settings = LOOKUPS[method]
    answerer = scripted()
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0, **settings) as world:
        world.fake.add_usergroup("S0HR", [ASKER])
        world.fake.fail(method, times=None, **failure)  # type: ignore[arg-type]
        await world.post_event(mention("pay?", channel=channel))
        assert answerer.calls[0][1] == frozenset({"public"})
        [answer] = world.fake.bot_messages(channel)
        assert answer["text"] != world.connector.settings.apology
        assert any("Install guide" in s for s in context_texts([answer]))
        assert "Salary bands" not in world.fake.everything_sent()


@pytest.mark.parametrize("kind", ["private", "mpim"])
@pytest.mark.parametrize("shared", ["external", "pending"])
async def test_a_channel_shared_outside_never_gets_the_askers_groups(
    tmp_path: Path, kind: str, shared: str
) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path,
        answerer,
        audience_by_email_domain={"staff.example": ["staff"]},
        audience_by_channel={"G0PARTNER": ["partners"]},
        private_channels_use_user_groups=True,
    ) as world:
        world.fake.add_channel("G0PARTNER", kind, "with-acme", shared=shared)
        world.fake.add_channel("G0INTERNAL", kind, "org-wide", shared="org")
        await world.post_event(mention("pay?", channel="G0PARTNER"))
        await world.post_event(mention("pay?", channel="G0INTERNAL"))
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public", "partners"}),  # the explicit mapping, never the asker's staff
            frozenset({"public", "staff"}),  # shared within the organisation only: opted in
        ]
        partner = world.fake.bot_messages("G0PARTNER")
        assert partner and "Salary bands" not in str(partner)


@pytest.mark.parametrize("change", ["made-public", "shared-outside"])
async def test_a_private_channel_opened_up_loses_its_audience_at_once(
    tmp_path: Path, change: str
) -> None:
    answerer = scripted()
    async with slack_world(
        tmp_path,
        answerer,
        audience_by_email_domain={"staff.example": ["staff"]},
        private_channels_use_user_groups=True,
    ) as world:
        await world.post_event(mention("pay?", channel=PRIVATE))
        if change == "made-public":
            world.fake.add_channel(PRIVATE, "public", "staff-only")
        else:
            world.fake.add_channel(PRIVATE, "private", "staff-only", shared="external")
        await world.post_event(mention("pay?", channel=PRIVATE))
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public", "staff"}),
            frozenset({"public"}),
        ]
        [_, second] = world.fake.bot_messages(PRIVATE)
        assert "Salary bands" not in str(second)
