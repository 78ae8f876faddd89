"""A bot token without the lookup scopes still answers safely (public sources only), and the
log says which scope to add: a workspace admin cannot otherwise tell why staff get less."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    ASKER,
    PRIVATE,
    CannedAnswerer,
    answer_citing,
    direct_message,
    mention,
    slack_world,
)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


async def test_a_channel_lookup_without_its_scope_names_the_scope_and_what_it_costs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_channel={PRIVATE: ["board"]}) as world:
        world.fake.fail(
            "conversations.info",
            error="missing_scope",
            fields={"needed": "groups:read", "provided": "chat:write,app_mentions:read"},
        )
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.post_event(mention("board minutes?", channel=PRIVATE))
        assert answerer.calls[0][1] == frozenset({"public"})  # safe: nothing granted
        assert world.fake.bot_messages(PRIVATE)  # and still answered
        [line] = [w for w in warnings(caplog) if "conversations.info" in w]
        assert "groups:read" in line
        assert "reinstall" in line
        assert "public_audience" in line


async def test_a_user_without_a_visible_email_says_which_scope_shows_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Without users:read.email Slack answers users.info with ok and simply leaves the email
    # out: email-domain audiences then grant nothing, and nothing else would say so.
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain={"staff.example": ["staff"]}
    ) as world:
        world.fake.add_user(ASKER, None, name="Ada")
        world.fake.add_user("U0BOB", None, name="Bob")
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.post_event(direct_message("pay?"))
            await world.post_event(direct_message("and holidays?"))
            await world.post_event(direct_message("pay?", user="U0BOB"))
        assert [call[1] for call in answerer.calls] == [frozenset({"public"})] * 3
        # once, not per question or person: the scope is missing for everyone
        [line] = [w for w in warnings(caplog) if "users:read.email" in w]
        assert ASKER in line


async def test_bots_and_people_with_an_email_need_no_such_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain={"staff.example": ["staff"]}
    ) as world:
        world.fake.add_user("U0WORKFLOW", None, is_bot=True)
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.post_event(direct_message("pay?"))
            await world.post_event(direct_message("pay?", user="U0WORKFLOW"))
        assert answerer.calls[0][1] == frozenset({"public", "staff"})
        assert not [w for w in warnings(caplog) if "users:read.email" in w]
