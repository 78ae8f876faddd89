"""Web conversations: the store side of a turn, the viewer's audience, and web rendering.

A turn is written to the store as ``pending`` before the assistant is asked, and finished with
the Answer JSON and the registry JSON (or marked ``failed``), so a page reload shows the same
conversation with the same numbers and a shutdown never loses a question silently. Only turns
of the ``web`` channel are visible through the web API.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import renderers
from bot.assistant.base import Reply
from bot.assistant.own_replies import answer_language
from bot.connectors.setup_errors import is_setup_error, report_setup_error
from bot.connectors.small_talk import is_small_talk_reply
from bot.connectors.web_client_json import client_answer_json, with_display_quotes
from bot.connectors.web_conversation_history import ConversationHistory
from bot.connectors.web_file_access import as_now
from bot.connectors.web_stored_urls import IndexedUrls, with_current_urls
from bot.connectors.web_turn_failures import log_failure, log_store_failure
from bot.connectors.web_turn_page import shareable_answers, visible_answer
from bot.connectors.web_viewer_links import IndexedFiles
from bot.errors import BackendError, StoreError
from bot.filetokens import FileSigner
from bot.models import Answer, Exchange, Source
from bot.runtime import Services
from bot.store import Turn
from renderers.base import RenderContext, capabilities_for

log = logging.getLogger(__name__)

T = TypeVar("T")

CHANNEL = "web"
FEEDBACK_SCOPE = "web-feedback"  # claim_once scope: one vote per answer
# the most turns the conversation endpoint returns at once (older ones: ``before``)
CONVERSATION_PAGE = 200


@dataclass(frozen=True)
class TurnStart:
    """A pending turn: the conversation it belongs to, its store id and its question."""

    conversation_id: str
    turn_id: int
    question: str


class WebTurns:
    """Store-backed conversations of the web channel, rendered for one viewer audience."""

    def __init__(self, services: Services, signer: FileSigner | None) -> None:
        self.services = services
        self.settings = services.settings.web
        self.audience = frozenset(self.settings.audience)
        if signer is not None:
            # share links are signed for this store's turns (the same signer serves the others)
            signer.bind_store(services.store)
        self.signer = signer
        # who may read a cited file now (a stored answer re-rendered later: web_file_access)
        self.files = IndexedFiles.of(services.settings.index)
        # the public URL a cited file has now (a re-ingest may have changed it: web_stored_urls)
        self.urls = IndexedUrls(services.settings.index.path)
        # what a question reads of its conversation, whatever its length (and how many rows)
        self.conversations = ConversationHistory(services.store, self.audience, self.files)
        self._in_flight: set[int] = set()
        self._idle = asyncio.Event()
        self._idle.set()
        self._writers: set[asyncio.Task[Any]] = set()

    # -- conversation state ------------------------------------------------------------------

    def stored_turns(self, conversation_id: str, before: int | None = None) -> list[Turn]:
        """The conversation's latest web turns (before the turn id ``before``, when given),
        oldest first: at most :data:`CONVERSATION_PAGE` of them (:meth:`has_earlier` says
        whether older ones are left)."""
        store = self.services.store
        return store.channel_turns(conversation_id, CHANNEL, before=before, limit=CONVERSATION_PAGE)

    def has_earlier(self, conversation_id: str, before: int) -> bool:
        """Whether the conversation has web turns older than the turn id ``before``."""
        store = self.services.store
        return bool(store.channel_turns(conversation_id, CHANNEL, before=before, limit=1))

    def exists(self, conversation_id: str) -> bool:
        """Whether the conversation has a web turn (one row read, however long it is)."""
        return bool(self.services.store.channel_turns(conversation_id, CHANNEL, limit=1))

    def vote(self, conversation_id: str, turn_id: int, value: str) -> bool | None:
        """Record a vote on an answered turn of the conversation: True when recorded, False
        when this answer already has one (a conversation votes once per answer), None when
        the conversation has no such answered turn. The turn is looked up by its id, so an
        answer keeps its vote however many turns came after it."""
        turn = self.services.store.turn(turn_id)
        if (
            turn is None
            or turn.conversation_id != conversation_id
            or turn.channel != CHANNEL
            or turn.status != "done"
        ):
            return None
        store = self.services.store
        if not store.claim_once(FEEDBACK_SCOPE, str(turn_id)):
            return False
        store.add_feedback(turn_id, CHANNEL, None, value)
        return True

    def stored_vote(self, turn_id: int) -> str | None:
        """The vote an answer has (the first one recorded), or None."""
        votes = self.services.store.feedback(turn_id)
        return votes[0] if votes else None

    def history(self, conversation_id: str) -> list[Exchange]:
        """The last ``web.history_turns`` answered turns, as the assistant's history: only
        those the model may build on now (:meth:`usable`). Only those turns are read (and
        the few it skips), not the whole conversation."""
        limit = self.settings.history_turns
        if limit == 0:
            return []
        kept = self.conversations.latest(conversation_id, CHANNEL, limit, self._history_turn)
        return [Exchange(turn.question, _answer_text(turn) or "") for turn in kept]

    def _history_turn(self, turn: Turn) -> bool:
        return turn.status == "done" and _answer_text(turn) is not None and self.usable(turn)

    def visible(self, turn: Turn) -> bool:
        """False for an answer citing or read from a source this viewer may not see: one stored
        while ``web.audience`` was wider (or one this version cannot read). It is hidden on
        reload, and must not reach the model as history either, or the next answer could
        repeat it."""
        return turn.answer is None or visible_answer(turn, self.audience) is not None

    def usable(self, turn: Turn) -> bool:
        """:meth:`visible`, and every knowledge-base file the answer cites or read is still
        readable by this viewer as the index has it now
        (:func:`bot.connectors.web_file_access.visible_now`). An answer citing a file made
        private or dropped since still shows on reload (the asker has read it; the file shows
        as no longer available), but is not given to the model again: the next answer could
        repeat what the file said."""
        return turn.answer is None or visible_answer(turn, self.audience, self.files) is not None

    def begin(self, question: str, conversation_id: str | None) -> TurnStart:
        """Record the question as a pending turn (starting a conversation when needed)."""
        conversation = conversation_id or self.services.store.new_conversation_id()
        turn_id = self.services.store.add_turn(conversation, CHANNEL, question, status="pending")
        self._in_flight.add(turn_id)
        self._idle.clear()
        return TurnStart(conversation, turn_id, question)

    def finish(self, turn_id: int, reply: Reply) -> None:
        """Store the answer of a pending turn."""
        try:
            self.services.store.finish_turn(turn_id, reply.answer.to_json(), reply.registry)
        finally:
            self._settle(turn_id)

    def fail(self, turn_id: int, error: Exception | None = None) -> None:
        """Mark a pending turn failed (the assistant failed or the client went away).

        ``error``, when answering raised one, is logged here and only here. A setup error (a
        refused key, no usable index) goes to the deployment's one ``SetupAlarm``, as on every
        other channel: one ERROR line per cause, then one INFO line per question. An expected
        outage (backend down) is one line, anything else comes with its traceback. A store
        that cannot be written either leaves the turn pending, said in one line (once, when
        ``error`` is the store's own): never a StoreError out of the handler of another.
        """
        if error is not None and is_setup_error(error):
            report_setup_error(self.services, CHANNEL, error)
        elif error is not None:
            log_failure(turn_id, error)
        try:
            self.services.store.finish_turn(turn_id, None, None, status="failed")
        except StoreError as exc:
            if not isinstance(error, StoreError):
                log_store_failure(f"turn {turn_id} left pending", exc)
        finally:
            self._settle(turn_id)

    def _settle(self, turn_id: int) -> None:
        self._in_flight.discard(turn_id)
        if not self._in_flight:
            self._idle.set()

    @property
    def in_flight(self) -> int:
        """How many answers are being produced right now."""
        return len(self._in_flight)

    def spawn(self, writer: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``writer`` (one answer being written) as a task of its own: a streamed answer
        outlives the request that started it (a viewer who reloads finds it stored), and a
        shutdown that outlasts the grace period cancels it (``drain``) while the request can
        still tell its viewer why."""
        task = asyncio.get_running_loop().create_task(writer)
        self._writers.add(task)
        task.add_done_callback(self._writers.discard)
        return task

    async def drain(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for in-flight answers; returns how many were still
        being written then (0 when all finished). Those are cancelled and stored failed."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            left = list(self._writers)
            unfinished = self.in_flight
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            return unfinished
        return 0

    # -- audience and rendering --------------------------------------------------------------

    def check_audience(self, answer: Answer) -> None:
        """Refuse an answer citing a source the viewer may not see (defence in depth)."""
        for citation in answer.citations:
            if not citation.source.visible_to(self.audience):
                log.error("refusing an answer citing %r to a web viewer", citation.source.id)
                raise BackendError("the answer cited a source this viewer may not see")

    def link_for(self, base_url: str) -> Callable[[Source], str | None]:
        """The signer the renderer uses: a signed download link back to this server."""
        signer, audience = self.signer, self.audience
        public = self.settings.public_base_url or base_url
        if signer is None:
            return lambda source: None

        def link(source: Source) -> str | None:
            url = signer.url_for(source, audience, public)
            if url and source.page and _is_pdf(source):
                url += f"#page={source.page}"  # browsers' PDF viewers open at that page
            return url

        return link

    def render_context(self, base_url: str) -> RenderContext:
        """How the web renderer sees this deployment and viewer."""
        settings = self.services.settings
        return RenderContext(
            public_base_url=settings.web.public_base_url or base_url,
            signer=self.link_for(base_url),
            audience=self.audience,
            capabilities=capabilities_for("web", settings.capabilities.get("web")),
            language=settings.assistant.language,
            weak_below=settings.grounding.threshold,
        )

    def as_now(self, answer: Answer) -> Answer:
        """``answer`` as this viewer may see it now: a cited file made private or dropped from
        the index since is shown as no longer available, with no link
        (:func:`bot.connectors.web_file_access.as_now`), and every other cited knowledge-base
        file at the public URL the index gives it now, its deep links rebuilt on it
        (:func:`bot.connectors.web_stored_urls.with_current_urls`)."""
        shown = as_now(answer, self.files, self.signer, self.audience)
        return with_current_urls(shown, self.urls, self.audience)

    def render(self, answer: Answer, base_url: str) -> dict[str, Any]:
        """The web renderer's payload (``{html, citations}``) for this viewer, of the answer as
        it may be seen now (:meth:`as_now`): a stored answer is re-rendered here on a reload
        and on its share page, its links signed afresh only for files still readable and its
        files' public URLs looked up again."""
        return self._render(self.as_now(answer), base_url)

    def in_own_words(self, answer: Answer) -> bool:
        """Whether ``answer`` is one of citecast's fixed replies in a language other than the
        deployment's ``assistant.language`` (:mod:`bot.assistant.own_replies`)."""
        language = self.services.settings.assistant.language
        return answer_language(answer, language) != language

    def _render(self, answer: Answer, base_url: str) -> dict[str, Any]:
        context = self.render_context(base_url)
        # citecast's own fixed replies are English whatever assistant.language says
        context = replace(context, language=answer_language(answer, context.language))
        return dict(renderers.render(CHANNEL, answer, context))

    def share_url(self, turn_id: int, base_url: str) -> str | None:
        """The answer's shareable page, ``/turns/{key}``: the key is the turn id plus its HMAC,
        for this turn only (``FileSigner.turn_key``), as a bare sequential id would let anyone
        read answers by counting. None without a signer."""
        key = None if self.signer is None else self.signer.turn_key(turn_id)
        if key is None:
            return None
        public = (self.settings.public_base_url or base_url).rstrip("/")
        return f"{public}/turns/{key}"

    def shareable(self, turns: Sequence[Turn]) -> set[int]:
        """The ids of those of ``turns`` (one conversation's) whose share page shows the answer
        (:func:`bot.connectors.web_turn_page.shareable_answers`, the page's own rule): only
        they are given a ``share_url``, so "Copy link" never copies a link to a 404."""
        return set(shareable_answers(turns, self.audience, self.files))

    def shared_answer(self, turn: Turn) -> Answer | None:
        """The answer of ``turn`` (a finished one, of any channel) when its share page shows
        it (:func:`bot.connectors.web_turn_page.shareable_answer`), judging every earlier
        answer of its conversation, however long, for this audience as the index has it now."""
        answer = visible_answer(turn, self.audience, self.files)
        if answer is None:
            return None
        clean = self.conversations.clean_before(turn.conversation_id, turn.channel, turn.id)
        return answer if clean else None

    def _history_shareable(self, start: TurnStart) -> bool:
        """Whether the earlier answers of ``start``'s conversation leave its answer shareable
        (one the share page would hide, as history, hides every later one too: all of them
        count, not only the last ``history_turns``; see ``web_conversation_history``)."""
        return self.conversations.clean_before(start.conversation_id, CHANNEL, start.turn_id)

    def payload(
        self, reply: Reply, start: TurnStart, base_url: str, rendered: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The API's answer payload: ``{answer, html, citations, conversation_id, turn_id,
        share_url, small_talk}``.

        ``answer`` is the client form (no server paths); the store keeps the full JSON.
        ``small_talk`` is true for the reply to a greeting, thanks or goodbye
        (:func:`bot.connectors.small_talk.is_small_talk_reply`): the chat shows it without
        "Answered without sources." and without the vote. ``share_url`` is None when the share
        page would not show the answer (:meth:`shareable`: its conversation's history holds an
        answer citing a file made private since).
        """
        web = rendered if rendered is not None else self.render(reply.answer, base_url)
        shared = self._history_shareable(start)
        return {
            "answer": client_answer_json(reply.answer),
            "html": web.get("html", ""),
            "citations": [with_display_quotes(c) for c in web.get("citations", [])],
            "conversation_id": start.conversation_id,
            "turn_id": start.turn_id,
            "share_url": self.share_url(start.turn_id, base_url) if shared else None,
            "small_talk": is_small_talk_reply(start.question, reply.answer),
        }

    def stored_payloads(self, turns: Sequence[Turn], base_url: str) -> list[dict[str, Any]]:
        """The conversation endpoint's ``turns``: :meth:`stored_payload` of each of ``turns``
        (a run of one conversation's web turns), a ``share_url`` only where the share page
        shows: the answers before the run count too (:meth:`_history_shareable`)."""
        first = min((turn.id for turn in turns), default=0)
        clean = bool(turns) and self.conversations.clean_before(
            turns[0].conversation_id, CHANNEL, first
        )
        shared = self.shareable(turns) if clean else set()
        return [self.stored_payload(turn, base_url, shared=turn.id in shared) for turn in turns]

    def stored_payload(self, turn: Turn, base_url: str, *, shared: bool = True) -> dict[str, Any]:
        """One stored turn as the conversation endpoint returns it (links signed afresh, a file
        no longer readable shown as such: :meth:`as_now`); an answer carries its ``vote``
        (``helpful``, ``not_helpful`` or None) and ``small_talk`` (see :meth:`payload`), and its
        ``share_url`` when ``shared`` (:meth:`stored_payloads` says where the page shows)."""
        out: dict[str, Any] = {
            "turn_id": turn.id,
            "question": turn.question,
            "status": turn.status,
            "created_at": turn.created_at,
        }
        if turn.status == "done" and turn.answer is not None:
            if not self.visible(turn):
                # Stored for a wider audience (web.audience changed since), or by a version
                # whose Answer JSON this one cannot read: never show it, and never a 500 that
                # would lose the whole conversation on reload.
                out["status"] = "hidden"
                return out
            answer = self.as_now(Answer.from_json(turn.answer))
            web = self._render(answer, base_url)
            out["answer"] = client_answer_json(answer)
            out["html"] = web.get("html", "")
            out["citations"] = [with_display_quotes(c) for c in web.get("citations", [])]
            out["share_url"] = self.share_url(turn.id, base_url) if shared else None
            out["vote"] = self.stored_vote(turn.id)
            out["small_talk"] = is_small_talk_reply(turn.question, answer)
        return out


def _answer_text(turn: Turn) -> str | None:
    text = turn.answer.get("text") if turn.answer else None
    return text if isinstance(text, str) else None


def _is_pdf(source: Source) -> bool:
    name = (source.filename or source.path or "").lower()
    return source.media_type == "application/pdf" or name.endswith(".pdf")
