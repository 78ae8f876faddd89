"""Small talk and the built-in answerer: "thanks!" and "hello" are thanked and greeted back,
without a search and without a citation; a message with any question content is a question,
answered as before; a model backend answers small talk itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.base import Reply
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_small_talk import REPLIES, small_talk_reply
from bot.assistant.turn import StepEnd, Turn
from bot.config import Settings
from bot.errors import KnowledgeIndexError
from bot.grounding import uncited_claims
from bot.knowledge import KnowledgeIndex
from bot.models import Exchange, TextDelta
from bot.pleasantries import SmallTalk, small_talk

PUBLIC = frozenset({"public"})

SMALL_TALK: list[tuple[str, SmallTalk]] = [
    ("thanks!", "thanks"),
    ("hello", "greeting"),
    ("Thank you, that helped", "thanks"),
    ("ok", "acknowledgement"),
    ("hi there", "greeting"),
    ("Hi!", "greeting"),
    ("Good morning everyone", "greeting"),
    ("Great, thank you!", "thanks"),
    ("Got it", "acknowledgement"),
    ("Thanks, Anna", "thanks"),
    ("ok thanks 🙂", "thanks"),
    ("Thanks a lot for your help :)", "thanks"),
    ("That’s exactly what I needed, thanks", "thanks"),
    ("Perfect, that works.", "acknowledgement"),
    ("bye", "goodbye"),
    ("Best regards", "goodbye"),
    ("Cheers!", "thanks"),
    ("Much appreciated", "thanks"),
    ("Danke schön!", "thanks"),
    ("Hallo zusammen", "greeting"),
    ("Merci beaucoup", "thanks"),
    ("Bonjour", "greeting"),
    ("Muchas gracias", "thanks"),
    ("Va bene, grazie", "thanks"),
    ("Dank je wel", "thanks"),
    ("Tack!", "thanks"),
    ("Obrigado", "thanks"),
    ("Dziękuję", "thanks"),
    ("Alles klar", "acknowledgement"),
    ("Tschüss", "goodbye"),
]

QUESTIONS = [
    "hi, how do I install it?",
    "thanks, and what about Windows?",
    "hi how do I install it",
    "Hey, quick question",
    "hello install linux",
    "thanks for the install guide",
    "okay, and Discord",
    "Thanks Windows",
    "great docs",
    "How are you?",
    "What is citecast?",
    "Slack",
    "yes",
    "thanks " * 30,
]


@pytest.mark.parametrize(("text", "kind"), SMALL_TALK)
def test_small_talk_is_recognised(text: str, kind: SmallTalk) -> None:
    assert small_talk(text) == kind


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_message_with_question_content_is_no_small_talk(text: str) -> None:
    assert small_talk(text) is None
    assert small_talk_reply(text) is None


@pytest.mark.parametrize(("text", "kind"), SMALL_TALK)
async def test_small_talk_is_answered_without_citations(
    kb_settings: Settings, kb_index: KnowledgeIndex, text: str, kind: SmallTalk
) -> None:
    answer = await Assistant(kb_settings, kb_index).answer(text, PUBLIC)
    assert answer.text == REPLIES[kind]
    assert answer.citations == () and answer.dropped == ()


async def test_the_replies_are_short_and_say_what_the_answerer_does(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    assistant = Assistant(kb_settings, kb_index)
    assert (await assistant.answer("thanks!", PUBLIC)).text.startswith("You're welcome")
    greeting = (await assistant.answer("hello", PUBLIC)).text
    assert "knowledge base" in greeting and "sources" in greeting
    assert NOT_FOUND not in greeting


def test_no_reply_is_an_uncited_claim() -> None:
    # grounding flags sentences that state a fact without a citation: a greeting is none
    assert all(uncited_claims(reply) == [] for reply in REPLIES.values())


async def test_small_talk_does_not_search(kb_settings: Settings, tmp_path: Path) -> None:
    # an index that cannot be searched fails every question: small talk still gets its reply
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database" * 512)
    assistant = Assistant(kb_settings, broken)
    assert (await assistant.answer("Thank you, that helped", PUBLIC)).text == REPLIES["thanks"]
    with pytest.raises(KnowledgeIndexError):
        await assistant.answer("hi, how do I install it?", PUBLIC)


async def test_a_greeting_with_a_question_is_answered_as_before(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    assistant = Assistant(kb_settings, kb_index)
    plain = await assistant.answer("How do I install citecast on Linux?", PUBLIC)
    greeted = await assistant.answer("Hi, how do I install citecast on Linux?", PUBLIC)
    assert greeted.citations and greeted.text == plain.text


async def test_thanks_after_an_answer_is_small_talk_too(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    history = [Exchange("How do I install citecast?", "Run `pip install citecast` [^1].")]
    answer = await Assistant(kb_settings, kb_index).answer("thanks!", PUBLIC, history)
    assert answer.text == REPLIES["thanks"] and not answer.citations


async def test_the_reply_streams_like_any_answer(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    events = [e async for e in Assistant(kb_settings, kb_index).stream("hello", PUBLIC)]
    reply = events[-1]
    assert isinstance(reply, Reply) and reply.answer.text == REPLIES["greeting"]
    assert [e.text for e in events if isinstance(e, TextDelta)] == [REPLIES["greeting"]]


class EchoBackend:
    """A model backend that writes what it was asked: it answers small talk itself."""

    name = "echo"

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def generate(self, turn: Turn) -> AsyncIterator[str | StepEnd]:
        self.asked.append(turn.question)
        yield f"Model says: {turn.question}"


async def test_a_model_backend_answers_small_talk_itself(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    backend = EchoBackend()
    answer = await Assistant(kb_settings, kb_index, backend).answer("thanks!", PUBLIC)
    assert backend.asked == ["thanks!"]
    assert answer.text == "Model says: thanks!"
