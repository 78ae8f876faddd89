"""Discourse settings: an ``ignore_users`` entry that could never match a post's username is
refused at start, since the bot it names would otherwise be answered (a reply loop)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.connectors.discourse_settings import check_settings
from bot.errors import ConfigError
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, make_harness, settings_for
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]


@pytest.mark.parametrize("name", ["@otherbot", "", "other bot"])
def test_an_ignore_users_entry_that_is_no_username_is_refused(
    forum: FakeDiscourse, tmp_path: Path, name: str
) -> None:
    settings = settings_for(forum, tmp_path, ignore_users=["helper", name])
    message = "discourse.ignore_users: usernames as the forum spells them"
    message += f" (letters, digits, _ . -, no '@'): {name!r}"
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_settings(settings.discourse)


async def test_the_users_to_ignore_are_never_answered(forum: FakeDiscourse, tmp_path: Path) -> None:
    forum.users.add("other.bot")
    harness: Harness = await make_harness(forum, tmp_path, ignore_users=["Other.Bot"])
    try:
        topic = forum.new_topic("Loop", "Is anyone there to answer?", category_id=PUBLIC)
        await harness.deliver(topic)
        answer = forum.bot_posts()[0]
        reply = forum.user_posts(
            topic["topic_id"],
            "@citecast I am a bot answering you.",
            username="other.bot",
            reply_to=answer["post_number"],
        )
        response = await harness.deliver(reply)
        assert response.json()["ignored"] == "no trigger"
        assert len(forum.bot_posts()) == 1
    finally:
        await harness.http.aclose()
        await harness.connector.stop()
        harness.store.close()
