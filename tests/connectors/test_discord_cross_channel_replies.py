"""A reply is to a message in its own channel: a reference to the bot's answer in another channel
neither asks the bot anything nor brings that answer into the history (found in a QA pass: a
reply in #general pointing at an answer in #staff-only was answered without a mention, with the
staff answer given to the model)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Source
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
STAFF = Source(
    id="staff",
    title="Salary bands",
    url="https://intranet.example.com/salaries",
    audience=("staff",),
)
RAW = "Install [1]. The top band is 42k [2]."


async def staff_answer(h: Harness) -> dict[str, Any]:
    """The bot's answer to alice in #staff-only, which cites the staff source."""
    w = h.world
    await h.deliver(h.fake.user_message(w.staff_channel, w.alice, "bands?", mention_bot=True))
    (answer,) = h.fake.messages_in(w.staff_channel)
    assert "42k" in answer["content"]
    return answer


def replying_across(
    h: Harness, answer: dict[str, Any], *, mention_bot: bool, included: bool
) -> dict[str, Any]:
    """bob's reply in #general whose reference points at ``answer`` in #staff-only.

    ``included``: the event carries the referenced message, as Discord sends it; otherwise the
    bot would have to fetch it.
    """
    w = h.world
    data = h.fake.user_message(w.general, w.bob, "and more?", mention_bot=mention_bot)
    data["type"] = 19
    data["message_reference"] = {
        "message_id": answer["id"],
        "channel_id": str(w.staff_channel),
        "guild_id": str(w.guild),
    }
    if included:
        data["referenced_message"] = answer
    return data


@pytest.mark.parametrize("included", [True, False], ids=["included", "fetched"])
async def test_a_reply_to_an_answer_in_another_channel_does_not_summon_the_bot(
    harness: Harness, included: bool
) -> None:
    h = harness
    answerer = h.use([GUIDE, STAFF], RAW)
    answer = await staff_answer(h)
    await h.deliver(replying_across(h, answer, mention_bot=False, included=included))
    assert len(answerer.calls) == 1  # only the staff question
    assert h.fake.messages_in(h.world.general) == []


@pytest.mark.parametrize("included", [True, False], ids=["included", "fetched"])
async def test_a_mention_referencing_an_answer_in_another_channel_has_none_of_it_as_history(
    harness: Harness, included: bool
) -> None:
    h = harness
    answerer = h.use([GUIDE, STAFF], RAW)
    answer = await staff_answer(h)
    await h.deliver(replying_across(h, answer, mention_bot=True, included=included))
    assert len(answerer.calls) == 2  # the mention is answered, as a new conversation
    _, audience, history = answerer.calls[1]
    assert audience == frozenset({"public"})
    assert history == ()
    (reply,) = h.fake.messages_in(h.world.general)
    assert "Salary bands" not in reply["content"]  # cited only where staff read


async def test_a_reply_to_an_answer_in_its_own_channel_still_continues_the_conversation(
    harness: Harness,
) -> None:
    h = harness
    answerer = h.use([GUIDE, STAFF], RAW)
    answer = await staff_answer(h)
    w = h.world
    follow_up = h.fake.user_message(
        w.staff_channel, w.alice, "and more?", reply_to=int(answer["id"])
    )
    await h.deliver(follow_up)
    assert len(answerer.calls) == 2
    (earlier,) = answerer.calls[1][2]
    assert earlier.question == "bands?" and "42k" in earlier.answer
