"""A follow-up to an edited question's answer gets the answer now on Discord as history.

An edit after the answer was delivered answers again by rewriting the bot's reply in place:
the reused messages hold the new turn, so a reply to them is judged by that turn, and the
history pairs the edited question with the rewritten answer, not the one it replaced.
"""

from __future__ import annotations

from bot.models import Source
from tests.connectors.discord_edit_helpers import edit
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


async def test_a_follow_up_after_an_edit_gets_the_rewritten_answer(harness: Harness) -> None:
    h, w = harness, harness.world
    h.use([GUIDE], "Use the old installer [1].")
    question = h.fake.user_message(w.general, w.alice, "how to instal?", mention_bot=True)
    await h.deliver(question)
    h.use([GUIDE], "Use pip install citecast [1].")
    mention = f"<@{h.fake.bot_user['id']}>"
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention} how to install?"))
    (reply,) = h.fake.messages_in(w.general)  # the bot's one reply, rewritten in place
    assert "pip install citecast" in h.fake.messages[int(reply["id"])]["content"]
    follow = h.use([GUIDE], "Then run citecast serve [1].")
    message = h.fake.user_message(w.general, w.alice, "and then?", reply_to=int(reply["id"]))
    await h.deliver(message)
    ((_, _, history),) = follow.calls
    assert [e.question for e in history] == ["how to install?"]
    assert history[0].answer.startswith("Use pip install citecast")
