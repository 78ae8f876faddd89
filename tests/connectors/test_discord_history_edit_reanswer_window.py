"""While an edited Discord question is answered again, its old answer is judged by its own turn.

An edit answers again by rewriting the bot's old reply in place. Until the new text replaces
the old in a message, that message still shows the old answer: it is recorded for the new
(pending) turn as well as the old one, and a follow-up replying to it meanwhile is judged by
the old turn. An old answer citing a file made private since is then no history, neither in
that window nor after a stop in it (the new turn failed, the message still showing the old
answer); one its readers may still see stays history, with its stored text.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from bot.assistant.assistant import Assistant
from bot.assistant.base import Reply, ReplyEvent
from bot.config import Settings
from bot.connectors.discord import DiscordConnector
from bot.knowledge import ingest
from bot.models import Exchange
from bot.runtime import Services
from bot.store import Store
from tests.connectors.test_discord_harness import (
    Harness,
    World,
    build_world,
    discord_settings,
    stop_harness,
)
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import QUESTION, kb_with_roadmap
from tests.connectors.web.test_web_share_made_private import make_gone
from tests.fakes.discord_api import FakeDiscord


class Holding:
    """The built-in answerer; its call number ``hold`` waits for ``gate`` before any text."""

    def __init__(self, inner: Assistant) -> None:
        self.inner = inner
        self.hold = 0
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()
        self.histories: list[tuple[Exchange, ...]] = []

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.histories.append(tuple(history))
        return await self.inner.reply(question, audience, history)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.histories.append(tuple(history))
        if len(self.histories) == self.hold:
            self.entered.set()
            await self.gate.wait()
        async for event in self.inner.stream(question, audience, history):
            yield event


async def connected(
    fake: FakeDiscord, world: World, settings: Settings, store: Store, answerer: Holding
) -> Harness:
    """A connector answering with ``answerer``, connected to ``fake`` holding ``world``."""
    connector = DiscordConnector(Services(settings=settings, store=store, assistant=answerer))
    h = Harness(fake, connector, store, world)
    connector.on_handled = h._on_handled
    await connector.start()
    await asyncio.wait_for(connector.ready.wait(), timeout=30)
    return h


async def roadmap_answered(
    tmp_path: Path,
) -> tuple[Harness, Settings, Holding, Path, dict[str, object], dict[str, object]]:
    """Alice asks about the Leipzig depot and the bot answers from the roadmap; returns the
    harness, settings, answerer, knowledge base, question and the bot's one reply."""
    kb = kb_with_roadmap(tmp_path)
    ingest([kb], make_settings(tmp_path).index)
    fake = FakeDiscord()
    await fake.start()
    world = build_world(fake)
    settings = make_settings(tmp_path).model_copy(update={"discord": discord_settings(fake, world)})
    answerer = Holding(Assistant.from_settings(settings))
    h = await connected(fake, world, settings, Store(tmp_path / "citecast.db"), answerer)
    question = fake.user_message(h.world.general, h.world.alice, QUESTION, mention_bot=True)
    await h.deliver(question)
    (reply,) = fake.messages_in(h.world.general)
    assert "opens in June" in fake.messages[int(reply["id"])]["content"]
    return h, settings, answerer, kb, question, reply


async def edit_held(
    h: Harness, answerer: Holding, question: dict[str, object]
) -> asyncio.Task[None]:
    """Alice edits her question; its new answer is held before any text. Returns the dispatch."""
    answerer.hold = len(answerer.histories) + 1
    mention = f"<@{h.fake.bot_user['id']}>"
    edited = h.fake.edited_message(int(str(question["id"])), f"{mention} {QUESTION} Which month?")
    dispatching = asyncio.create_task(h.fake.dispatch("MESSAGE_UPDATE", edited))
    await asyncio.wait_for(answerer.entered.wait(), timeout=30)
    return dispatching


async def follow_up(
    h: Harness, answerer: Holding, reply: dict[str, object]
) -> tuple[Exchange, ...]:
    """The history of a follow-up replying to the bot's ``reply``."""
    w = h.world
    follow = h.fake.user_message(w.general, w.alice, "Who answers?", reply_to=int(str(reply["id"])))
    await h.deliver(follow)
    return answerer.histories[-1]


async def answered_again(h: Harness, question: dict[str, object]) -> None:
    """Until the edited ``question``'s new answer is stored as done."""
    conversation = f"discord:{h.world.general}:{question['id']}"
    while not [
        t for t in h.store.turns(conversation) if t.status == "done" and "month" in t.question
    ]:
        await asyncio.sleep(0.05)


async def test_a_follow_up_meanwhile_leaves_out_the_old_answer_made_private(
    tmp_path: Path,
) -> None:
    h, _, answerer, kb, question, reply = await roadmap_answered(tmp_path)
    try:
        make_gone(kb, tmp_path, "front matter")  # the roadmap is private now
        dispatching = await edit_held(h, answerer, question)
        # the reply still shows the old answer when a follow-up replies to it
        assert "opens in June" in h.fake.messages[int(str(reply["id"]))]["content"]
        history = await follow_up(h, answerer, reply)
        answerer.gate.set()
        await dispatching
        assert not [e for e in history if "June" in e.answer], history
        assert history == ()
    finally:
        answerer.gate.set()
        await stop_harness(h)


async def test_a_follow_up_meanwhile_keeps_an_old_answer_still_readable(tmp_path: Path) -> None:
    h, _, answerer, _, question, reply = await roadmap_answered(tmp_path)
    try:
        dispatching = await edit_held(h, answerer, question)
        history = await follow_up(h, answerer, reply)
        answerer.gate.set()
        await dispatching
        # the question as it reads now, with the answer its reply still shows (stored text)
        assert [e.question for e in history] == [f"{QUESTION} Which month?"]
        assert "June" in history[0].answer
    finally:
        answerer.gate.set()
        await stop_harness(h)


async def test_a_stop_meanwhile_leaves_the_old_answer_made_private_out(tmp_path: Path) -> None:
    h, settings, answerer, kb, question, reply = await roadmap_answered(tmp_path)
    try:
        make_gone(kb, tmp_path, "front matter")
        dispatching = await edit_held(h, answerer, question)
        await h.connector.stop()  # a restart (a deploy) while the edit is being answered
        await asyncio.gather(dispatching, return_exceptions=True)
        assert "opens in June" in h.fake.messages[int(str(reply["id"]))]["content"]
        later = Holding(Assistant.from_settings(settings))
        h = await connected(h.fake, h.world, settings, h.store, later)
        history = await follow_up(h, later, reply)
        assert not [e for e in history if "June" in e.answer], history
    finally:
        answerer.gate.set()
        await stop_harness(h)


async def test_once_rewritten_the_reply_is_judged_by_the_new_answer_alone(
    tmp_path: Path,
) -> None:
    h, _, answerer, kb, question, reply = await roadmap_answered(tmp_path)
    try:
        make_gone(kb, tmp_path, "front matter")
        dispatching = await edit_held(h, answerer, question)
        answerer.gate.set()
        await dispatching
        await asyncio.wait_for(answered_again(h, question), timeout=30)
        now = h.fake.messages[int(str(reply["id"]))]["content"]
        assert "June" not in now  # the new answer, without the private roadmap
        history = await follow_up(h, answerer, reply)
        # the old answer's turn no longer speaks for this message: the new one is history
        assert [e.question for e in history] == [f"{QUESTION} Which month?"]
        assert "June" not in history[0].answer
    finally:
        answerer.gate.set()
        await stop_harness(h)
