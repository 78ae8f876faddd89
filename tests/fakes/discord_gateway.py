"""The fake Discord's gateway websocket: HELLO, heartbeats, IDENTIFY, RESUME and dispatches.

A tiny but real gateway: it sends HELLO, answers heartbeats, receives IDENTIFY (its intents are
recorded; one asking for an intent outside ``allowed_intents`` is closed with 4014, like a
Message Content intent not enabled in the Developer Portal), then dispatches READY and one
GUILD_CREATE per guild. :meth:`FakeGateway.reconnect` asks the clients to reconnect (op 7, as
Discord does when it moves a session); a client that then RESUMEs (op 6) gets every event
dispatched after the sequence number it sends, the ones dispatched while it was away included,
then RESUMED, as on Discord; with ``refuse_resumes`` set it answers a RESUME with op 9 Invalid
Session (``d: false``), as Discord does when the session cannot be resumed: the client
IDENTIFYs again and gets a new session (READY), and what was dispatched meanwhile is lost.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes.discord_world import DiscordWorld

ALL_INTENTS = (1 << 26) - 1
MESSAGE_CONTENT_INTENT = 1 << 15
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME, OP_RECONNECT = 0, 1, 2, 6, 7
OP_INVALID_SESSION = 9
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11


class FakeGateway(DiscordWorld):
    """The world's events sent over a websocket to the identified (or resumed) clients."""

    port: int

    def __init__(self) -> None:
        super().__init__()
        self.identify: dict[str, Any] | None = None
        # intents the application may use; clear MESSAGE_CONTENT to model the Portal switch off
        self.allowed_intents = ALL_INTENTS
        self.resumes = 0
        self.refuse_resumes = False
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self._dispatched: list[tuple[int, str]] = []  # (seq, frame): what a RESUME replays
        self._identified = asyncio.Event()
        self._resumed = asyncio.Event()

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def wait_identified(self) -> None:
        await self._identified.wait()

    async def wait_resumed(self) -> None:
        """Until a client has resumed its session since the last :meth:`reconnect`."""
        await self._resumed.wait()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH event to every connected client (kept for a later RESUME)."""
        seq = next(self._seq)
        frame = json.dumps({"op": OP_DISPATCH, "t": event, "s": seq, "d": data})
        self._dispatched.append((seq, frame))
        for ws in list(self._sockets):
            await ws.send_str(frame)

    async def reconnect(self) -> None:
        """Tell every client to reconnect and resume (op 7); events wait for the RESUME."""
        self._resumed.clear()
        sockets, self._sockets = list(self._sockets), []
        for ws in sockets:
            await ws.send_str(json.dumps({"op": OP_RECONNECT, "d": None}))

    async def close_sockets(self) -> None:
        for ws in list(self._sockets):
            await ws.close()

    async def serve_gateway(self, request: web.Request) -> web.WebSocketResponse:
        """The ``/gateway`` websocket handler."""
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": 45_000}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            op = frame.get("op")
            if op == OP_HEARTBEAT:
                await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK}))
            elif op == OP_IDENTIFY:
                self.identify = frame["d"]
                if int(frame["d"].get("intents", 0)) & ~self.allowed_intents:
                    # Discord closes the session when the app may not use a privileged intent
                    await ws.close(code=4014, message=b"Disallowed intent(s).")
                    break
                self._sockets.append(ws)
                await self._send_ready(ws)
                self._identified.set()
            elif op == OP_RESUME and self.refuse_resumes:
                self._dispatched.clear()  # the session is gone, and its events with it
                await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            elif op == OP_RESUME:
                await self._resume(ws, int(frame["d"].get("seq") or 0))
        if ws in self._sockets:
            self._sockets.remove(ws)
        return ws

    async def _resume(self, ws: web.WebSocketResponse, seq: int) -> None:
        for number, frame in list(self._dispatched):
            if number > seq:
                await ws.send_str(frame)
        self._sockets.append(ws)
        resumed = {"op": OP_DISPATCH, "t": "RESUMED", "s": next(self._seq), "d": {}}
        await ws.send_str(json.dumps(resumed))
        self.resumes += 1
        self._resumed.set()

    async def _send_ready(self, ws: web.WebSocketResponse) -> None:
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(gid), "unavailable": True} for gid in self.guilds],
            "session_id": "fake-session",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": self.bot_user["id"], "flags": 0},
        }
        frame = {"op": OP_DISPATCH, "t": "READY", "s": next(self._seq), "d": ready}
        await ws.send_str(json.dumps(frame))
        for guild in self.guilds.values():
            frame = {"op": OP_DISPATCH, "t": "GUILD_CREATE", "s": next(self._seq), "d": guild}
            await ws.send_str(json.dumps(frame))
