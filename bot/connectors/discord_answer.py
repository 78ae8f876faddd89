"""Answering one Discord question: permissions → history → assistant → streamed reply → turn.

:class:`QuestionAnswerer` answers one message in its channel and stores the turn (``failed``,
with a short apology to the asker, if anything goes wrong: what was posted of the answer
becomes that apology, so no half answer stays). Every message posted for the turn
is recorded with its conversation at once (see ``discord_history``). A message an edit's
answer is written into is recorded for the new turn as well as the old one until the new text
first replaces the old in it (or the new answer is done): meanwhile it still shows the old
answer, which history judges by the turn it came from. Where the bot may not
post it computes nothing and logs one line; a channel that refuses it anyway, or an answer a
moderator deleted meanwhile, gets no apology. A question deleted while being answered (its id
in ``withdrawn``, filled by the connector) takes the bot's replies and notices with it. With
an ``Asked`` (the question followed through its edits, see ``discord_edits``) the answer is
written into the messages already posted for it and stops when the question is edited again.
Answers in one channel are written at the same time but posted one after the other
(``discord_post_order``: the first to show keeps the channel until its last part is posted).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Container
from typing import TYPE_CHECKING, Any

import discord

from bot.connectors.answer_places import Places
from bot.connectors.base import fit_question
from bot.connectors.discord_audience import answer_audience
from bot.connectors.discord_edits import Asked, QuestionEditedError, until_edited
from bot.connectors.discord_history import (
    conversation_of,
    question_text,
    remember_posted,
    remember_question,
)
from bot.connectors.discord_notices import keep_typing, notice_in_place_of, notify, withdraw
from bot.connectors.discord_post_order import in_turn
from bot.connectors.discord_question_note import note_text, place_note
from bot.connectors.discord_send import (
    DEFAULT_UPLOAD_LIMIT,
    ChannelClosedError,
    MessageGoneError,
    message_file_budget,
    reason,
)
from bot.connectors.discord_stream import StreamedReply
from bot.connectors.discord_triggers import (
    Trigger,
    may_attach,
    may_embed,
    missing_permission,
    where,
)
from bot.connectors.link_lifetime import services_with_link_days
from bot.connectors.render_context import context_for
from bot.connectors.setup_errors import NOT_SET_UP_REPLY, is_setup_error, report_setup_error
from bot.connectors.web_viewer_links import IndexedFiles
from bot.errors import CitecastError
from renderers.base import RenderContext, capabilities_for

if TYPE_CHECKING:
    from bot.runtime import Services

log = logging.getLogger(__name__)
# a message with only files or stickers: say what the bot reads, not "mention me"
NO_WORDS = "I read only the words of a message, not its attachments or stickers: ask in words."


def upload_limit(message: discord.Message) -> int:
    """The largest file Discord takes where ``message`` is: the guild's (boosts raise it), or
    Discord's default in a DM, which has no guild."""
    return message.guild.filesize_limit if message.guild is not None else DEFAULT_UPLOAD_LIMIT


class QuestionAnswerer:
    """Answers Discord messages with the shared assistant, for the connector.

    ``client`` returns the connector's current discord.py client (a new one after a
    reconnect from scratch); ``withdrawn`` holds the ids of questions deleted while being
    answered (the connector adds them and cancels the answering task). ``on_progress`` is
    called with a followed question (``Asked``) each time its answer posts a new message, so
    that what was posted is known (saved) before the answer is over: a crash then leaves the
    next start the replies to finish instead of a stray half answer.
    """

    def __init__(
        self,
        services: Services,
        client: Callable[[], discord.Client | None],
        withdrawn: Container[int],
        on_progress: Callable[[int, Asked], None] | None = None,
    ) -> None:
        self.services = services
        self.settings = services.settings.discord
        self._client = client
        self._withdrawn = withdrawn
        self._on_progress = on_progress
        # channels already named in a warning for being wider than their mapped category
        self._wider_than_category: set[int] = set()
        # the channels answers are being posted to: one answer at a time posts in a channel
        self.places = Places()
        # the knowledge index as it is now: an earlier answer citing a file made private or
        # dropped since is no history for the model (``discord_history``)
        self.files = IndexedFiles.of(services.settings.index)

    async def audience_for(self, message: discord.Message) -> frozenset[str]:
        """The audience groups of whoever can read the answer to ``message``."""
        client = self._client()
        return await answer_audience(message, client, self.settings, self._wider_than_category)

    def render_context(self, message: discord.Message, audience: frozenset[str]) -> RenderContext:
        """Rendering for this channel: embeds and files (where allowed there), upload limit, links.

        The upload limit is the guild's (boosts raise it); a DM has no guild and gets Discord's
        default limit, whatever ``max_file_bytes`` says. A file must also fit in one message
        (:func:`message_file_budget`); one that does not is linked or named instead, its
        signed link valid for ``file_link_ttl_days``.
        """
        overrides: dict[str, Any] = dict(self.services.settings.capabilities.get("discord", {}))
        largest = upload_limit(message)
        limit = min(self.settings.max_file_bytes, largest, message_file_budget(largest))
        overrides.setdefault("embeds", self.settings.embeds)
        if not may_embed(message.channel):  # Discord would drop or refuse the Sources embed
            overrides["embeds"] = False
        overrides["max_file_bytes"] = min(int(overrides.get("max_file_bytes", limit)), limit)
        caps = capabilities_for("discord", overrides)
        # a Discord message is read days later and has nothing to reload: its /files/ links
        # last discord.file_link_ttl_days (link_lifetime says why that is safe)
        links = services_with_link_days(self.services, self.settings.file_link_ttl_days)
        return context_for(links, audience, caps, attach_files=may_attach(message.channel))

    def _turn(self, conversation: str, question: str, asked: Asked | None) -> int:
        """The stored turn for this answer: a new one, or the one a run that stopped before
        it was finished left (its answer may be on Discord already), so that one question
        cut short by a restart counts once in ``citecast report``, not failed and then done."""
        store = self.services.store
        left = asked.unfinished_turn if asked is not None else None
        turn = store.turn(left) if left is not None else None
        if turn is not None and turn.status != "done" and turn.conversation_id == conversation:
            turn_id = turn.id
        else:
            turn_id = store.add_turn(conversation, "discord", question, status="pending")
        if asked is not None:
            asked.unfinished_turn = None  # an edit answered next is a turn of its own
            asked.turn_id = turn_id
        return turn_id

    async def answer(
        self, message: discord.Message, trigger: Trigger, asked: Asked | None = None
    ) -> None:
        """Answer ``message`` in its channel, storing the turn; apologise briefly on failure.

        With ``asked`` (the question as followed through its edits) the answer is written into
        the messages already posted for it, and stops when the question is edited meanwhile.
        """
        client = self._client()
        me = client.user if client else None
        bot_id = me.id if me else 0
        settings = self.settings
        missing = missing_permission(message.channel)
        if missing is not None:  # the answer could never arrive: neither compute nor send it
            log.error(
                "discord: not answering %s in %s: the bot lacks %s there",
                message.id,
                where(message.channel),
                missing,
            )
            return
        question = question_text(message, bot_id, settings)
        if not question:
            empty = message.attachments or message.stickers
            hint = NO_WORDS if empty else settings.empty_question_message.strip()
            if not hint:  # `empty_question_message: ""`: no reply, as on Discourse
                return
            hinted: list[discord.Message] = []
            try:
                await notify(message, hint, settings, on_sent=hinted.append)
            except asyncio.CancelledError:
                if message.id not in self._withdrawn:
                    raise
                await withdraw(message.id, hinted, settings)  # the question went meanwhile
            else:
                if hinted and asked is not None:  # an edit that asks is answered here
                    asked.replies = hinted
            return
        store = self.services.store
        continued = await conversation_of(message, bot_id, settings, store)
        conversation = continued.conversation
        earlier = list(asked.replies) if asked is not None else []
        noted = [asked.note] if asked is not None and asked.note is not None else []
        posted: list[discord.Message] = [*noted, *earlier]
        reply: StreamedReply | None = None

        # as on every channel, the assistant reads at most web.max_question_chars of a question
        limit = self.services.settings.web.max_question_chars
        question, cut = fit_question(question, limit)  # when cut, the asker is told
        turn_id = self._turn(conversation, question, asked)
        # so that a walk back steps over this question once it is deleted
        remember_question(store, message, continued.replied_to)

        def record(sent: discord.Message, *, alone: bool = True) -> None:
            # ``alone``: it holds this turn's answer; else it still shows an earlier one
            remember_posted(
                store, message.channel.id, conversation, sent, turn_id, message.id, replace=alone
            )

        def remember(sent: discord.Message) -> None:
            # every message posted for this turn is recorded at once with its conversation
            # and its turn (by which a later history judges it)
            posted.append(sent)
            record(sent)

        def part_posted(sent: discord.Message) -> None:
            remember(sent)
            if asked is not None and reply is not None and self._on_progress is not None:
                asked.replies = list(reply.posted)
                self._on_progress(message.id, asked)

        typing = asyncio.create_task(keep_typing(message.channel, settings.typing_interval))
        # released in ``finally``, so also by a failure, once its apology is posted
        claim = self.places.claim(message.channel.id)
        try:
            # else the asker never learns that the end, or the attached files, were not read;
            # an edit keeps one such note above the answer, true of the question as it is now
            note = note_text(message, limit if cut else None, asked, earlier)
            earlier = await place_note(message, note, asked, earlier, settings, remember)
            # an edit's answer is written into the messages posted before (only those sent
            # anew are told to ``on_posted``): they are this turn's, but until rewritten they
            # show the answer they held, so a reply to one is judged by that answer's turn too
            reused = [*([asked.note] if asked is not None and asked.note else []), *earlier]
            for sent in reused:
                record(sent, alone=False)
            if noted and (asked is None or asked.note is None):
                posted.remove(noted[0])  # deleted: no longer true of the question
            audience = await self.audience_for(message)
            context = self.render_context(message, audience)
            # only the earlier answers this channel's readers may still see
            history = continued.history_for(audience, self.files, limit)
            reply = StreamedReply(
                message.channel,
                message,
                settings,
                context,
                on_posted=part_posted,
                on_rewritten=record,
                reuse=earlier,
                file_budget=message_file_budget(upload_limit(message)),
                nonces=asked.nonces if asked is not None else None,
            )
            events = self.services.assistant.stream(question, audience, history)
            if asked is not None:
                events = until_edited(events, asked)
            result = await reply.run(in_turn(events, claim))
            store.finish_turn(turn_id, result.answer.to_json(), result.registry)
            if asked is not None and asked.note is not None:
                record(asked.note)  # the note above this answer: no earlier answer's now
            edited = asked is not None and asked.answered  # answered before: this is an edit
            log.info(
                "discord: %s %s (%s) in %d message(s)",
                "re-answered" if edited else "answered",
                message.id,
                f"edited; {trigger}" if edited else trigger,
                len(reply.posted),
            )
            if asked is not None:
                asked.answered = True
        except QuestionEditedError:
            # the edited text is answered next, in what was posted so far
            log.info("discord: %s was edited while being answered; answering it again", message.id)
            store.finish_turn(turn_id, None, None, status="failed")
        except (ChannelClosedError, MessageGoneError) as exc:
            # nobody could read an apology there, or a moderator deleted the answer meanwhile
            log.error(
                "discord: answer to %s in %s not delivered: %s",
                message.id,
                where(message.channel),
                reason(exc),
            )
            store.finish_turn(turn_id, None, None, status="failed")
        except Exception as exc:  # the connector edge: whatever failed, the user hears of it
            notice = settings.failure_message
            if is_setup_error(exc):  # a refused key, no index: asking again cannot help
                report_setup_error(self.services, "discord", exc)
                notice = NOT_SET_UP_REPLY
            elif isinstance(exc, CitecastError):  # expected: the model backend, a send given up
                log.error("discord: answering %s failed: %s", message.id, reason(exc))
            else:  # a bug: the traceback is what finds it
                log.error("discord: answering %s failed: %s", message.id, exc, exc_info=True)
            store.finish_turn(turn_id, None, None, status="failed")
            # what was posted of the answer becomes the apology: "[n]" markers left without
            # their source list would read as a (wrong) answer
            parts = reply.posted if reply is not None else earlier
            try:  # "try again" in reply to the apology continues too
                await claim.take()  # not between another answer's parts
                apology = await notice_in_place_of(
                    message, notice, parts, settings, remember, after_failure=True
                )
                parts[:] = [] if apology is None else [apology]  # an edit's answer goes there
                if apology is not None:
                    record(apology)  # it says only this now, whatever message it was
                if asked is not None:
                    asked.replies = list(parts)
            except asyncio.CancelledError:  # not caught by the handler below
                if message.id not in self._withdrawn:
                    raise
                await withdraw(message.id, posted, settings)
        except asyncio.CancelledError:
            store.finish_turn(turn_id, None, None, status="failed")
            if message.id not in self._withdrawn:
                raise
            await withdraw(message.id, posted, settings)  # they answer nothing now
        finally:
            claim.release()
            typing.cancel()
            if asked is not None and reply is not None:
                asked.replies = list(reply.posted)


__all__ = ["NO_WORDS", "QuestionAnswerer"]
