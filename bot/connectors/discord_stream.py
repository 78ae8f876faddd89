"""Posting one streamed answer to Discord: edits while it grows, then the final messages.

The answer is rendered incrementally with ``renderers.streaming.StreamRenderer`` (each
completed block once). At most once per ``stream_interval`` seconds the text so far, split into
messages of at most 2,000 characters, is shown: the first message is sent as a reply to the
question, later ones follow, and only messages whose text changed are edited. When the answer is
complete the final payload (``== renderers.render("discord", answer, context)``) replaces them:
each posted message is edited into its final form, further messages are sent, surplus ones are
deleted, and the files travel with the last message and, where they do not all fit in one,
in file-only messages after it: ten files per message, and no more bytes than one request may
carry (``file_budget``, see ``discord_send.message_file_budget``). Splitting long answers and
keeping the source list whole is the renderer's job; this module never cuts text itself.

If Discord refuses the files (too large for this channel, or no Attach Files permission), the
answer is rendered again without native files (each file becomes its signed link or its name)
and delivered without them: the sources always arrive. So with the Sources embed: where
Embed Links was taken away without the bot hearing of it, Discord keeps a message's text and
drops its embeds (and refuses a message of embeds alone, 403 Missing Permissions); Discord's
answer shows it, and the answer is delivered again with the sources as text (one warning).

``on_posted`` is told of each message as soon as it is sent (edits keep a message's id), so the
connector can record its conversation even while the answer is still streaming or if it fails,
and withdraw it if the question is deleted: a send in flight when the answer is cancelled is
finished first, since Discord may have created the message already.

``reuse`` are messages the bot already posted for the same question (an earlier answer, or a
hint, before the question was edited): the new answer is written into them in order, as if this
reply had posted them, and the files they carried are removed with their first edit; one that
was deleted since is replaced by a new message. ``on_rewritten`` is told of each of them once
this answer's text first replaces the earlier one in it: until then it still shows the earlier
answer (and is judged by it, see ``discord_answer``).

Each part is sent with a nonce derived from the question and the part's place
(``discord_send.part_nonce``; ``nonces`` holds those this run used for the question, so a part
sent again after one was deleted gets a fresh one). When a run cut short had sent that part
already, Discord hands its message back instead of creating another, and it is made this
part (edited in place, its old files removed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord

from bot.assistant.base import Reply, ReplyEvent
from bot.config import DiscordSettings
from bot.connectors.discord_send import (
    DEFAULT_UPLOAD_LIMIT,
    SUPPRESS_EMBEDS,
    FilesRefusedError,
    MessageGoneError,
    MissingPermissionsError,
    created,
    edit_message,
    file_batches,
    message_file_budget,
    part_nonce,
    reason,
    send_message,
    with_retries,
)
from bot.connectors.discord_triggers import where
from bot.errors import BackendError
from bot.models import Answer
from renderers import render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer

log = logging.getLogger(__name__)


class StreamedReply:
    """Delivers one answer to one question message; remembers what it posted.

    ``file_budget`` is how many bytes of files one message may carry in this channel;
    ``nonces`` are the nonces already used for this question's parts in this run (shared by its
    answers, so an answer to an edit never reuses one of a part deleted since).
    """

    def __init__(
        self,
        channel: discord.abc.Messageable,
        question: discord.Message | None,
        settings: DiscordSettings,
        context: RenderContext,
        clock: Callable[[], float] = time.monotonic,
        *,
        on_posted: Callable[[discord.Message], None] | None = None,
        on_rewritten: Callable[[discord.Message], None] | None = None,
        reuse: Sequence[discord.Message] = (),
        file_budget: int = message_file_budget(DEFAULT_UPLOAD_LIMIT),
        nonces: set[int] | None = None,
    ) -> None:
        self.channel = channel
        self.nonces = set() if nonces is None else nonces
        self.file_budget = file_budget
        self.on_posted = on_posted
        self.on_rewritten = on_rewritten
        self.question = question
        self.settings = settings
        self.clock = clock
        self.context = context
        self.renderer = StreamRenderer("discord", context)
        self.posted: list[discord.Message] = list(reuse)
        self._shown: list[str] = [sent.content for sent in reuse]
        # reused messages whose files belong to the earlier answer (dropped at their next edit)
        self._stale_files = set(range(len(self.posted)))
        self._last_update = float("-inf")

    async def run(self, events: AsyncIterator[ReplyEvent]) -> Reply:
        """Consume the answerer's stream, updating Discord as it goes; returns the Reply."""
        async for event in events:
            if isinstance(event, Reply):
                await self.finish(event.answer)
                return event
            self.renderer.feed([event])
            if self.clock() - self._last_update >= self.settings.stream_interval:
                await self._show_partial()
        raise BackendError("the answer stream ended without a final answer")

    async def _show_partial(self) -> None:
        contents = [c for c in self.renderer.discord_contents() if c.strip()]
        if not contents or contents == self._shown:
            return
        self._last_update = self.clock()
        for index, content in enumerate(contents):
            if index < len(self._shown) and self._shown[index] == content:
                continue
            message = {"content": content, "embeds": [], "flags": SUPPRESS_EMBEDS}
            await self._put(index, message, ())
        self._shown = contents

    async def _put(
        self,
        index: int,
        message: Mapping[str, Any],
        files: list[Mapping[str, Any]] | tuple[()],
        *,
        drop_files: bool = False,
    ) -> None:
        if index < len(self.posted):
            stale = index in self._stale_files
            try:
                self.posted[index] = await edit_message(
                    self.posted[index],
                    message,
                    self.settings,
                    files=files,
                    drop_files=drop_files or stale,
                )
            except MessageGoneError:
                if not stale:  # deleted while this answer was being written: it stops
                    raise
                # the earlier answer's message was deleted since: this answer sends its own
                self.posted[index] = await self._send(index, message, files)
                self._tell(self.posted[index])
            else:
                if stale and self.on_rewritten is not None:
                    self.on_rewritten(self.posted[index])  # it shows this answer from now on
            self._stale_files.discard(index)
        else:
            self._append(await self._send(index, message, files))

    async def _send(
        self, index: int, message: Mapping[str, Any], files: list[Mapping[str, Any]] | tuple[()]
    ) -> discord.Message:
        # each part replies to the one before (the first to the question), so a reply to any
        # part leads back through the whole answer to the question (see discord_history)
        reply_to = self.question if index == 0 else self.posted[index - 1]
        while True:
            nonce = self._nonce(index)
            sent = await self._created(
                send_message(
                    self.channel,
                    message,
                    self.settings,
                    files=files,
                    reply_to=reply_to,
                    nonce=nonce,
                )
            )
            if _as_sent(sent, message, files):
                return sent
            # Discord handed back the part a run cut short sent with this nonce (its text, its
            # files): it becomes this part, rather than a half answer left beside a new one
            try:
                return await edit_message(
                    sent, message, self.settings, files=files, drop_files=True
                )
            except MessageGoneError:
                continue  # deleted since: a new message, with the next nonce

    def _nonce(self, index: int) -> int | None:
        """The nonce for part ``index``: the question's, unless this run used it already."""
        if self.question is None:
            return None
        attempt = 0
        while part_nonce(self.question.id, index, attempt) in self.nonces:
            attempt += 1
        nonce = part_nonce(self.question.id, index, attempt)
        self.nonces.add(nonce)
        return nonce

    async def _created(self, sending: Awaitable[discord.Message]) -> discord.Message:
        """The message ``sending`` creates; one created after this answer was cancelled is
        told to ``on_posted`` all the same (see :func:`discord_send.created`)."""
        return await created(sending, self._tell)

    def _append(self, sent: discord.Message) -> None:
        """Remember a newly sent message and tell ``on_posted``."""
        self.posted.append(sent)
        self._tell(sent)

    def _tell(self, sent: discord.Message) -> None:
        if self.on_posted is not None:
            self.on_posted(sent)

    async def finish(self, answer: Answer) -> None:
        """Post (or edit into) the final rendered messages with every source and file."""
        context = self.context
        payload = self.renderer.finish(answer)
        try:
            try:
                await self._deliver(payload)
            except FilesRefusedError as exc:
                log.warning("discord: %s; sending the sources without attached files", reason(exc))
                context = dataclasses.replace(context, attach_files=False)
                payload = render("discord", answer, context)
                await self._deliver(payload, drop_files=True)
        except MissingPermissionsError:
            if not any(m.get("embeds") for m in payload.get("messages") or []):
                raise
            # a message of embeds alone is refused (403) where they may not show; if the
            # channel takes nothing at all, the sources as text are refused too and raise
            dropped = True
        else:
            dropped = self._embeds_dropped(payload)
        if dropped:
            # Embed Links taken away without the bot hearing of it: Discord kept the text and
            # dropped the Sources embed, so the markers would point at nothing
            log.warning(
                "discord: Discord dropped the Sources embed in %s (no Embed Links there?); "
                "listing the sources as text",
                where(self.channel),
            )
            caps = dataclasses.replace(context.caps("discord"), embeds=False)
            as_text = dataclasses.replace(context, capabilities=caps)
            await self._deliver(render("discord", answer, as_text), drop_files=True)

    def _embeds_dropped(self, payload: Mapping[str, Any]) -> bool:
        """Whether Discord's answer to a message of ``payload`` has fewer embeds than sent."""
        messages: list[Mapping[str, Any]] = list(payload.get("messages") or [])
        return any(
            len(sent.embeds) < len(message.get("embeds") or [])
            for sent, message in zip(self.posted, messages, strict=False)
        )

    async def _deliver(self, payload: Mapping[str, Any], *, drop_files: bool = False) -> None:
        """Make the posted messages ``payload``'s messages; files go with the last one."""
        messages: list[Mapping[str, Any]] = list(payload.get("messages") or [])
        batches = file_batches(list(payload.get("files") or []), self.file_budget)
        last = len(messages) - 1
        for index, message in enumerate(messages):
            files = batches.pop(0) if index == last and batches else []
            await self._put(index, message, files, drop_files=drop_files)
        if messages:
            for extra in self.posted[len(messages) :]:
                # one someone deleted already is as good as deleted: the answer stands
                with contextlib.suppress(MessageGoneError):
                    await with_retries(extra.delete, self.settings, "deleting a surplus message")
            del self.posted[len(messages) :]
        for batch in batches:
            files_only = {"content": "", "embeds": [], "flags": 0}
            # replying to the part before it, like every part (the question when none)
            self._append(await self._send(len(self.posted), files_only, batch))


def _as_sent(
    sent: discord.Message, message: Mapping[str, Any], files: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether ``sent`` is ``message`` as just sent, not an earlier message with its nonce."""
    content = str(message.get("content") or "")
    return sent.content.strip() == content.strip() and len(sent.attachments) == len(files)
