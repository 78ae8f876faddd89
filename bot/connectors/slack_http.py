"""The Slack connector's HTTP door: ``POST /slack/events`` and ``/slack/interactions``.

Both URLs are public, and a request's v0 signature can only be checked on its whole body, so:

- a body is read no further than :data:`MAX_REQUEST_BYTES` (413), whatever its declared
  length, and one that is not UTF-8 is refused (400) before slack-bolt sees it (bolt would
  fail on it with a 500 and a traceback);
- a body that is not what Slack sends (not JSON, a JSON array, an ``event`` that is not an
  object, a form whose ``payload`` is not a JSON object) is refused (400) with one log line
  (at the 1st, 2nd, 4th … such request), not handed to bolt, which fails on it with a 500 and
  a traceback;
- slack-bolt checks the signature and the timestamp (401). Its own log line of a refusal
  carries the whole body, so the text of every question Slack sends while the signing secret
  is wrong would land in the log; it is dropped, and replaced by one line that says what to
  check (the signing secret, or the server's clock), logged for the 1st, 2nd, 4th, 8th …
  refusal so that a flood of forged requests cannot flood the log.
"""

from __future__ import annotations

import json
import logging
import time
from urllib.parse import parse_qs

from slack_bolt.adapter.starlette.async_handler import to_async_bolt_request, to_starlette_response
from slack_bolt.app.async_app import AsyncApp
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from bot.connectors.request_body import read_capped

log = logging.getLogger(__name__)

# Slack's largest payloads (an interaction carrying a 50-block message, a 40,000-character
# message with its rich-text blocks) stay far below this.
MAX_REQUEST_BYTES = 10_000_000
# Slack's (and slack-bolt's) bound on a request's age, in seconds.
MAX_REQUEST_AGE = 300
_BOLT_REFUSAL_LOGGER = "slack_bolt.RequestVerification"


class _WithoutBodies(logging.Filter):
    """Drops slack-bolt's refusal line, which logs the request body (see the module doc)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Invalid request signature detected")


_WITHOUT_BODIES = _WithoutBodies()


def malformed(body: str, content_type: str) -> str | None:
    """Why ``body`` is not a request Slack sends (as bolt reads it), or None."""
    if content_type.split(";")[0].strip().lower() == "application/x-www-form-urlencoded":
        payload = parse_qs(body).get("payload")
        if not payload:
            return None  # a slash command: plain form fields
        what = "its payload"
        text = payload[0]
    else:
        what, text = "the body", body
    try:
        data = json.loads(text)
    except ValueError:
        return f"{what} is not JSON"
    if not isinstance(data, dict):
        return f"{what} is not a JSON object"
    if "event" in data and not isinstance(data["event"], dict):
        return f"the event in {what} is not a JSON object"
    return None


class SlackHttpDoor:
    """Hands Slack's HTTP requests to the bolt app, within the limits above."""

    def __init__(self, app: AsyncApp) -> None:
        self._app = app
        self.refused = 0  # requests bolt refused as unsigned or stale (401)
        self.malformed = 0  # requests refused as not shaped as Slack's (400)
        logging.getLogger(_BOLT_REFUSAL_LOGGER).addFilter(_WITHOUT_BODIES)  # once: same filter

    async def handle(self, request: Request) -> Response:
        """Answer one request as Slack expects (bolt's response), or refuse it."""
        body = await read_capped(request, MAX_REQUEST_BYTES)
        if body is None:
            return PlainTextResponse("request body too large", status_code=413)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return PlainTextResponse("request body is not UTF-8", status_code=400)
        problem = malformed(body.decode("utf-8"), request.headers.get("content-type", ""))
        if problem is not None:
            self.malformed += 1
            if not self.malformed & (self.malformed - 1):  # logged at 1, 2, 4, 8 …
                log.warning(
                    "refused a request to %s (HTTP 400, %d so far): %s",
                    request.url.path,
                    self.malformed,
                    problem,
                )
            return PlainTextResponse(f"malformed request: {problem}", status_code=400)
        response = await self._app.async_dispatch(to_async_bolt_request(request, body))
        if response.status == 401:
            self._refusal(request)
        return to_starlette_response(response)

    def _refusal(self, request: Request) -> None:
        self.refused += 1
        if self.refused & (self.refused - 1):
            return  # logged at 1, 2, 4, 8 …
        stamp = request.headers.get("x-slack-request-timestamp", "")
        try:
            skew = time.time() - int(stamp)
        except ValueError:
            skew = None
        if skew is not None and abs(skew) > MAX_REQUEST_AGE:
            why = (
                f"its timestamp is {abs(skew):.0f} s off this server's clock (Slack's requests "
                f"are refused after {MAX_REQUEST_AGE} s): a replayed request, or this server's "
                "clock is wrong"
            )
        else:
            why = (
                "its signature does not match slack.signing_secret: if Slack's own requests "
                "get this, copy the Signing Secret (the app's Basic Information page) into "
                "SLACK_SIGNING_SECRET"
            )
        log.warning(
            "refused a request to %s (HTTP 401, %d so far): %s",
            request.url.path,
            self.refused,
            why,
        )
