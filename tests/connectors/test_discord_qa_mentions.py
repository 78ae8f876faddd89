"""Mentions written where Discord does not treat them as mentions, and a DM from a stranger.

Discord parses ``<@id>`` and ``<@&id>`` outside code only: one pasted inside a code span or block
(a config file, a log line) is shown as text, pings nobody, and is absent from the message's
``mentions`` and ``mention_roles``. It must not summon the bot either. A mention in a quote
(``> <@bot> …``) is a mention to Discord, which pings: it does summon the bot.
"""

from __future__ import annotations

import pytest

from tests.connectors.discord_edit_helpers import GUIDE, EchoAnswerer, edit
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]


@pytest.mark.parametrize("wrap", ["`{m}`", "```\nowner: {m}\n```"])
async def test_a_mention_of_the_bots_role_inside_code_does_not_summon_it(
    harness: Harness, wrap: str
) -> None:
    h = harness
    w = h.world
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    own_role = f"<@&{h.fake.bot_role(w.guild)}>"
    user = f"<@{h.fake.bot_user['id']}>"
    for pasted in (own_role, user):  # as Discord sends it: no mention found outside code
        text = "why does this config fail? " + wrap.format(m=pasted)
        await h.deliver(h.fake.user_message(w.general, w.alice, text))
    assert answerer.calls == []
    assert h.fake.created == []


async def test_an_edit_that_adds_the_bots_role_inside_code_does_not_make_a_question(
    harness: Harness,
) -> None:
    h = harness
    w = h.world
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    message = h.fake.user_message(w.general, w.alice, "my config:")
    await h.deliver(message)
    own_role = f"<@&{h.fake.bot_role(w.guild)}>"
    await edit(h, h.fake.edited_message(int(message["id"]), f"my config: `{own_role}`"))
    assert answerer.calls == []
    assert h.fake.created == []


async def test_a_mention_in_a_quote_is_a_mention(harness: Harness) -> None:
    h = harness
    w = h.world
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    question = h.fake.user_message(w.general, w.bob, "> how to install?", mention_bot=True)
    await h.deliver(question)
    assert [q for q, _ in answerer.calls] == ["> how to install?"]
    (reply,) = h.fake.messages_in(w.general)
    assert reply["message_reference"]["message_id"] == question["id"]


async def test_a_dm_from_someone_in_none_of_the_bots_servers_gets_the_public_audience(
    harness: Harness,
) -> None:
    # the membership lookups answer 404 (Unknown Member) in every server: public, no error
    h = harness
    stranger = h.fake.add_user("stranger")
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    dm = h.fake.open_dm(stranger)
    question = h.fake.user_message(dm, stranger, "how to install?")
    await h.deliver(question)
    assert answerer.calls == [("how to install?", frozenset({"public"}))]
    lookup = ("GET", f"/guilds/{h.world.guild}/members/{stranger['id']}", 404)
    assert lookup in h.fake.refused
    (reply,) = h.fake.messages_in(dm)
    assert reply["message_reference"]["message_id"] == question["id"]
    assert "About: how to install?" in reply["content"]
