"""A fake Slack Web API and Socket Mode server on 127.0.0.1, for driving the real slack_sdk.

``FakeSlackAPI`` is an aiohttp server bound to an ephemeral loopback port. Point
``AsyncWebClient(base_url=fake.base_url)`` at it. It implements the methods citecast uses
(their handlers are in tests/fakes/slack_methods.py), records every call (``calls``), keeps the
messages it accepted per channel and thread, answers ``conversations.replies`` in pages as Slack
does (oldest first; ``limit``, ``cursor``, ``response_metadata.next_cursor``, ``oldest`` and
``inclusive``), stamps messages with the wall clock as Slack does (``ts``), and enforces
Slack's limits with Slack's error shapes (``{"ok": false, "error": "invalid_blocks"}``,
``msg_blocks_too_long``, ``msg_too_long``, ``no_text``, ``message_not_in_streaming_state`` …), so a
payload Slack would reject fails here too.

Scriptable failures: ``fail(method, status=429, retry_after=2)``, ``fail(method, status=500)``,
``fail(method, error="feature_not_enabled", times=None)``. Lost answers: ``fail(method,
drop=True)`` closes the connection without a response and ``fail(method, hang=3.0)`` answers only
after ``hang`` seconds (past the client's timeout), both before running the method, or after it
with ``processed=True`` (Slack took the call, only its answer was lost). ``close_stream_after =
n`` closes a native stream after ``n`` accepted appends. The assistant status of each thread is
kept (``status()``) and, as in Slack, removed when the bot posts or starts a stream there.
``FakeSlackAPI(reachable=False)`` refuses every connection (its port is held, not listened on)
until ``come_up()``. ``delete_message()`` deletes a person's message as Slack does (a reply to
a question deleted without replies lands outside any thread).
The workspace (``auth.test``, channels, people, messages; Enterprise Grid and org-wide installs)
is declared through tests/fakes/slack_workspace.py.
Socket Mode: ``apps.connections.open`` returns the server's ``ws://`` URL; the server sends
``hello`` on connect, ``send_envelope()`` pushes an ``events_api`` (or ``interactive``) envelope
and ``wait_ack()`` returns the client's ack (tests/fakes/slack_socket.py).
``response_url(key)`` hands out a fresh URL, which takes five messages
(tests/fakes/slack_responses.py); what arrived through it is in ``responses``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import itertools
import json
import socket
import time
from dataclasses import dataclass

from aiohttp import web

from tests.fakes.slack_methods import FakeSlackState, Json, SlackWebMethods
from tests.fakes.slack_responses import RESPONSE_URL_USES as RESPONSE_URL_USES
from tests.fakes.slack_responses import FakeResponseUrls
from tests.fakes.slack_socket import FakeSocketMode
from tests.fakes.slack_workspace import SlackWorkspaceScript

BOT_SCOPES = (
    "app_mentions:read",
    "chat:write",
    "channels:history",
    "groups:history",
    "im:history",
    "channels:read",
    "groups:read",
    "users:read",
    "users:read.email",
    "usergroups:read",
    "files:write",
    "assistant:write",
)


@dataclass(frozen=True)
class SlackCall:
    """One request the fake received: method, merged arguments, HTTP status and response."""

    method: str
    args: Json
    status: int
    response: Json
    token: str | None


@dataclass
class Failure:
    """A scripted failure for one method; ``times=None`` repeats it for every call."""

    status: int = 200
    error: str | None = None
    retry_after: int | None = None
    times: int | None = 1
    after: int = 0
    drop: bool = False
    hang: float | None = None
    processed: bool = False
    fields: Json | None = None


def slack_signature_headers(
    secret: str, body: bytes, timestamp: int | None = None, retry_num: int | None = None
) -> dict[str, str]:
    """Headers Slack sends with an HTTP event: the v0 HMAC-SHA256 signature of ``body``."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    base = b"v0:" + ts.encode() + b":" + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    headers = {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": f"v0={digest}"}
    if retry_num is not None:
        headers["X-Slack-Retry-Num"] = str(retry_num)
        headers["X-Slack-Retry-Reason"] = "http_timeout"
    return headers


class FakeSlackAPI(SlackWebMethods, SlackWorkspaceScript, FakeSocketMode, FakeResponseUrls):
    """The fake; use as ``async with FakeSlackAPI() as fake:``."""

    def __init__(
        self,
        *,
        bot_token: str = "xoxb-test-token",
        app_token: str = "xapp-test-token",
        team_id: str = "T0TEAM",
        bot_user_id: str = "U0BOT",
        bot_id: str = "B0BOT",
        enterprise_id: str | None = None,
        org_install: bool = False,
        reachable: bool = True,
    ) -> None:
        self.bot_token = bot_token
        self.app_token = app_token
        self.team_id = team_id
        # Enterprise Grid: the organisation, and whether the app is installed on all of it
        # (tests/fakes/slack_workspace.py)
        self.enterprise_id = enterprise_id
        self.org_install = org_install
        self.bot_user_id = bot_user_id
        self.bot_id = bot_id
        self.state = FakeSlackState()
        self.calls: list[SlackCall] = []
        # the bot token's scopes, sent as Slack does (``x-oauth-scopes``); an upload without
        # files:write is refused with missing_scope
        self.scopes: list[str] = list(BOT_SCOPES)
        self.streaming_error: str | None = None
        self.close_stream_after: int | None = None
        # False: chat.postMessage's answer leaves thread_ts out of the message it echoes
        self.echo_thread_ts = True
        self._failures: dict[str, list[Failure]] = {}
        self._last_ts = 0  # microseconds of the newest ts handed out
        self._file_ids = itertools.count(1)
        self._init_response_urls()
        self._init_socket_mode()
        self._runner: web.AppRunner | None = None
        self._sock: socket.socket | None = None
        self._reachable = reachable
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> FakeSlackAPI:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Bind to 127.0.0.1 on an ephemeral port and serve (unless made ``reachable=False``:
        then the port is held without listening, so every connection is refused, as by a
        Slack that cannot be reached, until :meth:`come_up`)."""
        app = web.Application(client_max_size=200_000_000)
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_get("/socket", self._socket)
        app.router.add_post("/response/{key}", self._response)
        app.router.add_post("/response/{key}/{url}", self._response)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        if self._reachable:
            await self.come_up()

    async def come_up(self) -> None:
        """Start serving on the port held since :meth:`start` (Slack is reachable again)."""
        assert self._runner is not None and self._sock is not None
        self._reachable = True
        await web.SockSite(self._runner, self._sock).start()

    async def stop(self) -> None:
        """Close every WebSocket and the server."""
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._sock is not None and not self._reachable:
            self._sock.close()  # held, never served: the runner does not own it

    @property
    def base_url(self) -> str:
        """What to pass as ``AsyncWebClient(base_url=…)``."""
        return f"http://127.0.0.1:{self.port}/api/"

    # -- scripting failures ----------------------------------------------------------------

    def fail(
        self,
        method: str,
        *,
        status: int = 200,
        error: str | None = None,
        retry_after: int | None = None,
        times: int | None = 1,
        after: int = 0,
        drop: bool = False,
        hang: float | None = None,
        processed: bool = False,
        fields: Json | None = None,
    ) -> None:
        """Make ``times`` calls of ``method`` fail (``None``: every call), ``after`` good ones.

        ``fields`` go into the error answer beside ``error`` (``{"needed": "chat:write"}``).
        """
        failure = Failure(
            status=status,
            error=error,
            retry_after=retry_after,
            times=times,
            after=after,
            drop=drop,
            hang=hang,
            processed=processed,
            fields=fields,
        )
        self._failures.setdefault(method, []).append(failure)

    def recover(self, method: str) -> None:
        """Forget the failures still scripted for ``method`` (e.g. ``times=None`` ones)."""
        self._failures.pop(method, None)

    # -- inspecting what happened ------------------------------------------------------------

    def calls_to(self, method: str, *, ok_only: bool = False) -> list[SlackCall]:
        """The recorded calls of one method, in order."""
        return [
            c
            for c in self.calls
            if c.method == method and (not ok_only or c.response.get("ok") is True)
        ]

    def bot_messages(self, channel: str, thread_ts: str | None = None) -> list[Json]:
        """Messages the bot posted (and that Slack accepted) in a channel or thread."""
        return [
            m
            for m in self.state.messages.get(channel, [])
            if m.get("bot_id") == self.bot_id
            and (thread_ts is None or m.get("thread_ts") == thread_ts)
        ]

    def status(self, channel: str, thread_ts: str) -> str:
        """The assistant status shown under a thread now ("" when none): what
        ``assistant.threads.setStatus`` last set, removed when the bot replies there."""
        return self.state.statuses.get((channel, thread_ts), "")

    def everything_sent(self) -> str:
        """Every argument of every call, as one JSON string (for "nothing private leaked")."""
        return json.dumps([c.args for c in self.calls], ensure_ascii=False)

    # -- HTTP plumbing -----------------------------------------------------------------------

    async def _read_args(self, request: web.Request) -> Json:
        args: Json = dict(request.query)
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                args.update(body)
        elif request.can_read_body:
            form = await request.post()
            args.update({k: v for k, v in form.items() if isinstance(v, str)})
        for key in ("blocks", "chunks", "files", "prompts", "metadata"):
            if isinstance(args.get(key), str):
                with contextlib.suppress(ValueError):
                    args[key] = json.loads(args[key])
        return args

    def _scripted_failure(self, method: str) -> Failure | None:
        queue = self._failures.get(method) or []
        if not queue:
            return None
        failure = queue[0]
        if failure.after > 0:
            failure.after -= 1
            return None
        if failure.times is not None:
            failure.times -= 1
            if failure.times <= 0:
                queue.pop(0)
        return failure

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args = await self._read_args(request)
        auth = request.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else args.get("token")
        failure = self._scripted_failure(method)
        headers: dict[str, str] = {}
        if failure is not None and (failure.drop or failure.hang is not None):
            return await self._lose_answer(request, method, args, token, failure)
        if failure is not None and failure.status != 200:
            status = failure.status
            body: Json = {"ok": False, "error": "ratelimited" if status == 429 else "fatal_error"}
            if failure.retry_after is not None:
                headers["Retry-After"] = str(failure.retry_after)
        elif failure is not None:
            body = {"ok": False, "error": failure.error or "fatal_error", **(failure.fields or {})}
            status = 200
        elif method == "files.getUploadURLExternal" and "files:write" not in self.scopes:
            status = 200
            body = {"ok": False, "error": "missing_scope", "needed": "files:write"}
            body["provided"] = ",".join(self.scopes)
        else:
            status, body = 200, self._dispatch(method, args, token)
        headers["X-OAuth-Scopes"] = ",".join(self.scopes)
        self.calls.append(SlackCall(method, args, status, body, token))
        return web.json_response(body, status=status, headers=headers)

    async def _lose_answer(
        self, request: web.Request, method: str, args: Json, token: str | None, failure: Failure
    ) -> web.Response:
        """Drop the connection or answer too late, having run the method or not."""
        body: Json = {"ok": False, "error": "answer_lost"}
        if failure.processed:
            body = self._dispatch(method, args, token)
        # status 0: the client never saw an answer
        self.calls.append(SlackCall(method, args, 0, body, token))
        if failure.drop:
            assert request.transport is not None
            request.transport.close()
        else:
            await asyncio.sleep(failure.hang or 0.0)
        return web.json_response(body)

    async def _upload(self, request: web.Request) -> web.Response:
        file_id = request.match_info["file_id"]
        upload = self.state.uploads.get(file_id)
        if upload is None:
            return web.Response(status=404, text="unknown upload")
        data = await request.read()
        if len(data) != upload["length"]:
            return web.Response(status=400, text="length mismatch")
        upload["data"] = data
        return web.Response(status=200, text=f"OK - {len(data)}")
