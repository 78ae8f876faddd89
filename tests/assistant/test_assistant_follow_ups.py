"""Follow-up questions in a web conversation: the follow-up's own words decide the topic.

Driven through the real web app (``POST /api/ask`` with a ``conversation_id``), so the history
is what the web connector stores and passes, answered by the real extractive assistant.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.follow_up import earlier_questions
from bot.config import Settings
from bot.connectors.app import build_app
from bot.knowledge import KnowledgeIndex
from bot.models import Exchange
from bot.runtime import Services
from bot.store import Store

LINUX = "Getting started with citecast > Install > Linux"
MACOS = "Getting started with citecast > Install > macOS"
SLACK_CONNECT = "Slack and Discord integration FAQ > Slack > How do I connect citecast to Slack?"


@dataclass
class Chat:
    """The web app over a real store, answering with the real assistant."""

    client: httpx.AsyncClient

    async def ask(self, question: str, conversation: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"question": question}
        if conversation is not None:
            body["conversation_id"] = conversation
        response = await self.client.post("/api/ask", json=body)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data


def sections(reply: dict[str, Any]) -> set[str]:
    return {c["source"].get("section") for c in reply["answer"]["citations"]}


def about_slack(reply: dict[str, Any]) -> bool:
    """Led by how to connect citecast to Slack, and citing only Slack sections."""
    cited = [c["source"].get("section") or "" for c in reply["answer"]["citations"]]
    return bool(cited) and cited[0] == SLACK_CONNECT and all(" > Slack > " in s for s in cited)


@pytest.fixture
async def chat(
    kb_settings: Settings, kb_index: KnowledgeIndex, tmp_path: Path
) -> AsyncIterator[Chat]:
    web = kb_settings.web.model_copy(update={"file_secret": "test-secret-0123456789abcdef"})
    store_settings = kb_settings.store.model_copy(update={"path": str(tmp_path / "store.db")})
    settings = kb_settings.model_copy(update={"web": web, "store": store_settings})
    store = Store(settings.store.path)
    services = Services(settings=settings, store=store, assistant=Assistant(settings, kb_index))
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://citecast.test") as client:
        yield Chat(client)
    store.close()


async def test_a_follow_up_naming_a_new_topic_answers_that_topic(chat: Chat) -> None:
    first = await chat.ask("How do I install citecast on Linux?")
    assert LINUX in sections(first)
    follow = await chat.ask("And Slack?", first["conversation_id"])
    # used to repeat the Linux install answer: the earlier question's words outvoted "Slack"
    assert about_slack(follow)
    assert follow["answer"]["text"].startswith("Create a Slack app")
    assert "python3-venv" not in follow["answer"]["text"]


async def test_each_follow_up_of_a_conversation_keeps_its_own_topic(chat: Chat) -> None:
    first = await chat.ask("How do I install citecast on Linux?")
    conversation = first["conversation_id"]
    mac = await chat.ask("And on macOS?", conversation)
    # too thin to stand alone as an install question: still the macOS install steps
    assert MACOS in sections(mac) and "Homebrew" in mac["answer"]["text"]
    assert LINUX not in sections(mac)
    slack = await chat.ask("And Slack?", conversation)
    # used to get the macOS install text back
    assert about_slack(slack)
    assert "Homebrew" not in slack["answer"]["text"]


async def test_earlier_words_rank_what_the_follow_up_found(kb_settings: Settings) -> None:
    # "And Slack?" alone leads with how citations look in Slack; after an install question
    # it leads with how to install the Slack app, and still cites only Slack sections
    assistant = Assistant(kb_settings, kb_settings.index.path)
    alone = await assistant.answer("And Slack?", frozenset({"public"}))
    assert alone.citations[0].source.section != SLACK_CONNECT
    history = [Exchange("How do I install citecast?", "Use pip [^1].")]
    after = await assistant.answer("And Slack?", frozenset({"public"}), history)
    assert after.citations[0].source.section == SLACK_CONNECT
    assert all(" > Slack > " in (c.source.section or "") for c in after.citations)


async def test_a_follow_up_without_words_of_its_own_continues_the_topic(chat: Chat) -> None:
    first = await chat.ask("How do I install citecast on Linux?")
    why = await chat.ask("Why?", first["conversation_id"])
    assert why["answer"]["text"] != NOT_FOUND
    assert LINUX in sections(why)


def test_earlier_questions_go_back_to_the_last_question_that_stands_alone() -> None:
    history = [
        Exchange("What does the retry policy do?", "…"),
        Exchange("How do I install citecast on Linux?", "…"),
        Exchange("And on macOS?", "…"),
    ]
    assert earlier_questions(history) == "How do I install citecast on Linux? And on macOS?"
    assert earlier_questions(history[:2]) == "How do I install citecast on Linux?"
