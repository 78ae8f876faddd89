"""The web channel: chat page, embeddable widget, REST + SSE API, signed file downloads.

Routes (all JSON errors are ``{"error": reason}``):

- ``GET /`` the chat page; ``GET /widget.js`` the embeddable widget; ``/static/*`` its assets.
- ``POST /api/ask`` ``{question, conversation_id?}`` -> ``{answer, html, citations,
  conversation_id, turn_id, share_url, small_talk}`` (``small_talk``: the reply to a greeting,
  thanks or goodbye, which cites nothing and is not there to be rated; see ``small_talk``).
- ``GET /api/ask/stream?question=…&conversation_id=…`` server-sent events (see ``web_sse``).
- ``GET /api/conversations/{id}`` the stored turns of a web conversation, re-rendered, each
  answer with its vote (an answer still being written is ``pending``): the latest page of
  them, ``earlier`` true when older ones are left, asked for with ``?before={turn_id}``
  (see ``web_conversation_page``).
- ``POST /api/feedback`` ``{conversation_id, turn_id, value}`` -> ``{recorded, vote}``: a
  helpful / not helpful vote, once per answer (``vote`` is the one that stands).
- ``GET /files/{token}`` a cited file, through a signed, expiring token (see ``filetokens``).
- ``GET /turns/{key}`` the full answer and source list of a turn; ``key`` is the turn id plus its
  HMAC, as in the ``share_url`` of an answer (see ``web_turn_page``).
- ``GET /healthz`` liveness, and ``GET /api/config`` the limits the page enforces up front
  (refused, as the API is, to a site not in ``web.cors_origins``).

The viewer's audience is ``web.audience`` (default ``public``): the answerer is asked for that
audience and an answer citing anything else is refused, never shown. Every route first refuses
a ``Host`` this deployment does not answer to (``web.allowed_hosts``, see ``web_hosts``).
The links a response carries start with ``web.public_base_url``, else with the address the
request came to plus the path prefix a trusted reverse proxy forwarded (see ``web_proxy``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import BaseRoute, Mount, Route

from bot.connectors.small_talk import is_small_talk_reply
from bot.connectors.web_api import (
    UnknownConversationError,
    error_response,
    parse_ask,
    parse_ask_query,
    parse_feedback,
    read_json_body,
    status_for,
)
from bot.connectors.web_asset_versions import STATIC_DIR
from bot.connectors.web_assets import RevalidatedStaticFiles
from bot.connectors.web_chat_page import chat_page
from bot.connectors.web_conversation_page import conversation_page, parse_before
from bot.connectors.web_files import served_file
from bot.connectors.web_headers import NO_STORE, PAGE_HEADERS, STREAM_HEADERS, TURN_PAGE_HEADERS
from bot.connectors.web_hosts import HostCheck, host_policy
from bot.connectors.web_origins import SiteCheck
from bot.connectors.web_proxy import request_base_url
from bot.connectors.web_rate_limit import QuestionRateLimit, client_key
from bot.connectors.web_roots import build_signer
from bot.connectors.web_sse import (
    RESTARTING,
    AnswerStream,
    public_headers,
    public_reason,
    public_status,
)
from bot.connectors.web_turn_failures import log_store_failure
from bot.connectors.web_turn_page import (
    load_answer,
    missing_file_page,
    missing_page,
    turn_page,
)
from bot.connectors.web_turns import WebTurns
from bot.connectors.web_viewer_links import IndexedFiles
from bot.connectors.web_viewer_renders import ViewerRenders
from bot.connectors.web_widget_script import widget_script
from bot.errors import StoreError, ValidationError
from bot.filetokens import FileSigner
from bot.runtime import Services

log = logging.getLogger(__name__)


class WebConnector:
    """The always-on web channel (routes only; nothing runs in the background)."""

    name = "web"

    def __init__(self, services: Services, *, shutdown_grace: float = 10.0) -> None:
        self.services = services
        self.settings = services.settings.web
        signer = services.signer if isinstance(services.signer, FileSigner) else None
        self.signer = signer or build_signer(services.settings)
        self.turns = WebTurns(services, self.signer)
        # the viewer page links the indexed files its document links (web_viewer_links)
        self.indexed_files = IndexedFiles.of(services.settings.index)
        # the reading page's Markdown, rendered off the event loop, once per file version
        self.viewer_renders = ViewerRenders()
        self.rate_limit = QuestionRateLimit(self.settings.rate_limit_per_minute)
        self.shutdown_grace = shutdown_grace
        self.language = services.settings.assistant.language
        self._page_html = chat_page(self.settings.title, self.settings.subtitle, self.language)
        self._widget = widget_script()
        self.sites = SiteCheck(self.settings)

    def routes(self) -> list[BaseRoute]:
        """The web routes, mounted at the root of the app.

        Each refuses a ``Host`` outside ``web.allowed_hosts`` (see ``web_hosts``) first.
        """
        policy = host_policy(
            self.settings.allowed_hosts, self.settings.public_base_url, self.settings.host
        )
        checked = [Middleware(HostCheck, policy=policy)]
        pages = [
            ("/", self.page, "GET"),
            ("/widget.js", self.widget, "GET"),
            ("/healthz", self.health, "GET"),
            ("/api/config", self.config, "GET"),
            ("/api/ask", self.ask, "POST"),
            ("/api/ask/stream", self.ask_stream, "GET"),
            ("/api/conversations/{conversation_id}", self.conversation, "GET"),
            ("/api/feedback", self.feedback, "POST"),
            ("/files/{token}", self.files, "GET"),
            ("/turns/{key}", self.turn, "GET"),
        ]
        routes: list[BaseRoute] = [
            Route(path, endpoint, methods=[method], middleware=checked)
            for path, endpoint, method in pages
        ]
        static = RevalidatedStaticFiles(directory=STATIC_DIR)
        routes.append(Mount("/static", app=static, name="static", middleware=checked))
        return routes

    async def start(self) -> None:
        """Nothing to start: the web channel is request-driven."""

    async def stop(self) -> None:
        """Let in-flight answers finish (up to the grace period); the rest are marked failed."""
        unfinished = await self.turns.drain(self.shutdown_grace)
        if unfinished:
            log.warning("%d web answers still running at shutdown were stored failed", unfinished)

    # -- pages -------------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        return HTMLResponse(self._page_html, headers=PAGE_HEADERS)

    async def widget(self, request: Request) -> Response:
        # conditional: every page view on every embedding site asks for it (see web_assets)
        return self._widget.response(request.headers)

    async def health(self, request: Request) -> Response:
        return JSONResponse({"status": "ok", "in_flight": self.turns.in_flight}, headers=NO_STORE)

    async def config(self, request: Request) -> Response:
        # refused like the rest of the API: the widget on a site missing from cors_origins
        # then says so when it opens, not only once a question fails (and the site is logged)
        if not self.origin_allowed(request):
            return error_response("this site may not use the citecast API", 403)
        return JSONResponse(
            {
                "max_question_chars": self.settings.max_question_chars,
                "title": self.settings.title,
                "subtitle": self.settings.subtitle,
                "suggested_prompts": self.settings.suggested_prompts,
                # the page gives up on a stream silent for three heartbeats
                "sse_heartbeat": self.settings.sse_heartbeat,
                # the widget's questions and answers are in this language, not the host page's
                "language": self.language,
            }
        )

    # -- API ---------------------------------------------------------------------------------

    def origin_allowed(self, request: Request) -> bool:
        """False for a browser request from a site that is not us and not in cors_origins.

        CORS only stops a foreign page from *reading* the answer; this also stops it from
        making us do the work (and store the turn) in the first place (see ``web_origins``).
        """
        return self.sites.allowed(request)

    def too_many(self, request: Request) -> Response | None:
        """The 429 for a client over ``web.rate_limit_per_minute``, else None (counted)."""
        client = client_key(request.client.host) if request.client else "unknown"
        wait = self.rate_limit.wait_seconds(client)
        if not wait:
            return None
        response = error_response(f"too many questions; try again in {wait} s", 429)
        response.headers["Retry-After"] = str(wait)
        return response

    async def ask(self, request: Request) -> Response:
        if not self.origin_allowed(request):
            return error_response("this site may not use the citecast API", 403)
        try:
            body = await read_json_body(
                request, self.settings.max_body_bytes, carrying="the question"
            )
            ask = parse_ask(body, self.settings.max_question_chars)
            self._check_conversation(ask.conversation_id)
        except ValidationError as exc:
            return error_response(str(exc), status_for(exc))
        refused = self.too_many(request)
        if refused is not None:
            return refused
        turns = self.turns
        try:
            history = turns.history(ask.conversation_id) if ask.conversation_id else []
            start = turns.begin(ask.question, ask.conversation_id)
        except StoreError as exc:  # a full disk, a damaged store: one line, as for any answer
            log_store_failure("question not answered", exc)
            return error_response(public_reason(exc), public_status(exc))
        try:
            # a task of its own, as a streamed answer is: a shutdown outlasting the grace period
            # cancels it (WebTurns.drain), and this request can still answer with the reason
            asking = self.services.assistant.reply(ask.question, turns.audience, history)
            reply = await turns.spawn(asking)
            turns.check_audience(reply.answer)
            base = request_base_url(request)
            # the share rule may read every earlier answer (the first question after a restart)
            payload = await asyncio.to_thread(turns.payload, reply, start, base)
            turns.finish(start.turn_id, reply)
        except Exception as exc:
            # Any failure, expected or a bug, is a JSON 502 or 503 and a failed turn, never a
            # bare 500; the log has the full reason.
            turns.fail(start.turn_id, exc)
            return error_response(public_reason(exc), public_status(exc), public_headers(exc))
        except asyncio.CancelledError:
            turns.fail(start.turn_id)
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # this request itself was cancelled: nothing can be sent
            return error_response(RESTARTING, 503)
        except BaseException:
            turns.fail(start.turn_id)
            raise
        request.state.citations = len(reply.answer.citations)
        return JSONResponse(payload, headers=NO_STORE)

    async def ask_stream(self, request: Request) -> Response:
        if not self.origin_allowed(request):
            return error_response("this site may not use the citecast API", 403)
        try:
            ask = parse_ask_query(request, self.settings.max_question_chars)
            self._check_conversation(ask.conversation_id)
        except ValidationError as exc:
            return error_response(str(exc), status_for(exc))
        if request.method == "HEAD":
            # Starlette routes HEAD to GET handlers and iterates a streaming body even then:
            # a link checker or prefetcher would have the question answered and stored.
            return Response(media_type="text/event-stream", headers=STREAM_HEADERS)
        refused = self.too_many(request)
        if refused is not None:
            return refused
        stream = AnswerStream(
            self.turns, ask, request_base_url(request), heartbeat=self.settings.sse_heartbeat
        )

        async def body() -> AsyncIterator[str]:
            try:
                async for chunk in stream.events():
                    yield chunk
            finally:
                request.state.citations = stream.citation_count

        return StreamingResponse(body(), media_type="text/event-stream", headers=STREAM_HEADERS)

    async def conversation(self, request: Request) -> Response:
        if not self.origin_allowed(request):
            return error_response("this site may not use the citecast API", 403)
        raw = request.path_params["conversation_id"]
        try:
            parse_ask({"question": "-", "conversation_id": raw}, 1)
            before = parse_before(request.query_params.getlist("before"))
        except ValidationError as exc:
            return error_response(str(exc), 400)
        if not self.turns.exists(raw):
            return error_response("unknown conversation", 404)
        # in a worker thread: the first load of a long conversation reads every earlier answer
        # for the share rule, and the event loop must go on serving other requests meanwhile
        page = await asyncio.to_thread(
            conversation_page, self.turns, raw, before, request_base_url(request)
        )
        return JSONResponse(page, headers=NO_STORE)

    async def feedback(self, request: Request) -> Response:
        if not self.origin_allowed(request):
            return error_response("this site may not use the citecast API", 403)
        try:
            body = await read_json_body(request, self.settings.max_body_bytes, carrying="the vote")
            vote = parse_feedback(body)
        except ValidationError as exc:
            return error_response(str(exc), status_for(exc))
        recorded = self.turns.vote(vote.conversation_id, vote.turn_id, vote.value)
        if recorded is None:
            return error_response("no such answer in this conversation", 404)
        # the answer's one vote: this one, or the earlier one that stands
        vote_now = self.turns.stored_vote(vote.turn_id)
        return JSONResponse({"recorded": recorded, "vote": vote_now}, headers=NO_STORE)

    async def turn(self, request: Request) -> Response:
        # in a worker thread, as the conversation endpoint: the share rule reads every earlier
        # answer of the conversation (and the key's check reads its turn's stamp)
        key, base_url = str(request.path_params["key"]), request_base_url(request)
        page = await asyncio.to_thread(self._shared_page, key, base_url)
        if page is None:
            if "text/html" in request.headers.get("accept", ""):
                # a person who followed a stale or cut link: a page, not a JSON error
                missing = missing_page(self.settings.title)
                return HTMLResponse(missing, status_code=404, headers=TURN_PAGE_HEADERS)
            return error_response("not found", 404)
        return HTMLResponse(page, headers=TURN_PAGE_HEADERS)

    def _shared_page(self, key: str, base_url: str) -> str | None:
        """The share page of the turn ``key`` was made for, or None when it shows no answer."""
        turn_id = self.signer.turn_id_for(key)
        loaded = None if turn_id is None else load_answer(self.services.store, turn_id)
        # the conversation's earlier answers were the model's history: what they say counts,
        # all of them however long it is, and a cited knowledge-base file counts as the index
        # has it now (made private since)
        answer = None if loaded is None else self.turns.shared_answer(loaded)
        if loaded is None or answer is None:
            return None
        rendered = self.turns.render(answer, base_url)
        small = is_small_talk_reply(loaded.question, answer)
        return turn_page(str(rendered.get("html", "")), self.settings.title, small_talk=small)

    async def files(self, request: Request) -> Response:
        # ``?download=1``: the file's own bytes, always as an attachment (the viewer page's link)
        download = request.query_params.get("download") == "1"
        token = str(request.path_params.get("token", ""))
        response = await served_file(
            self.signer,
            token,
            download=download,
            files=self.indexed_files,
            renders=self.viewer_renders,
            language=self.language,
        )
        if response.status_code == 404 and "text/html" in request.headers.get("accept", ""):
            # a person who clicked a source long after the answer (the link expired): a page
            # saying how to get a fresh link, not a JSON error; the same for every refusal
            page = missing_file_page(self.settings.title)
            return HTMLResponse(page, status_code=404, headers=TURN_PAGE_HEADERS)
        return response

    def _check_conversation(self, conversation_id: str | None) -> None:
        if conversation_id is not None and not self.turns.exists(conversation_id):
            raise UnknownConversationError("unknown conversation_id; start a new conversation")


# STATIC_DIR: where /static/* is served from, as tests serving the same files import it
__all__ = ["STATIC_DIR", "WebConnector"]
