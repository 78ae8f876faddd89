"""The fake Slack's Socket Mode side: the WebSocket that ``apps.connections.open`` points to.

The server sends ``hello`` on connect; ``send_envelope()`` pushes an ``events_api`` (or
``interactive``) envelope to the newest connection and ``wait_ack()`` returns the client's ack.
Mixed into :class:`tests.fakes.slack_api.FakeSlackAPI`, which serves ``/socket``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

Json = dict[str, Any]


@dataclass
class _Envelope:
    ack: asyncio.Future[Json]


class FakeSocketMode:
    """Socket Mode envelopes and acks over the fake's WebSocket."""

    def _init_socket_mode(self) -> None:
        self._envelope_ids = itertools.count(1)
        self._envelopes: dict[str, _Envelope] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._socket_ready = asyncio.Event()

    async def wait_socket_connected(self, timeout: float = 10.0) -> None:
        """Wait until a Socket Mode client has connected and received ``hello``."""
        await asyncio.wait_for(self._socket_ready.wait(), timeout)

    async def send_envelope(
        self, payload: Json, envelope_type: str = "events_api", retry_attempt: int = 0
    ) -> str:
        """Push an envelope to the connected client; returns its envelope_id."""
        envelope_id = f"env-{next(self._envelope_ids)}"
        loop = asyncio.get_running_loop()
        self._envelopes[envelope_id] = _Envelope(ack=loop.create_future())
        message = {
            "envelope_id": envelope_id,
            "type": envelope_type,
            "payload": payload,
            "accepts_response_payload": envelope_type != "events_api",
            "retry_attempt": retry_attempt,
            "retry_reason": "timeout" if retry_attempt else "",
        }
        await self._sockets[-1].send_str(json.dumps(message))
        return envelope_id

    async def wait_ack(self, envelope_id: str, timeout: float = 10.0) -> Json:
        """The ack the client sent for an envelope."""
        return await asyncio.wait_for(self._envelopes[envelope_id].ack, timeout)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        hello = {
            "type": "hello",
            "num_connections": len(self._sockets),
            "connection_info": {"app_id": "A0APP"},
            "debug_info": {"host": "fake-slack", "approximate_connection_time": 3600},
        }
        await ws.send_str(json.dumps(hello))
        self._socket_ready.set()
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            envelope = self._envelopes.get(str(data.get("envelope_id")))
            if envelope is not None and not envelope.ack.done():
                envelope.ack.set_result(data)
        self._sockets.remove(ws)
        return ws
