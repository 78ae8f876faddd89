"""The slack_sdk Web API client citecast uses, with the retry policy the platform expects.

- HTTP 429: wait exactly what ``Retry-After`` asks (seconds; 1 when absent), then retry.
- HTTP 5xx and connections that could not be made: retry with exponential backoff
  (``retry_backoff_seconds`` doubled per attempt, capped at 30 s). A connection lost mid-request
  is retried the same way, except for :data:`NOT_REPEATABLE` calls (Slack may have run them).
- Both give up after ``max_retries`` retries; the error then surfaces as ``SlackApiError`` (or
  the aiohttp / timeout error) and the connector turns it into :class:`bot.errors.ChannelError`
  at its edge (:func:`as_channel_error`, for everything in :data:`SLACK_CALL_ERRORS`).

A 429 or 5xx is answered by Slack before the method runs, so a retried ``chat.postMessage`` is
still posted exactly once. ``sleep`` is injectable so tests can check the waits without waiting.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from email.utils import parsedate_to_datetime
from typing import Any

from aiohttp import ClientConnectionError, ClientConnectorError, ClientError
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient

from bot.config import SlackSettings
from bot.errors import ChannelError, DeliveryUncertainError, RateLimitedError

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
MAX_BACKOFF_SECONDS = 30.0
# Calls that add something each time they run (a message, streamed text, a shared file).
NOT_REPEATABLE = frozenset(
    {
        "chat.postMessage",
        "chat.postEphemeral",
        "chat.startStream",
        "chat.appendStream",
        "files.completeUploadExternal",
    }
)
# What a Web API call can raise: Slack's answer (SlackApiError), a request slack_sdk refused to
# build (SlackRequestError), a connection that failed or dropped (aiohttp), or the timeout.
SLACK_CALL_ERRORS: tuple[type[Exception], ...] = (SlackClientError, ClientError, TimeoutError)


def retry_after_seconds(headers: dict[str, list[str]] | dict[str, Any]) -> float:
    """The delay a 429 response asks for: ``Retry-After`` seconds or HTTP date; else 1."""
    for name, value in headers.items():
        if name.lower() != "retry-after":
            continue
        raw = value[0] if isinstance(value, list) and value else value
        text = str(raw).strip()
        try:
            return max(0.0, float(text))
        except ValueError:
            pass
        try:
            moment = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return 1.0
        return max(0.0, moment.timestamp() - time.time())
    return 1.0


class RetryAfterHandler(AsyncRetryHandler):
    """Retries HTTP 429 after the ``Retry-After`` delay (no jitter: Slack means what it says)."""

    def __init__(self, max_retry_count: int, sleep: Sleep) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self._sleep = sleep

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        return response is not None and response.status_code == 429

    async def prepare_for_next_attempt_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        state.next_attempt_requested = True
        delay = retry_after_seconds(response.headers if response is not None else {})
        log.info("Slack rate limit on %s; retrying in %.1f s", request.url, delay)
        await self._sleep(delay)
        state.increment_current_attempt()


class ServerErrorBackoffHandler(AsyncRetryHandler):
    """Retries 5xx answers and dropped connections with exponential backoff."""

    def __init__(self, max_retry_count: int, base_seconds: float, sleep: Sleep) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self._base = base_seconds
        self._sleep = sleep

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        if response is not None:
            return response.status_code >= 500
        if isinstance(error, ClientConnectorError):
            return True  # the connection was never made: Slack saw nothing
        # A connection lost mid-request may have lost only Slack's answer: repeating a call
        # that adds something could add it twice, so those surface (DeliveryUncertainError).
        method = request.url.rsplit("/", 1)[-1]
        return isinstance(error, ClientConnectionError) and method not in NOT_REPEATABLE

    async def prepare_for_next_attempt_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        state.next_attempt_requested = True
        delay = min(MAX_BACKOFF_SECONDS, self._base * (2**state.current_attempt))
        status = response.status_code if response is not None else type(error).__name__
        log.info("Slack answered %s for %s; retrying in %.2f s", status, request.url, delay)
        await self._sleep(delay)
        state.increment_current_attempt()


def build_web_client(settings: SlackSettings, sleep: Sleep = asyncio.sleep) -> AsyncWebClient:
    """The bot-token client, pointed at ``api_base_url`` when set (tests, proxies, GovSlack)."""
    kwargs: dict[str, Any] = {}
    if settings.api_base_url:
        base = settings.api_base_url
        kwargs["base_url"] = base if base.endswith("/") else base + "/"
    return AsyncWebClient(
        token=settings.bot_token,
        timeout=int(settings.request_timeout_seconds),
        retry_handlers=[
            RetryAfterHandler(settings.max_retries, sleep),
            ServerErrorBackoffHandler(settings.max_retries, settings.retry_backoff_seconds, sleep),
        ],
        **kwargs,
    )


def error_code(exc: BaseException) -> str:
    """Slack's error string (``feature_not_enabled``, ``ratelimited`` …) or the exception name."""
    if isinstance(exc, SlackApiError):
        response = exc.response
        code = response.get("error") if hasattr(response, "get") else None
        if isinstance(code, str) and code:
            return code
        status = getattr(response, "status_code", None)
        return f"http_{status}" if status else "slack_api_error"
    return type(exc).__name__


def as_channel_error(exc: BaseException, what: str) -> ChannelError:
    """Our error for a failed Slack call (one of :data:`SLACK_CALL_ERRORS`).

    RateLimitedError when Slack still said 429. DeliveryUncertainError when the request may
    have reached Slack without its answer reaching us: a timeout, or a connection lost after
    it was made. Only a connection that could not be made at all (ClientConnectorError) or an
    answer from Slack is sure to have changed nothing.
    """
    if isinstance(exc, SlackApiError) and getattr(exc.response, "status_code", None) == 429:
        headers = getattr(exc.response, "headers", {}) or {}
        return RateLimitedError(f"Slack {what}: rate limited", retry_after_seconds(headers))
    message = f"Slack {what} failed: {error_code(exc)}"
    if isinstance(exc, TimeoutError | ClientError) and not isinstance(exc, ClientConnectorError):
        return DeliveryUncertainError(message)
    return ChannelError(message)
