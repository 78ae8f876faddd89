"""Server-sent events for ``GET /api/ask/stream``.

Events, each ``data`` one line of JSON:

- ``start``: ``{conversation_id, turn_id}`` as soon as the question is recorded;
- ``citation``: a citation that became certain (its client JSON form, without server paths,
  plus ``href``), before the text that uses it;
- ``delta``: ``{text, append?, tail?}``: ``text`` is the new answer text (CommonMark with
  ``[^n]``); ``append`` is sanitized HTML of blocks that just completed (add it at the end);
  ``tail`` is sanitized HTML of the still-open last block (replace the previous tail);
- ``done``: the final payload, the same as ``POST /api/ask`` returns;
- ``error``: ``{error}``, a reason to show; the stream ends after it.

A comment line (``: keep-alive``) is sent whenever the answerer is silent for ``heartbeat``
seconds, so proxies do not close a stream that is waiting on a slow backend.

Each completed block is rendered once (``renderers.streaming``), never once per token.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from bot.assistant.base import Reply
from bot.connectors.web_api import AskRequest
from bot.connectors.web_client_json import client_citation_json
from bot.connectors.web_turns import TurnStart, WebTurns
from bot.errors import BackendError, KnowledgeIndexError
from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers.streaming import StreamRenderer

log = logging.getLogger(__name__)
T = TypeVar("T")


def sse_event(event: str, data: Any) -> str:
    """One server-sent event; JSON keeps ``data`` on one line."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


HEARTBEAT = ": keep-alive\n\n"


async def with_heartbeat(events: AsyncIterator[T], every: float) -> AsyncIterator[T | None]:
    """``events``, with a None whenever ``every`` seconds pass without one.

    A slow backend (tool calls, a busy model) may be silent for a while; a comment line keeps
    proxies and browsers from closing the idle stream.
    """
    iterator = events.__aiter__()
    pending: asyncio.Future[T] = asyncio.ensure_future(iterator.__anext__())
    try:
        while True:
            done, _ = await asyncio.wait({pending}, timeout=every)
            if not done:
                yield None
                continue
            try:
                item = pending.result()
            except StopAsyncIteration:
                return
            yield item
            pending = asyncio.ensure_future(iterator.__anext__())
    finally:
        pending.cancel()


def citation_href(citation: Citation, link: Callable[[Source], str | None]) -> str | None:
    """Where clicking the citation goes: deep link, public URL, or a signed download."""
    return citation.deep_link or citation.source.url or link(citation.source)


class AnswerStream:
    """Turns one streamed answer into SSE text, recording the turn in the store."""

    def __init__(
        self, turns: WebTurns, ask: AskRequest, base_url: str, *, heartbeat: float = 15.0
    ) -> None:
        self.turns = turns
        self.ask = ask
        self.base_url = base_url
        self.heartbeat = heartbeat
        self.citation_count = 0

    async def events(self) -> AsyncIterator[str]:
        """The event stream; it always ends with ``done`` or ``error``, and the turn (once
        recorded) ends ``done`` or ``failed`` whatever happens.

        Nothing may escape this generator: once the 200 and its headers are sent, an exception
        would only cut the stream short with no event, and leave the turn ``pending``.
        """
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
            async for event in with_heartbeat(stream, self.heartbeat):
                if event is None:
                    yield HEARTBEAT
                elif isinstance(event, CitationAdded):
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
                    # Built before the turn is stored done: a failure here still fails the turn.
                    payload = turns.payload(event, start, self.base_url, rendered)
                    turns.finish(start.turn_id, event)
                    settled = True
                    self.citation_count = len(event.answer.citations)
                    yield sse_event("done", payload)
                    return
            raise BackendError("the assistant ended without an answer")
        except Exception as exc:
            if start is None:
                log.error("a web stream failed before its turn was recorded", exc_info=exc)
            elif not settled:
                settled = True
                try:
                    turns.fail(start.turn_id, exc)
                except Exception:  # the store too: the viewer still gets the error event
                    log.exception("could not mark web turn %s failed", start.turn_id)
            yield sse_event("error", {"error": public_reason(exc)})
        finally:
            # The client went away (or the server is stopping) before the answer was complete.
            if start is not None and not settled:
                turns.fail(start.turn_id)


def public_reason(exc: Exception) -> str:
    """What a viewer is told when answering failed (never internals)."""
    if isinstance(exc, KnowledgeIndexError):
        return "the knowledge base is not available; ask the operator to run citecast ingest"
    return "the assistant failed to answer; try again"
