"""In an assistant thread the asker sees ``thinking…`` before citecast looks anything up.

Deciding the audience and reading the thread's history take a Web API call each (several for a
long thread); the status is set first, so the side panel shows at once that the question was
received, not only once those lookups are done.
"""

from __future__ import annotations

from pathlib import Path

from tests.connectors.slack_harness import (
    ASKER,
    DM,
    CannedAnswerer,
    answer_citing,
    direct_message,
    slack_world,
)


async def test_the_thinking_status_comes_before_the_lookups(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    settings = {
        "audience_by_email_domain": {"staff.example": ["staff"]},
        "audience_by_usergroup": {"S0HR": ["hr"]},
    }
    async with slack_world(tmp_path, answerer, **settings) as world:
        world.fake.add_usergroup("S0HR", [ASKER])
        thread = world.fake.add_message(DM, "", "U0BOT", subtype="assistant_app_thread")
        world.fake.add_message(DM, "earlier question", ASKER, thread_ts=thread)
        await world.post_event(direct_message("install?", thread_ts=thread))
        methods = [c.method for c in world.fake.calls if c.method != "auth.test"]
        assert methods[0] == "assistant.threads.setStatus"
        assert {"users.info", "usergroups.users.list", "conversations.replies"} <= set(methods)
        # the answer itself still arrives, for the asker's groups
        assert len(world.fake.bot_messages(DM, thread_ts=thread)) == 1
        assert answerer.calls[0][1] == frozenset({"public", "staff", "hr"})
