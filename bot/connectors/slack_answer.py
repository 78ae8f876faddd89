"""Answering one admitted Slack question in its thread (the connector's answering half).

The thinking status is set first, the people the question mentions are named, a long question
is cut (with a note saying so), then the audience, the thread's history (less the answers that
audience may no longer see: ``slack_history_answers``) and the turn are found, the answer is
streamed or posted through the sinks ``choose_sinks`` picks, and the turn is stored. A question
with no words gets a greeting (or, when it only carries files, a note that files are not read).
Any failure before answering costs the asker only an apology; a failure while answering is
``answer_failed``'s to handle. Answers in one thread are written at the same time but posted one
after the other (``answer_places``: the first to show keeps the thread).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from slack_sdk.web.async_client import AsyncWebClient

import renderers
from bot.connectors.answer_places import Claim
from bot.connectors.link_lifetime import services_with_link_days
from bot.connectors.render_context import context_for
from bot.connectors.slack_answered import log_answered
from bot.connectors.slack_audience import SlackAudiences
from bot.connectors.slack_client import Sleep, UndeliverableError
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_events import SlackQuestion
from bot.connectors.slack_failures import answer_failed
from bot.connectors.slack_files import numbered_files
from bot.connectors.slack_follow_up import FollowUpCheck, checked_sinks
from bot.connectors.slack_history import thread_history
from bot.connectors.slack_history_answers import ThreadAnswers
from bot.connectors.slack_notes import question_notes
from bot.connectors.slack_outbox import SlackOutbox, thread_place
from bot.connectors.slack_presenter import AnswerPresenter, answer_events, choose_sinks
from bot.connectors.slack_replies import ReplyLog
from bot.connectors.slack_sinks import Payload
from bot.connectors.slack_stream_links import marker_forms
from bot.connectors.slack_text import mentioned_users, question_text
from bot.connectors.slack_thread import SlackThread
from bot.connectors.slack_turn_sink import turn_sinks
from bot.connectors.slack_unanswered import question_turn
from bot.connectors.web_viewer_links import IndexedFiles
from bot.errors import ChannelError, StoreError
from bot.models import Answer, Exchange
from bot.runtime import Services
from renderers.base import Capabilities, CitationForm, RenderContext, capabilities_for

log = logging.getLogger(__name__)

GREETING = "Hi! Ask me a question and I'll answer with sources."
FILES_ONLY = (
    "I can't read attached files. Please ask your question in words, and I'll answer with sources."
)
MAX_NAMED_MENTIONS = 20

# the bot's user id and bot id, as the connector knows them now (learned at start, or later)
Identity = Callable[[], tuple[str | None, str | None]]


class SlackAnswering:
    """Answers admitted questions in their threads, and renders answers for Slack."""

    def __init__(
        self,
        services: Services,
        client: AsyncWebClient,
        poster: SlackPoster,
        outbox: SlackOutbox,
        audiences: SlackAudiences,
        *,
        sleep: Sleep,
        identity: Identity,
    ) -> None:
        self.services = services
        self.settings = services.settings.slack
        self.client = client
        self.poster = poster
        self.outbox = outbox
        self.audiences = audiences
        self._sleep = sleep
        self._identity = identity
        self._replies = ReplyLog(services.store)
        # the knowledge index as it is now: an earlier answer citing a file made private or
        # dropped since is no history for the model (``slack_history_answers``)
        self._files = IndexedFiles.of(services.settings.index)
        # the threads answers are being posted to: one answer at a time posts in a thread, and
        # the outbox's queued rests take their turn there too (so the places are the outbox's)
        self.places = outbox.places
        # a file is shown attached only where slack_uploads will upload it: within
        # slack.max_file_bytes, and within capabilities.slack.max_file_bytes when that is set
        limit = self.settings.max_file_bytes
        overrides = {"max_file_bytes": limit, **services.settings.capabilities.get("slack", {})}
        caps = capabilities_for("slack", overrides)
        self._caps: Capabilities = replace(caps, max_file_bytes=min(caps.max_file_bytes, limit))

    def render(
        self,
        answer: Answer,
        audience: frozenset[str],
        turn_id: int | None,
        attach_files: bool = True,
    ) -> Payload:
        """The Slack payload of ``answer`` for a viewer in ``audience`` (files numbered)."""
        payload = renderers.render("slack", answer, self._context(audience, turn_id, attach_files))
        numbered_files(payload, answer, audience)
        return payload

    def _context(
        self, audience: frozenset[str], turn_id: int | None, attach_files: bool = True
    ) -> RenderContext:
        attach_files = attach_files and self.poster.uploads.allowed  # see slack_files
        # a thread is read days later, with nothing to reload: its /files/ links last
        # slack.file_link_ttl_days (link_lifetime says why that is safe)
        links = services_with_link_days(self.services, self.settings.file_link_ttl_days)
        return context_for(links, audience, self._caps, turn_id=turn_id, attach_files=attach_files)

    async def _prepare(
        self, question: SlackQuestion, thread: SlackThread
    ) -> tuple[frozenset[str], tuple[Exchange, ...], int]:
        """The audience, the thread's history (only the answers the audience may still see)
        and a pending turn."""
        audience = await self.audiences.for_viewer(
            question.channel, question.user, question.channel_type
        )
        bot_user_id, bot_id = self._identity()
        stored = ThreadAnswers(self.services.store, question, audience, self._files)
        history = await thread_history(
            self.client,
            question.channel,
            question.thread_ts,
            current_ts=question.ts,
            bot_user_id=bot_user_id,
            bot_id=bot_id,
            limit=self.settings.history_turns,
            question_chars=self.services.settings.web.max_question_chars,
            # in a channel only a mention was answered; in a DM every message is
            addressed_only=question.channel_type != "im",
            replies_of=lambda ts: self._replies.replies(question.channel, ts),
            shown=stored.shown,
        )
        # after a restart, the turn the earlier run left unfinished: the question counts once
        return audience, history, question_turn(self.services.store, question)

    async def _with_names(self, question: SlackQuestion) -> SlackQuestion:
        """The question with the people it mentions named (``@Ada``, not ``@U0ADA``)."""
        bot_user_id, _ = self._identity()
        # a pasted member list must not cost a users.info call per person
        ids = mentioned_users(question.raw_text, bot_user_id)[:MAX_NAMED_MENTIONS]
        if not ids:
            return question
        names = {i: name for i in ids if (name := await self.audiences.directory.display_name(i))}
        return replace(question, text=question_text(question.raw_text, bot_user_id, names))

    async def answer(self, question: SlackQuestion) -> None:
        """Answer ``question`` in its thread and store the turn (failures are handled here)."""
        store = self.services.store
        thread = question.thread()
        # a follow-up: is it still there? (README) Asked before anything is posted for it
        check = FollowUpCheck(self.client, question) if question.ts != question.thread_ts else None
        if not question.text:
            # a file with no words is not a question: say what is read, not just "Hi!"
            if check is None or await _still_asked(check):
                async with self._place(thread) as claim:
                    await claim.take()  # not between another answer's parts
                    await self._post_quietly(thread, FILES_ONLY if question.has_files else GREETING)
            return
        try:
            # first, so the asker sees at once that the question arrived (assistant threads)
            await self.poster.set_status(thread, self.settings.thinking_status)
            question = await self._with_names(question)
            limit = self.services.settings.web.max_question_chars
            question, note = question_notes(question, limit)  # a long question is cut
            if note is not None and check is not None:
                # posted once the question is found still there, just before the answer
                check.before = self._note_poster(thread, note)
            elif note is not None:  # the question was cut, or its files are not read
                await self._post_quietly(thread, note)
                # the note's post removed the status
                await self.poster.set_status(thread, self.settings.thinking_status)
            audience, history, turn_id = await self._prepare(question, thread)
        except Exception as exc:
            log.error("Slack question in %s not answered: %r", question.channel, exc, exc_info=True)
            async with self._place(thread) as claim:
                await claim.take()  # not between another answer's parts
                await self.poster.apologize(thread)
            return

        def render(answer: Answer) -> Payload:
            return self.render(answer, audience, turn_id)

        def forms(answer: Answer) -> dict[int, CitationForm]:
            return marker_forms(answer, self._context(audience, turn_id))

        sink, fallback = choose_sinks(
            self.settings,
            self.client,
            self.poster,
            self.outbox,
            thread,
            render,
            self._sleep,
            turn_id,
            forms,
            bot_id=self._identity()[1],
        )
        if check is not None:
            sink, fallback = checked_sinks(sink, fallback, check)
        feedback = turn_id if self.settings.feedback_buttons else None
        # left (a failure too) only once the answer, or its apology, is posted whole
        async with self._place(thread) as claim:
            weak_below = self.services.settings.grounding.threshold  # as render marks [n?]
            presenter = AnswerPresenter(
                *turn_sinks(sink, fallback, claim), render, weak_below=weak_below
            )
            try:
                events = answer_events(
                    self.services.assistant, self.settings, question.text, audience, history
                )
                reply, payload = await presenter.run(events, feedback, question.text)
            except BaseException as exc:
                await answer_failed(exc, self.services, question.channel, presenter.sink, turn_id)
                if not isinstance(exc, Exception):
                    raise
                return
        try:
            store.finish_turn(turn_id, reply.answer.to_json(), reply.registry)
        except StoreError as exc:
            log.error("Slack answer %s was sent but not stored: %s", turn_id, exc)
        log_answered(store, question.ts, question.channel, turn_id, len(payload["messages"]))

    def _place(self, thread: SlackThread) -> Claim:
        """A claim on ``thread`` for one answer (or one message) to post there in turn."""
        return self.places.claim(thread_place(thread))

    def _note_poster(self, thread: SlackThread, note: str) -> Callable[[], Awaitable[None]]:
        """What posts ``note`` into the thread (when the follow-up check allows it)."""

        async def post_note() -> None:
            await self._post_quietly(thread, note)
            # the note's post removed the status; the answer may still take a while to show
            await self.poster.set_status(thread, self.settings.thinking_status)

        return post_note

    async def _post_quietly(self, thread: SlackThread, text: str) -> None:
        try:
            await self.poster.post(thread, {"text": text})
        except ChannelError as exc:
            log.warning("posting to %s failed: %s", thread.channel, exc)


async def _still_asked(check: FollowUpCheck) -> bool:
    """Whether the follow-up ``check`` is made for is still there (False: deleted, logged)."""
    try:
        await check.ensure()
    except UndeliverableError as exc:
        log.warning("%s", exc)
        return False
    return True
