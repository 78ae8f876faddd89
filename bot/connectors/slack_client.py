"""The slack_sdk Web API client citecast uses, with the retry policy the platform expects.

- HTTP 429: wait exactly what ``Retry-After`` asks (seconds; 1 when absent), then retry; a
  longer wait than ``retry_max_seconds`` is not waited here (the answer goes to the outbox).
- HTTP 5xx and connections that could not be made: retry with exponential backoff
  (``retry_backoff_seconds`` doubled per attempt, capped at 30 s). A connection lost mid-request
  is retried the same way, except for :data:`NOT_REPEATABLE` calls (Slack may have run them).
- Both give up after ``max_retries`` retries; the error then surfaces as ``SlackApiError`` (or
  the aiohttp / timeout error) and the connector turns it into :class:`bot.errors.ChannelError`
  at its edge (:func:`as_channel_error`, for everything in :data:`SLACK_CALL_ERRORS`).

Each retry is one INFO line saying why and how long it waits (slack_sdk's own "A retry handler
found" line for it is filtered out). A 429 or 5xx is answered by Slack before the method runs,
so a retried ``chat.postMessage`` is still posted exactly once. ``sleep`` is injectable so tests
can check the waits without waiting.
"""

from __future__ import annotations

import asyncio
import logging
import math
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
# The logger slack_sdk's AsyncWebClient uses by default, named here so its filter applies.
SDK_LOG = logging.getLogger("slack_sdk.web.async_base_client")

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
# What to do about a bot token Slack no longer takes (README "Reliability": such a refusal is
# logged saying what to do), worded as the start-up check words it (slack_token).
REINSTALL_HINT = (
    "reinstall the app, copy its Bot User OAuth Token (xoxb-…) from OAuth & Permissions into "
    "SLACK_BOT_TOKEN and restart citecast"
)
# Slack's refusals that no retry changes. The conversation is closed to the bot (or its token
# to Slack): queuing the answer would repeat the refusal for hours, and an apology cannot
# arrive either.
CLOSED_CONVERSATION: dict[str, str] = {
    "channel_not_found": "the channel is gone or citecast cannot see it",
    "not_in_channel": "citecast is not a member of the channel; invite it",
    "is_archived": "the channel is archived",
    "restricted_action": "the workspace does not let citecast post there",
    "restricted_action_read_only_channel": "the channel is read-only",
    "restricted_action_thread_only_channel": "the channel is thread-only",
    "restricted_action_non_threadable_channel": "the channel does not take thread replies",
    "cannot_reply_to_message": "that message does not take thread replies",
    "team_access_not_granted": "the app is not granted to that workspace",
    "ekm_access_denied": "EKM denies access to the channel",
    "messages_tab_disabled": "the app's Messages tab is disabled (App Home)",
    "invalid_auth": f"Slack refuses the bot token; {REINSTALL_HINT}",
    "not_authed": f"Slack refuses the bot token; {REINSTALL_HINT}",
    "account_inactive": f"the bot token's app was uninstalled or deactivated; {REINSTALL_HINT}",
    "token_revoked": f"the bot token was revoked; {REINSTALL_HINT}",
    "token_expired": f"the bot token expired; {REINSTALL_HINT}",
    "missing_scope": "the bot token lacks a scope for this call (see the README's scopes)",
    "not_allowed_token_type": "this call needs another kind of token",
    "access_denied": "Slack denies access",
    "no_permission": "the bot has no permission for this",
    "invalid_thread_ts": "the question was deleted before its answer was posted",
}
# The question was deleted (without replies) before its answer was posted. Slack refuses to
# stream into its thread with this code and posts a plain reply outside any thread, into the
# channel itself; SlackPoster withdraws such a reply and raises this code too.
QUESTION_GONE = "invalid_thread_ts"
# The message itself is refused: sending it again is refused again (an apology may still go).
REFUSED_MESSAGE = frozenset(
    {
        "invalid_blocks",
        "invalid_blocks_format",
        "msg_too_long",
        "msg_blocks_too_long",
        "no_text",
        "too_many_attachments",
        "attachment_payload_limit_exceeded",
        "invalid_metadata_format",
        "invalid_metadata_schema",
        "metadata_too_large",
    }
)
# The message to edit (or stream into) was deleted: no edit can reach it, a new message can.
MESSAGE_GONE = "message_not_found"
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
    """Retries HTTP 429 after the ``Retry-After`` delay (no jitter: Slack means what it says).

    A delay longer than ``max_wait`` seconds is not waited: the call fails with the 429 at once,
    so an answer is queued in the outbox instead of holding its task (and the asker) for an hour.
    """

    def __init__(self, max_retry_count: int, sleep: Sleep, max_wait: float = 60.0) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self._sleep = sleep
        self._max_wait = max_wait

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        return (
            response is not None
            and response.status_code == 429
            and retry_after_seconds(response.headers) <= self._max_wait
        )

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
        # doubling, each wait at most MAX_BACKOFF_SECONDS unless the setting starts above it
        longest = max(MAX_BACKOFF_SECONDS, self._base)
        delay = min(longest, self._base * (2**state.current_attempt))
        log.info("%s for %s; retrying in %.2f s", _what_failed(response, error), request.url, delay)
        await self._sleep(delay)
        state.increment_current_attempt()


def _what_failed(response: HttpResponse | None, error: Exception | None) -> str:
    """What went wrong, as it happened: Slack's answer, or why it could not be reached."""
    if response is not None:
        return f"Slack answered {response.status_code}"
    # no answer came: the lookup, the connection or the TLS handshake failed
    reason = f"{type(error).__name__}: {error}" if error is not None else "no answer"
    if isinstance(error, ClientConnectorError):
        return f"cannot reach Slack ({reason})"
    return f"lost the connection to Slack ({reason})"


class UndeliverableError(ChannelError):
    """Slack refused a call for a reason no retry changes (``code``: Slack's error string)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code

    @property
    def conversation_closed(self) -> bool:
        """Nothing at all can be posted there (not even an apology)."""
        return self.code in CLOSED_CONVERSATION

    @property
    def message_gone(self) -> bool:
        """The message to edit or stream into was deleted (a new one can still be posted)."""
        return self.code == MESSAGE_GONE


def _not_a_retry_notice(record: logging.LogRecord) -> bool:
    """False for slack_sdk's "A retry handler found: …" line: it logs that at INFO before
    every retry (unless its logger's own level is above DEBUG), beside the line our handler
    logs saying why and how long it waits, so every retry would read twice."""
    return not record.getMessage().startswith("A retry handler found: ")


def sdk_timeout(seconds: float) -> int:
    """``slack.request_timeout_seconds`` as the whole seconds slack_sdk takes, rounded up: cut
    down, 0.5 was 0, which aiohttp reads as no timeout at all."""
    return max(1, math.ceil(seconds))


def build_web_client(settings: SlackSettings, sleep: Sleep = asyncio.sleep) -> AsyncWebClient:
    """The bot-token client, pointed at ``api_base_url`` when set (tests, proxies, GovSlack)."""
    SDK_LOG.addFilter(_not_a_retry_notice)  # once: a logger keeps one of each filter
    kwargs: dict[str, Any] = {}
    if settings.api_base_url:
        base = settings.api_base_url
        kwargs["base_url"] = base if base.endswith("/") else base + "/"
    return AsyncWebClient(
        token=settings.bot_token,
        timeout=sdk_timeout(settings.request_timeout_seconds),
        retry_handlers=[
            RetryAfterHandler(settings.max_retries, sleep, settings.retry_max_seconds),
            ServerErrorBackoffHandler(settings.max_retries, settings.retry_backoff_seconds, sleep),
        ],
        logger=SDK_LOG,
        **kwargs,
    )


def without_retries(client: AsyncWebClient) -> AsyncWebClient:
    """A client making the calls ``client`` makes (same token, API address, timeout and
    session) but trying each once: a 429 or a server error fails at once instead of waiting
    Slack's ``Retry-After`` or a backoff, for a read whose answer is only worth having now."""
    return AsyncWebClient(
        token=client.token,
        base_url=client.base_url,
        timeout=client.timeout,
        ssl=client.ssl,
        proxy=client.proxy,
        session=client.session,
        headers=dict(client.headers),
        logger=client.logger,
        retry_handlers=[],
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
    answer from Slack is sure to have changed nothing. UndeliverableError when Slack's answer
    says that trying again cannot help (:data:`CLOSED_CONVERSATION`, :data:`REFUSED_MESSAGE`,
    :data:`MESSAGE_GONE`).
    """
    if isinstance(exc, SlackApiError) and getattr(exc.response, "status_code", None) == 429:
        headers = getattr(exc.response, "headers", {}) or {}
        return RateLimitedError(f"Slack {what}: rate limited", retry_after_seconds(headers))
    code = error_code(exc)
    message = f"Slack {what} failed: {code}"
    final = code in CLOSED_CONVERSATION or code in REFUSED_MESSAGE or code == MESSAGE_GONE
    if isinstance(exc, SlackApiError) and final:
        hint = CLOSED_CONVERSATION.get(code)
        needed = exc.response.get("needed") if code == "missing_scope" else None
        if hint and isinstance(needed, str):
            hint = f"the bot token lacks the {needed} scope; add it and reinstall the app"
        return UndeliverableError(f"{message} ({hint})" if hint else message, code)
    if isinstance(exc, TimeoutError | ClientError) and not isinstance(exc, ClientConnectorError):
        return DeliveryUncertainError(message)
    return ChannelError(message)
