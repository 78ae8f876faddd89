"""The fake Slack's ``response_url``s, as slash commands and button clicks carry them.

Slack gives each command and each click a URL of its own, and takes at most five messages
through it (within 30 minutes; its interactivity docs); a sixth is refused (404 ``used_url``).
``response_url(key)`` hands out a fresh one each time; every message that arrives through it is
kept in ``responses`` with its ``key`` (``"command"``, ``"click"``), after the same checks a
message's blocks get.
"""

from __future__ import annotations

import itertools

from aiohttp import web

from tests.fakes.slack_blocks import validate_blocks
from tests.fakes.slack_methods import Json, invalid_blocks_error

# Slack takes at most five messages through one response_url (within 30 minutes)
RESPONSE_URL_USES = 5


class FakeResponseUrls:
    """The ``/response/{key}/{n}`` routes of the fake (``port`` is the fake's)."""

    port: int
    responses: list[Json]

    def _init_response_urls(self) -> None:
        self.responses = []
        self._response_urls = itertools.count(1)
        self._response_uses: dict[str, int] = {}  # messages taken through each URL

    def response_url(self, key: str) -> str:
        """A fresh ``response_url`` served by the fake; what arrives through it is kept in
        ``responses`` under ``key``."""
        return f"http://127.0.0.1:{self.port}/response/{key}/{next(self._response_urls)}"

    async def _response(self, request: web.Request) -> web.Response:
        uses = self._response_uses.get(request.path, 0)
        if uses >= RESPONSE_URL_USES:
            return web.Response(status=404, text="used_url")
        self._response_uses[request.path] = uses + 1
        body = await request.json()
        problems = validate_blocks(body["blocks"]) if "blocks" in body else []
        if problems or not (body.get("text") or body.get("blocks")):
            error = "no_text" if not problems else invalid_blocks_error(problems)["error"]
            return web.Response(status=400, text=str(error))
        self.responses.append({"key": request.match_info["key"], **body})
        return web.Response(status=200, text="ok")
