"""Discord history judges each earlier answer by the turn its messages were recorded for.

Over the real discord.py client against the fake Discord and the built-in answerer: an answer
citing a file made private since must leave the history even when matching it by its question's
text fails, because the asker edited the question after it was answered (an edit the bot did
not see: it was offline), or because the conversation holds more turns than a fixed number of
the latest (another branch of replies). Before, such an exchange kept the text of its messages,
unjudged.
"""

from __future__ import annotations

from pathlib import Path

from tests.connectors.test_discord_history_made_private import (
    FOLLOW_UP,
    ask,
    converse,
    questions,
    roadmap_world,
)
from tests.connectors.web.test_web_files_made_private import QUESTION, SECRET
from tests.connectors.web.test_web_share_made_private import MAIL, make_gone


async def test_an_answer_to_a_question_edited_since_is_judged_by_its_own_turn(
    tmp_path: Path,
) -> None:
    async with roadmap_world(tmp_path) as (kb, h, answerer):
        mail = await converse(h, answerer, h.world.general)
        roadmap = next(m for m in h.fake.messages.values() if QUESTION in str(m.get("content")))
        # edited while the bot was away: no update reached it, the stored turn keeps the old text
        h.fake.edited_message(int(roadmap["id"]), f"{roadmap['content']} (typo fixed)")
        make_gone(kb, tmp_path, "front matter")
        await ask(h, h.world.general, FOLLOW_UP, after=mail)
        history = answerer.histories[-1]
        assert questions(history) == [MAIL]
        assert "Leipzig" not in str(history)
        assert SECRET not in str(history)


async def test_an_answer_older_than_the_latest_fifty_turns_is_still_judged(
    tmp_path: Path,
) -> None:
    async with roadmap_world(tmp_path) as (kb, h, answerer):
        roadmap = await ask(h, h.world.general, QUESTION)
        conversation = f"discord:{h.world.general}:{roadmap['id']}"
        # other replies to the roadmap answer, answered since: the conversation's later turns
        for n in range(60):
            h.store.add_turn(conversation, "discord", f"Question {n}?", {"text": f"Answer {n}."})
        make_gone(kb, tmp_path, "front matter")
        await ask(h, h.world.general, MAIL, after=roadmap)
        history = answerer.histories[-1]
        assert questions(history) == []
        assert "Leipzig" not in str(history)


async def test_every_answer_stays_while_its_readers_may_see_them_all(tmp_path: Path) -> None:
    # nothing is made private: an edited question's exchange keeps its place and its answer
    async with roadmap_world(tmp_path) as (_, h, answerer):
        mail = await converse(h, answerer, h.world.general)
        roadmap = next(m for m in h.fake.messages.values() if QUESTION in str(m.get("content")))
        h.fake.edited_message(int(roadmap["id"]), f"{roadmap['content']} (typo fixed)")
        await ask(h, h.world.general, FOLLOW_UP, after=mail)
        history = answerer.histories[-1]
        assert len(history) == 2 and "Leipzig" in history[0].answer
