"""A two-page leave handbook whose one passage crosses the page break, for the page-span tests:
its pages' text, the passage's page map, and sentences of each page an answer may cite."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

from bot.assistant import Assistant
from bot.assistant.tools import ToolCall
from bot.assistant.turn import STEP_END, StepEnd, Turn
from bot.config import Settings
from bot.knowledge.page_spans import PageStarts
from bot.models import Answer, Source

PAGE_1 = "Annual leave is twenty-five days per calendar year. Requests go through the leave portal."
PAGE_2 = (
    "Parental leave lasts sixteen weeks at full pay. "
    "Unused annual leave expires at the end of March."
)
TEXT = f"{PAGE_1}\n\n{PAGE_2}"
STARTS: PageStarts = ((0, 1), (len(PAGE_1) + 2, 2))
FIRST = "Annual leave is twenty-five days per calendar year."  # on page 1
SECOND = "Unused annual leave expires at the end of March."  # on page 2
BOTH = f"{FIRST[:-1]} [1]. {SECOND[:-1]} [1]."  # an answer citing a sentence of each page
# the passage as the index gives it, across the page break, without a public URL (a signed
# /files/ link, or its name, shows it)
PRIVATE = Source(
    id="kb/handbook.pdf#2",
    title="handbook.pdf",
    path="kb/handbook.pdf",
    filename="handbook.pdf",
    media_type="application/pdf",
    section="Leave",
    page=1,
    page_end=2,
    text=TEXT,
)


@dataclass
class ScriptedBackend:
    """Searches once, then writes ``text`` (a model citing the passage it found)."""

    text: str
    name: str = "scripted"

    async def generate(self, turn: Turn) -> AsyncIterator[str | StepEnd]:
        yield STEP_END
        call = ToolCall("call_1", "search_docs", json.dumps({"query": "annual leave"}))
        await turn.toolbox.run_calls([call], turn.registry)
        yield self.text


async def ask_handbook(settings: Settings, text: str = BOTH) -> Answer:
    """The public answer to a leave question when the model writes ``text``: the real
    Assistant (its grounding and page narrowing), the scripted backend in place of a model."""
    assistant = Assistant.from_settings(settings)
    assistant.backend = ScriptedBackend(text)
    return await assistant.answer("How much annual leave is there?", frozenset({"public"}))
