"""Posting one streamed answer to Discord: edits while it grows, then the final messages.

The first message is sent (as a reply to the question) once there is text, then edited at most
once per ``stream_interval`` seconds with the partial answer, rendered without a source list.
When the answer is complete it is rendered once more, in full: the first message is edited into
the first rendered message, the rest follow as new messages, and the files travel with the
last one (ten per message). Splitting long answers and keeping the source list whole is the
renderer's job; this module never cuts text itself.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import discord

import renderers
from bot.assistant.base import Reply, ReplyEvent
from bot.config import DiscordSettings
from bot.connectors.discord_send import edit_message, file_batches, send_message
from bot.errors import BackendError
from bot.models import Answer, Citation, CitationAdded, TextDelta
from renderers.base import RenderContext

RenderFor = Callable[[Answer, bool], dict[str, Any]]


def discord_renderer(context: RenderContext) -> RenderFor:
    """``render(answer, final)``: the full payload when final, else text only, no files."""
    import dataclasses

    partial_context = dataclasses.replace(context, show="none", attach_files=False)

    def render(answer: Answer, final: bool) -> dict[str, Any]:
        return renderers.render("discord", answer, context if final else partial_context)

    return render


class StreamedReply:
    """Delivers one answer for one question message; remembers what it posted."""

    def __init__(
        self,
        channel: discord.abc.Messageable,
        question: discord.Message | None,
        settings: DiscordSettings,
        render: RenderFor,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.channel = channel
        self.question = question
        self.settings = settings
        self.render = render
        self.clock = clock
        self.posted: list[discord.Message] = []
        self.edits = 0
        self._shown = ""
        self._last_update = float("-inf")

    async def run(self, events: AsyncIterator[ReplyEvent]) -> Reply:
        """Consume the answerer's stream, updating Discord as it goes; returns the Reply."""
        text: list[str] = []
        citations: dict[int, Citation] = {}
        async for event in events:
            if isinstance(event, Reply):
                await self.finish(event.answer)
                return event
            if isinstance(event, TextDelta):
                text.append(event.text)
            elif isinstance(event, CitationAdded):
                citations[event.citation.n] = event.citation
            if self.clock() - self._last_update >= self.settings.stream_interval:
                partial = Answer("".join(text), tuple(citations[n] for n in sorted(citations)))
                await self._show_partial(partial)
        raise BackendError("the answer stream ended without a final answer")

    async def _show_partial(self, partial: Answer) -> None:
        if not partial.text.strip():
            return
        messages = self.render(partial, False).get("messages") or []
        if not messages:
            return
        first: Mapping[str, Any] = messages[0]
        content = str(first.get("content") or "")
        if not content.strip() or content == self._shown:
            return
        self._last_update = self.clock()
        self._shown = content
        if not self.posted:
            self.posted.append(
                await send_message(self.channel, first, self.settings, reply_to=self.question)
            )
        else:
            self.posted[0] = await edit_message(self.posted[0], first, self.settings)
            self.edits += 1

    async def finish(self, answer: Answer) -> None:
        """Post (or edit into) the final rendered messages with every source and file."""
        payload = self.render(answer, True)
        messages: list[Mapping[str, Any]] = list(payload.get("messages") or [])
        batches = file_batches(list(payload.get("files") or []))
        last = len(messages) - 1
        for index, message in enumerate(messages):
            files = batches.pop(0) if index == last and batches else []
            if index == 0 and self.posted:
                self.posted[0] = await edit_message(
                    self.posted[0], message, self.settings, files=files
                )
                self.edits += 1
            else:
                reply_to = self.question if index == 0 else None
                self.posted.append(
                    await send_message(
                        self.channel, message, self.settings, files=files, reply_to=reply_to
                    )
                )
        for batch in batches:
            files_only = {"content": "", "embeds": [], "flags": 0}
            self.posted.append(
                await send_message(self.channel, files_only, self.settings, files=batch)
            )
