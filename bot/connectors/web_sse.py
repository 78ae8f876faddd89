"""Server-sent events for ``GET /api/ask/stream``.

Events, each ``data`` one line of JSON:

- ``start``: ``{conversation_id, turn_id}`` as soon as the question is recorded;
- ``citation``: a citation that became certain (its client JSON form, without server paths,
  plus ``href``), before the text that uses it;
- ``delta``: ``{text, append?, tail?}``: ``text`` is the new answer text (CommonMark with
  ``[^n]``); ``append`` is sanitized HTML of blocks that just completed (add it at the end);
  ``tail`` is sanitized HTML of the still-open last block (replace the previous tail);
- ``done``: the final payload, the same as ``POST /api/ask`` returns;
- ``error``: ``{error, retry_after?}``, a reason to show (``retry_after``: the seconds to wait
  when the model endpoint is busy for longer than a turn may wait); the stream ends after it.
  A stream cut by a server shutdown (its answer not finished within ``web.shutdown_grace``)
  ends with one too, saying the server is restarting (``RESTARTING``), so a page need not
  probe to learn what happened.

A comment line (``: keep-alive``) is sent whenever the answerer is silent for ``heartbeat``
seconds, so proxies do not close a stream that is waiting on a slow backend.

The answer does not depend on the viewer staying: it is written by a task of its own, and a
viewer who reloads mid-answer finds it stored (see ``AnswerStream``).

Each completed block is rendered once (``renderers.streaming``), never once per token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any

from bot.assistant.base import Reply
from bot.connectors.web_api import AskRequest
from bot.connectors.web_client_json import client_citation_json
from bot.connectors.web_turn_failures import STORE_UNAVAILABLE, log_store_failure
from bot.connectors.web_turns import TurnStart, WebTurns
from bot.deeplinks import file_link
from bot.errors import (
    BackendBusyError,
    BackendConfigError,
    BackendError,
    HistoryOverflowError,
    KnowledgeIndexError,
    StoreError,
)
from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers.streaming import StreamRenderer
from renderers.url_encoding import encoded_url

log = logging.getLogger(__name__)


def sse_event(event: str, data: Any) -> str:
    """One server-sent event; JSON keeps ``data`` on one line."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


HEARTBEAT = ": keep-alive\n\n"
# What a viewer is told when a shutdown cut the answer short; the turn is stored failed.
RESTARTING = "the server is restarting, so this answer was not finished; ask again in a moment"
_FINAL_EVENTS = ("event: done\n", "event: error\n")


def citation_href(citation: Citation, link: Callable[[Source], str | None]) -> str | None:
    """Where clicking the citation goes: deep link, public URL, or a signed download (at the
    cited page or quoted words, :func:`bot.deeplinks.file_link`), encoded as the rendered
    answer's links are (:func:`renderers.url_encoding.encoded_url`): a ``\\`` in it would open
    another path."""
    if citation.deep_link or citation.source.url:
        return encoded_url((citation.deep_link or citation.source.url or "").strip())
    signed = link(citation.source)
    return encoded_url(file_link(signed, citation.source, citation.quote)) if signed else None


class AnswerStream:
    """Turns one streamed answer into SSE text, recording the turn in the store.

    The answer is written by a task of its own (``WebTurns.spawn``), which feeds the events
    to the response through a queue: a viewer who reloads or closes the page mid-answer only
    stops reading, and the answer is still stored (the reloaded page shows it). Only a server
    shutdown cuts the task short: its turn is then stored failed and the stream ends with an
    ``error`` event saying the server is restarting.
    """

    def __init__(
        self, turns: WebTurns, ask: AskRequest, base_url: str, *, heartbeat: float = 15.0
    ) -> None:
        self.turns = turns
        self.ask = ask
        self.base_url = base_url
        self.heartbeat = heartbeat
        self.citation_count = 0

    async def events(self) -> AsyncIterator[str]:
        """The event stream; it always ends with ``done`` or ``error`` (see ``write``)."""
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.turns.spawn(self.write(queue))
        while True:
            try:
                # asyncio.timeout, not wait_for: wait_for runs the get in a task of its own, so
                # an item would reach this loop only some scheduler rounds after it was put
                async with asyncio.timeout(self.heartbeat):
                    item = await queue.get()
            except TimeoutError:
                yield HEARTBEAT
                continue
            if item is None:
                return
            yield item

    async def write(self, queue: asyncio.Queue[str | None]) -> None:
        """Answer the question into ``queue`` (SSE text, then None); the turn, once recorded,
        ends ``done`` or ``failed`` whatever happens, and nothing escapes."""
        ended = False
        try:
            # aclosing: a cancellation between two events still closes the answer, whose
            # ``finally`` stores the turn failed now rather than when it is garbage collected
            async with contextlib.aclosing(self._answer()) as answer:
                async for chunk in answer:
                    queue.put_nowait(chunk)
                    ended = chunk.startswith(_FINAL_EVENTS)
                    # let the response send it now: an answerer that never waits (the built-in
                    # one) would otherwise deliver every event at once, at the end
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            # Only a server shutdown cancels the writer (WebTurns.drain): say so while the
            # response can still send it, or the viewer sees a stream that just stops.
            if not ended:
                queue.put_nowait(sse_event("error", {"error": RESTARTING}))
            raise
        finally:
            queue.put_nowait(None)

    async def _answer(self) -> AsyncGenerator[str, None]:
        turns = self.turns
        start: TurnStart | None = None
        settled = False
        try:
            conversation_id = self.ask.conversation_id
            history = turns.history(conversation_id) if conversation_id is not None else []
            start = turns.begin(self.ask.question, conversation_id)
            yield sse_event(
                "start", {"conversation_id": start.conversation_id, "turn_id": start.turn_id}
            )
            link = turns.link_for(self.base_url)
            renderer = StreamRenderer("web", turns.render_context(self.base_url), tail_growth=1.25)
            stream = turns.services.assistant.stream(self.ask.question, turns.audience, history)
            async for event in stream:
                if isinstance(event, CitationAdded):
                    turns.check_audience(Answer("", (event.citation,)))
                    renderer.feed([event])
                    self.citation_count += 1
                    data = client_citation_json(event.citation)
                    data["href"] = citation_href(event.citation, link)
                    yield sse_event("citation", data)
                elif isinstance(event, TextDelta):
                    if not event.text:
                        continue
                    update = renderer.feed([event])
                    delta: dict[str, Any] = {"text": event.text}
                    if update.appended:
                        delta["append"] = update.appended
                    if update.tail is not None:
                        delta["tail"] = update.tail
                    yield sse_event("delta", delta)
                elif isinstance(event, Reply):
                    turns.check_audience(event.answer)
                    rendered = renderer.finish(event.answer)
                    if turns.in_own_words(event.answer):
                        # a fixed English reply: drawn again, marked as English (own_replies)
                        rendered = turns.render(event.answer, self.base_url)
                    # Built before the turn is stored done: a failure here still fails the turn.
                    # in a worker thread: the share rule may read every earlier answer
                    payload = await asyncio.to_thread(
                        turns.payload, event, start, self.base_url, rendered
                    )
                    turns.finish(start.turn_id, event)
                    settled = True
                    self.citation_count = len(event.answer.citations)
                    yield sse_event("done", payload)
                    return
            raise BackendError("the assistant ended without an answer")
        except Exception as exc:
            if start is None and isinstance(exc, StoreError):
                log_store_failure("question not answered", exc)
            elif start is None:
                log.error("a web stream failed before its turn was recorded", exc_info=exc)
            elif not settled:
                settled = True
                try:
                    turns.fail(start.turn_id, exc)
                except Exception:  # the store too: the viewer still gets the error event
                    log.exception("could not mark web turn %s failed", start.turn_id)
            yield sse_event("error", error_event(exc))
        finally:
            # The server is stopping (the task was cancelled) before the answer was complete.
            if start is not None and not settled:
                turns.fail(start.turn_id)


# What a viewer is told when the backend refused citecast's own key: asking again cannot help,
# and which key or setting is wrong is the operator's to read in the log, not the public's.
NOT_SET_UP = "the assistant is not set up correctly; tell whoever runs this site"
# What a viewer is told when this conversation's earlier exchanges made the prompt too long.
NEW_CONVERSATION = "this conversation is too long for the assistant; start a new conversation"


def public_reason(exc: Exception) -> str:
    """What a viewer is told when answering failed (never internals)."""
    if isinstance(exc, KnowledgeIndexError):
        return "the knowledge base is not available; ask the operator to run citecast ingest"
    if isinstance(exc, BackendConfigError):
        return NOT_SET_UP
    if isinstance(exc, BackendBusyError):
        return f"the assistant is busy; try again in about {_wait_words(exc.retry_after)}"
    if isinstance(exc, HistoryOverflowError):  # the same history would fail again
        return NEW_CONVERSATION
    if isinstance(exc, StoreError):  # a full disk, a damaged store: the operator's to fix
        return STORE_UNAVAILABLE
    return "the assistant failed to answer; try again"


def public_status(exc: Exception) -> int:
    """The HTTP status ``POST /api/ask`` fails with: 503 for what only the operator can fix
    (no usable index, a refused key, a store that cannot be written) and for a busy backend
    that asked for a long wait (with :func:`public_headers`' ``Retry-After``), 502 for the rest
    (an outage or a bug: asking again may help)."""
    busy_or_setup = KnowledgeIndexError | BackendConfigError | BackendBusyError | StoreError
    return 503 if isinstance(exc, busy_or_setup) else 502


def public_headers(exc: Exception) -> dict[str, str]:
    """The headers of the failure ``POST /api/ask`` answers with: ``Retry-After`` (whole
    seconds, rounded up) when the backend is busy for longer than a turn may wait."""
    seconds = retry_seconds(exc)
    return {} if seconds is None else {"Retry-After": str(seconds)}


def error_event(exc: Exception) -> dict[str, Any]:
    """The stream's ``error`` event: ``{error}`` (:func:`public_reason`), and ``retry_after``
    (whole seconds) when the backend is busy, the stream's ``Retry-After``: its status (200)
    was sent before the answer failed."""
    data: dict[str, Any] = {"error": public_reason(exc)}
    seconds = retry_seconds(exc)
    if seconds is not None:
        data["retry_after"] = seconds
    return data


def retry_seconds(exc: Exception) -> int | None:
    """The whole seconds a busy backend asked to wait (at least 1), None for other failures."""
    if not isinstance(exc, BackendBusyError):
        return None
    return max(1, math.ceil(exc.retry_after))


def _wait_words(seconds: float) -> str:
    """``1 minute``, ``5 minutes``; ``3 hours`` from two hours on (a daily quota is not "about
    1440 minutes"). Rounded up: told to come back sooner, the viewer is only refused again."""
    minutes = max(1, math.ceil(seconds / 60))
    if minutes >= 120:
        hours = math.ceil(minutes / 60)
        return f"{hours} hours"
    return "1 minute" if minutes == 1 else f"{minutes} minutes"
