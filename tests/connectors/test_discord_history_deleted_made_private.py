"""History over a deleted Discord message still leaves out what its readers may not see.

Stepping over a deleted question (``discord_chain_links``) brings earlier exchanges back into a
follow-up's history; each of them is judged as before, by its own stored turn: an answer citing
a file made private since stays out, with its question, while the public exchanges around the
deleted one stay in.
"""

from __future__ import annotations

from pathlib import Path

from tests.connectors.test_discord_history_made_private import (
    FOLLOW_UP,
    ask,
    questions,
    roadmap_world,
)
from tests.connectors.web.test_web_files_made_private import QUESTION, SECRET
from tests.connectors.web.test_web_share_made_private import MAIL, make_gone

DELETED = "Does the help desk answer mail today?"
LAST = "Does the help desk answer mail on weekends?"


async def test_an_answer_made_private_stays_out_of_history_over_a_deleted_question(
    tmp_path: Path,
) -> None:
    async with roadmap_world(tmp_path) as (kb, h, answerer):
        roadmap = await ask(h, h.world.general, QUESTION)
        mail = await ask(h, h.world.general, MAIL, after=roadmap)
        deleted = await ask(h, h.world.general, DELETED, after=mail)
        follow_up = await ask(h, h.world.general, FOLLOW_UP, after=deleted)
        assert questions(answerer.histories[-1]) == [QUESTION, MAIL, DELETED]
        del h.fake.messages[int(deleted["id"])]
        where = {"channel_id": deleted["channel_id"], "guild_id": str(h.world.guild)}
        await h.fake.dispatch("MESSAGE_DELETE", {"id": deleted["id"], **where})
        make_gone(kb, tmp_path, "front matter")
        await ask(h, h.world.general, LAST, after=follow_up)
        # the deleted question's exchange is left out, and so is the roadmap answer, now
        # private; the public exchange before the deleted question is still history
        history = answerer.histories[-1]
        assert questions(history) == [MAIL, FOLLOW_UP]
        assert "Leipzig" not in str(history)
        assert SECRET not in str(history)
