"""The Discourse API's refusals: :class:`DiscourseAPIError` and how a response becomes one.

Discourse answers an error as JSON: ``errors`` (messages in the forum's language), often an
``error_type`` (``invalid_access``, ``not_found``, ``rate_limit``) and, for a rate limit,
``extras.wait_seconds``.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx

from bot.errors import ChannelError, RateLimitedError


class DiscourseAPIError(ChannelError):
    """The forum refused a request: ``status`` and its ``errors`` messages (may be empty), with
    the body's ``error_type`` and ``extras.wait_seconds`` when it sent them (Discourse's rate
    limiter answers ``error_type: "rate_limit"`` and the seconds to wait)."""

    def __init__(
        self,
        message: str,
        status: int,
        errors: Sequence[str] = (),
        *,
        error_type: str | None = None,
        wait_seconds: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.errors = tuple(errors)
        self.error_type = error_type
        self.wait_seconds = wait_seconds

    @property
    def rate_limited(self) -> bool:
        """True when the forum marked the refusal as a rate limit (429, ``error_type:
        "rate_limit"`` or a ``wait_seconds``): its numbers count waits and actions, never a
        post's length."""
        return (
            self.status == 429 or self.error_type == "rate_limit" or self.wait_seconds is not None
        )

    def mentions(self, text: str) -> bool:
        """True when one of the forum's error messages contains ``text`` (case-insensitive)."""
        return any(text.lower() in error.lower() for error in self.errors)

    @property
    def permanent(self) -> bool:
        """True for a refusal that sending the same request again cannot change: a 4xx other
        than 408 (timeout) and 429 (rate limit), e.g. a topic closed, archived or deleted (422
        "Perhaps this topic was closed or deleted"), a category the bot may not post in, a key
        without the scope (403 ``invalid_access``), a topic gone (404, 410). A refusal marked
        as a rate limit passes with time, whatever its status."""
        return 400 <= self.status < 500 and self.status not in (408, 429) and not self.rate_limited


def retry_after(response: httpx.Response, fallback: float) -> float:
    """The wait a 429 asks for (``Retry-After``, else ``extras.wait_seconds``), else
    ``fallback``."""
    if response.status_code != 429:
        return fallback
    header = response.headers.get("Retry-After", "")
    try:
        return max(0.0, float(header))
    except ValueError:
        pass
    try:
        extras = response.json().get("extras") or {}
        return max(0.0, float(extras["wait_seconds"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return fallback


def api_error(method: str, path: str, response: httpx.Response) -> DiscourseAPIError:
    """The forum's refusal of ``method path`` as a DiscourseAPIError, with its messages."""
    errors: list[str] = []
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("errors"), list):
        errors = [str(e) for e in body["errors"]]
    detail = "; ".join(errors) or response.reason_phrase
    denied = isinstance(body, dict) and body.get("error_type") == "invalid_access"
    if response.status_code == 403 and denied:
        detail += (
            " (check discourse.api_key and discourse.api_username, the key's scopes, and"
            " that the bot user may read and post in this topic)"
        )
    elif response.status_code in (404, 405) and not isinstance(body, dict):
        # Discourse answers JSON even for a missing topic: this came from another server (a
        # base URL without the forum's subfolder, or the address of another site).
        detail += (
            f" (no forum API at {response.request.url.copy_with(query=None)}:"
            " set discourse.base_url to the forum's address)"
        )
    error_type: str | None = None
    wait_seconds: float | None = None
    if isinstance(body, dict):
        kind = body.get("error_type")
        error_type = kind if isinstance(kind, str) else None
        extras = body.get("extras")
        wait = extras.get("wait_seconds") if isinstance(extras, dict) else None
        if isinstance(wait, int | float) and not isinstance(wait, bool):
            wait_seconds = float(wait)
    return DiscourseAPIError(
        f"{method} {path} answered {response.status_code}: {detail}",
        response.status_code,
        errors,
        error_type=error_type,
        wait_seconds=wait_seconds,
    )


def rate_limit_wait(exc: BaseException) -> float | None:
    """The seconds a rate-limit refusal asked to wait (0 when it named none), or None when
    ``exc`` is no rate limit: a reply held back by one is retried later, not lost."""
    if isinstance(exc, RateLimitedError):
        return exc.retry_after
    if isinstance(exc, DiscourseAPIError) and exc.rate_limited:
        return exc.wait_seconds or 0.0
    return None
