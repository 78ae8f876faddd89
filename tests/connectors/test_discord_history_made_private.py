"""Discord history leaves out an earlier answer its channel's readers may no longer see.

The QA steps over the real discord.py client against the fake Discord and the built-in
answerer: ingest a public file, ask about it in a channel, follow up by replying to the answer,
make the file private (front matter ``audience:`` or an ``audience_rules`` glob, then
``citecast ingest``) or drop it from the index, and follow up again. The stored answer still
says ``public`` for the file, but the index as it is now decides, for the audience the channel's
answer is computed for (``discord_audience``), as for the web and email
(``bot.connectors.web_turn_page.visible_answer``): the follow-up's history must not carry what
the file said, or the next answer could repeat it. An answer its readers may still see stays.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.assistant.assistant import Assistant
from bot.connectors.discord import DiscordConnector
from bot.knowledge import ingest
from bot.models import Exchange
from bot.runtime import Services
from bot.store import Store
from tests.connectors.test_discord_harness import (
    Harness,
    build_world,
    discord_settings,
    stop_harness,
)
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import (
    PUBLIC_TEXT,
    QUESTION,
    SECRET,
    kb_with_roadmap,
)
from tests.connectors.web.test_web_share_made_private import MAIL, RecordingAnswerer, make_gone
from tests.fakes.discord_api import FakeDiscord

FOLLOW_UP = "Who answers the help desk mail?"


async def start(tmp_path: Path, **web: Any) -> tuple[Harness, RecordingAnswerer]:
    """A connector over the fake Discord whose built-in answerer reads ``tmp_path``'s index
    (``web``: settings of the ``web`` section, which every channel follows)."""
    fake = FakeDiscord()
    await fake.start()
    world = build_world(fake)
    settings = make_settings(tmp_path, **web).model_copy(
        update={"discord": discord_settings(fake, world)}
    )
    store = Store(tmp_path / "citecast.db")
    answerer = RecordingAnswerer(Assistant.from_settings(settings))
    connector = DiscordConnector(Services(settings=settings, store=store, assistant=answerer))
    harness = Harness(fake, connector, store, world)
    connector.on_handled = harness._on_handled
    await connector.start()
    await asyncio.wait_for(connector.ready.wait(), timeout=30)
    return harness, answerer


@asynccontextmanager
async def roadmap_world(
    tmp_path: Path, folder: str = "", **web: Any
) -> AsyncIterator[tuple[Path, Harness, RecordingAnswerer]]:
    """The roadmap knowledge base (in ``folder``) ingested where ``make_gone`` re-ingests, and
    the connector over it (:func:`start`), stopped when the block ends."""
    kb = kb_with_roadmap(tmp_path, folder)
    ingest([kb], make_settings(tmp_path).index)
    h, answerer = await start(tmp_path, **web)
    try:
        yield kb, h, answerer
    finally:
        await stop_harness(h)


async def ask(
    h: Harness, channel: int, text: str, after: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Alice asks ``text`` in ``channel``: a mention, or a reply to the answer to ``after``."""
    if after is None:
        message = h.fake.user_message(channel, h.world.alice, text, mention_bot=True)
    else:
        replies = [
            m
            for m in h.fake.messages_in(channel)
            if (m.get("message_reference") or {}).get("message_id") == after["id"]
        ]
        assert replies, f"the bot did not answer {after['content']!r}"
        message = h.fake.user_message(channel, h.world.alice, text, reply_to=int(replies[0]["id"]))
    await h.deliver(message)
    return message


def questions(history: tuple[Exchange, ...]) -> list[str]:
    return [exchange.question for exchange in history]


async def converse(h: Harness, answerer: RecordingAnswerer, channel: int) -> dict[str, Any]:
    """The roadmap question, then a follow-up about mail; returns the follow-up."""
    roadmap = await ask(h, channel, QUESTION)
    mail = await ask(h, channel, MAIL, after=roadmap)
    # while the file is public, the model has the roadmap answer as history
    assert questions(answerer.histories[-1]) == [QUESTION]
    assert "Leipzig" in answerer.histories[-1][0].answer
    return mail


@pytest.mark.parametrize("how", ["front matter", "audience rule", "unreadable", "deleted"])
async def test_an_answer_citing_a_file_no_longer_public_leaves_the_reply_chain_history(
    tmp_path: Path, how: str
) -> None:
    async with roadmap_world(tmp_path, "plans" if how == "audience rule" else "") as (
        kb,
        h,
        answerer,
    ):
        mail = await converse(h, answerer, h.world.general)
        make_gone(kb, tmp_path, how)
        await ask(h, h.world.general, FOLLOW_UP, after=mail)
        # the roadmap answer is left out (its messages are still in the channel); the answer
        # after it, citing only the public welcome page, is still history
        history = answerer.histories[-1]
        assert questions(history) == [MAIL]
        assert "Leipzig" not in str(history)
        assert SECRET not in str(history)


async def test_the_history_follows_the_channels_audience_not_the_askers(tmp_path: Path) -> None:
    kb = kb_with_roadmap(tmp_path)
    index = make_settings(tmp_path).index
    ingest([kb], index)
    h, answerer = await start(tmp_path)
    try:
        staff_mail = await converse(h, answerer, h.world.staff_channel)
        public_mail = await converse(h, answerer, h.world.general)
        # the roadmap made staff-only: Alice holds the staff role, but #general's readers don't
        staff_only = f"---\naudience: [staff]\n---\n{PUBLIC_TEXT}\n{SECRET}\n"
        (kb / "roadmap.md").write_text(staff_only, encoding="utf-8")
        ingest([kb], index)

        await ask(h, h.world.staff_channel, FOLLOW_UP, after=staff_mail)
        # the staff-only channel's readers may still read it: the roadmap answer stays
        assert questions(answerer.histories[-1]) == [QUESTION, MAIL]
        assert "Leipzig" in answerer.histories[-1][0].answer

        await ask(h, h.world.general, FOLLOW_UP, after=public_mail)
        assert questions(answerer.histories[-1]) == [MAIL]
        assert "Leipzig" not in str(answerer.histories[-1])
    finally:
        await stop_harness(h)


async def test_an_answer_to_a_question_cut_short_is_judged_too(tmp_path: Path) -> None:
    # stored as the assistant read it, cut to web.max_question_chars: it is found all the same,
    # rather than passed on as the text of its messages, unjudged
    long_question = f"{QUESTION}{' Please give me every detail you have.' * 4}"
    limit = len(QUESTION) + 20
    async with roadmap_world(tmp_path, max_question_chars=limit) as (kb, h, answerer):
        roadmap = await ask(h, h.world.general, long_question)
        mail = await ask(h, h.world.general, MAIL, after=roadmap)
        assert questions(answerer.histories[-1]) == [long_question]
        assert "Leipzig" in answerer.histories[-1][0].answer
        make_gone(kb, tmp_path, "front matter")
        await ask(h, h.world.general, FOLLOW_UP, after=mail)
        assert questions(answerer.histories[-1]) == [MAIL]
        assert "Leipzig" not in str(answerer.histories[-1])
