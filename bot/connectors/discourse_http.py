"""One forum's HTTP session for the Discourse REST API: the API key, and retries.

Every request carries ``Api-Key`` and ``Api-Username``. A 429 is retried after the delay the
forum asked for (``Retry-After``, else ``extras.wait_seconds`` in the body); a 5xx or a transport
failure is retried with exponential backoff (a post only once the topic shows it did not land:
see :meth:`bot.connectors.discourse_client.DiscourseClient.create_post`); anything else is
raised at once as :class:`DiscourseAPIError` (a :class:`bot.errors.ChannelError`) carrying the
status and the forum's ``errors`` messages. ``sleep`` is injectable so tests can observe the
waits without spending them.

Each retry is an INFO line (what failed, and the wait): a forum down for a while would
otherwise be a warning per request per retry. Giving up is the caller's one warning or error,
which names the request and the last failure (the error raised here).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from bot.connectors.discourse_errors import DiscourseAPIError, api_error, retry_after
from bot.errors import ChannelError, DeliveryUncertainError, RateLimitedError
from bot.url_secrets import quoted_url

# the client's own logger: operators' filters know its retry lines by that name
log = logging.getLogger("bot.connectors.discourse_client")

Sleep = Callable[[float], Awaitable[None]]
# Asked before a post is sent again after a failure the forum may have saved it through.
Landed = Callable[[], Awaitable[bool]]
# run after a retry's wait, before the request is sent again: raises to stop it
Recheck = Callable[[], Awaitable[None]]

# Failures of a connection that was never opened: the request cannot have reached the forum.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a request is retried after 429, 5xx or a dropped connection."""

    max_attempts: int = 5
    base_seconds: float = 1.0
    max_seconds: float = 60.0

    def backoff(self, attempt: int) -> float:
        """The wait before retry number ``attempt`` (1-based) when the forum named no delay."""
        return float(min(self.max_seconds, self.base_seconds * 2 ** (attempt - 1)))


class DiscourseHTTP:
    """An authenticated session with one forum, retrying as the module says (the base of
    :class:`bot.connectors.discourse_client.DiscourseClient`); close it with :meth:`aclose`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        api_username: str,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.api_username = api_username
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            headers={
                "Api-Key": api_key,
                "Api-Username": api_username,
                "Accept": "application/json",
                "User-Agent": "citecast",
            },
            timeout=timeout,
        )

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def _wait_to_retry(
        self, delay: float, landed: Landed | None, recheck: Recheck | None
    ) -> bool:
        """Wait ``delay`` seconds before a retry; True when ``landed`` (given for a request
        that may have been carried out) says it was, so it must not be sent again. Then
        ``recheck``, before sending again."""
        await self._sleep(delay)
        if landed is not None and await landed():
            return True
        if recheck is not None:
            await recheck()
        return False

    async def _request(
        self,
        method: str,
        path: str,
        *,
        once: bool = False,
        landed: Landed | None = None,
        recheck: Recheck | None = None,
        prepared: httpx.Request | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """``once``: the request must not take effect twice (see ``DiscourseClient.create_post``);
        ``recheck``: run after each retry's wait, before sending again;
        ``prepared``: the request to send as built (e.g. without the API key)."""
        attempt = 0
        while True:
            attempt += 1
            try:
                if prepared is not None:
                    response = await self._http.send(prepared)
                else:
                    response = await self._http.request(method, path, **kwargs)
            except httpx.TransportError as exc:
                uncertain = once and not isinstance(exc, _NOT_SENT)
                failure = transport_failure(exc)
                if uncertain and landed is None:
                    raise DeliveryUncertainError(f"{method} {path}: {failure}") from None
                if attempt >= self.retry.max_attempts:
                    raise ChannelError(f"{method} {path}: {failure}") from None
                delay = self.retry.backoff(attempt)
                log.info(
                    "discourse %s %s failed (%s); retry in %.1fs", method, path, failure, delay
                )
                if await self._wait_to_retry(delay, landed if uncertain else None, recheck):
                    return {}
                continue
            if response.status_code == 429 or response.status_code >= 500:
                uncertain = once and response.status_code >= 500
                if uncertain and landed is None:
                    raise DeliveryUncertainError(
                        f"{method} {path} answered {response.status_code}; it may have been"
                        " carried out"
                    )
                delay = retry_after(response, self.retry.backoff(attempt))
                if response.status_code == 429 and delay > self.retry.max_seconds:
                    # Waiting longer than configured would stall the answer task; the caller
                    # records the failure instead.
                    raise RateLimitedError(f"{method} {path}: rate limited for {delay:g}s", delay)
                if attempt >= self.retry.max_attempts:
                    if response.status_code == 429:
                        raise RateLimitedError(f"{method} {path}: rate limited", delay)
                    raise api_error(method, path, response)
                log.info(
                    "discourse %s %s answered %d; retry in %.1fs",
                    method,
                    path,
                    response.status_code,
                    delay,
                )
                if await self._wait_to_retry(delay, landed if uncertain else None, recheck):
                    return {}
                continue
            if response.status_code >= 400:
                raise api_error(method, path, response)
            if response.is_redirect:
                # Never followed: a redirected POST turns into a GET, and a login page is no
                # answer. The usual cause is discourse.base_url (http:// for an https forum,
                # an old host name, a missing subfolder).
                location = response.headers.get("Location", "")
                raise DiscourseAPIError(
                    f"{method} {path}: the forum redirected to {location or 'another address'};"
                    " set discourse.base_url to the forum's address",
                    response.status_code,
                )
            try:
                data = response.json()
            except ValueError:
                raise DiscourseAPIError(
                    f"{method} {path}: the forum answered non-JSON"
                    f" (is discourse.base_url {quoted_url(str(self._http.base_url))} the forum's"
                    " address?)",
                    response.status_code,
                ) from None
            if not isinstance(data, dict):
                raise DiscourseAPIError(f"{method} {path}: unexpected answer", response.status_code)
            return data


def transport_failure(exc: httpx.TransportError) -> str:
    """``exc`` as a log may show it: its type, and its text when that cannot hold a header.

    httpx refuses an illegal header value with ``LocalProtocolError("Illegal header value
    b'<the API key>\\n'")``, so that error is named by its type only; a connection dropped
    mid-request has no text at all, and its type is then all there is to say.
    """
    name = type(exc).__name__
    text = str(exc)
    if isinstance(exc, httpx.LocalProtocolError) or not text:
        return name
    return f"{name}: {text}"
