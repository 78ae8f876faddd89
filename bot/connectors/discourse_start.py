"""Checking the forum address and the API key at start, as the Slack and Discord channels do.

``GET /session/current.json`` with the key says whether the forum takes it, and as whom. A key
the forum refuses, or an address that is not the forum's, stops ``citecast serve`` with one line
saying what to fix, instead of a server that starts and then fails every reply. A forum that
cannot be asked (unreachable, too slow, a 5xx, a rate limit) is one warning: serving goes on.

A granular key (the README's recommendation) is refused ``/session/current.json`` with the
same 403 as a wrong key: no granular scope covers it. So a 403 there is followed by a read the
key's *topics: read* scope allows (topic 0, which does not exist): "not found" means the key
was taken, another 403 that the forum refuses the key (or ``api_username`` is not its user).
"""

from __future__ import annotations

import asyncio
import logging

from bot.config import DiscourseSettings
from bot.config_env import env_source
from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_errors import DiscourseAPIError
from bot.connectors.discourse_header_values import check_header_values
from bot.connectors.discourse_http import RetryPolicy
from bot.errors import ChannelError, ConfigError
from bot.url_secrets import quoted_url, redact_urls

log = logging.getLogger(__name__)

# How long start-up waits for the forum to judge the key before serving anyway.
CHECK_SECONDS = 15.0
# a topic id no forum has: reading it tells a key that is taken (404) from one that is not (403)
NO_TOPIC = 0


async def check_forum(settings: DiscourseSettings) -> None:
    """Raise ConfigError when the forum refuses the key or ``base_url`` is not the forum;
    log one warning and return when the forum cannot be asked now.

    Asked once, without retries: a forum out of reach is one warning, not one per retry, and
    start-up is not held up by backoff waits (the outbox retries the replies meanwhile).
    A key or user name no header can carry is refused before anything is sent.
    """
    check_header_values(settings)
    client = DiscourseClient(
        settings.base_url,
        settings.api_key,
        settings.api_username,
        timeout=min(settings.request_timeout, CHECK_SECONDS),
        retry=RetryPolicy(max_attempts=1),
    )
    try:
        await _check(client, settings)
    finally:
        await client.aclose()


async def _check(client: DiscourseClient, settings: DiscourseSettings) -> None:
    try:
        async with asyncio.timeout(CHECK_SECONDS):
            user = await _current_user(client)
    except DiscourseAPIError as exc:
        if exc.status in (301, 302, 303, 307, 308, 404) or 200 <= exc.status < 300:
            # a redirect, a page that is not JSON, or no such route: not the forum's address
            shown = quoted_url(settings.base_url, env_source(settings, "base_url"))
            raise ConfigError(
                f"discourse.base_url: {shown} does not answer as a Discourse"
                f" forum ({redact_urls(str(exc))})"
            ) from None
        if exc.status in (401, 403):
            raise ConfigError(
                f"discourse.api_key: the forum refused the API key for user"
                f" {settings.api_username!r} ({exc.status}); check that DISCOURSE_API_KEY holds"
                " an active key (Admin → API → Keys), that discourse.api_username is the key's"
                " user, and that a granular key has the topics: read scope"
            ) from None
        _serving_anyway(settings, f"{exc.status}: {exc}")
        return
    except (ChannelError, TimeoutError) as exc:  # unreachable, or too slow to judge
        _serving_anyway(settings, str(exc) or type(exc).__name__)
        return
    if user is None:
        log.info(
            "discourse: the forum takes the API key (a granular key: which user it acts as"
            " cannot be asked); posting as %s",
            settings.api_username,
        )
    else:
        log.info("discourse: the API key acts as %s", user.get("username") or "?")


async def _current_user(client: DiscourseClient) -> dict[str, object] | None:
    """The key's user, or None for a key the forum takes but that may not ask who it is."""
    try:
        return await client.current_user()
    except DiscourseAPIError as exc:
        if exc.status != 403:
            raise
    try:
        await client.topic(NO_TOPIC)
    except DiscourseAPIError as exc:
        if exc.status != 404:  # 404: the key was taken, only the topic was not found
            raise
    return None


def _serving_anyway(settings: DiscourseSettings, reason: str) -> None:
    log.warning(
        "discourse: could not check the API key with %s (%s); serving anyway",
        settings.base_url,
        reason,
    )
