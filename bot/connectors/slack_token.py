"""Checking the bot token with Slack (``auth.test``): at start, and in the background until
Slack answers when it could not be asked at start.

A token Slack refuses at start stops ``citecast serve`` (ConfigError naming
``slack.bot_token``). When Slack cannot be reached then (or is too slow, or answers 5xx),
start-up logs one warning and serves; :func:`recheck_bot_token` keeps asking in the
background (each try an INFO line) and, once Slack answers, logs an ERROR naming
``slack.bot_token`` if it refuses the token: a wrong token is not left unnoticed until an
answer fails.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from slack_bolt.logger.messages import (
    warning_client_prioritized_and_token_skipped,
    warning_token_skipped,
)
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.connectors.slack_client import SLACK_CALL_ERRORS, Sleep, error_code
from bot.errors import ConfigError

log = logging.getLogger(__name__)

# What auth.test / apps.connections.open answer for a token that Slack will never take.
REFUSED_TOKEN = frozenset(
    {
        "invalid_auth",
        "not_authed",
        "account_inactive",
        "token_revoked",
        "token_expired",
        "not_allowed_token_type",
    }
)
# How long start-up waits for Slack to judge the tokens before serving anyway.
TOKEN_CHECK_SECONDS = 15.0
# The background check's waits between tries: doubled from the first up to the last.
RECHECK_FIRST_SECONDS = 10.0
RECHECK_MAX_SECONDS = 300.0


def refused_bot_token(code: str) -> str:
    """What to say of a bot token Slack refused with ``code``: the key, and the fix."""
    return (
        f"slack.bot_token: Slack refused the bot token ({code}); copy the Bot User OAuth Token "
        "(xoxb-…) from OAuth & Permissions into SLACK_BOT_TOKEN"
    )


async def _auth_test(client: AsyncWebClient) -> tuple[dict[str, Any] | None, str]:
    """``auth.test``'s answer, or None and why Slack could not be asked.

    Raises ConfigError when Slack refuses the token."""
    try:
        async with asyncio.timeout(TOKEN_CHECK_SECONDS):
            response = await client.auth_test()
    except SLACK_CALL_ERRORS as exc:  # TimeoutError too: Slack too slow to judge
        code = error_code(exc)
        if isinstance(exc, SlackApiError) and code in REFUSED_TOKEN:
            raise ConfigError(refused_bot_token(code)) from None
        return None, code
    return identity_of(response), ""


def identity_of(response: AsyncSlackResponse) -> dict[str, Any]:
    """``auth.test``'s answer (``user_id``, ``bot_id`` …), with the token's ``scopes`` that
    Slack sends in a header (comma-separated), when it does."""
    identity = dict(response.data) if isinstance(response.data, dict) else {}
    headers = {str(k).lower(): v for k, v in (response.headers or {}).items()}
    scopes = headers.get("x-oauth-scopes")
    if isinstance(scopes, list):
        scopes = ",".join(str(scope) for scope in scopes)
    if isinstance(scopes, str):
        identity["scopes"] = scopes
    return identity


async def verify_bot_token(client: AsyncWebClient) -> dict[str, Any] | None:
    """``auth.test``'s answer for the bot token (``user_id``, ``bot_id`` …).

    Raises ConfigError when Slack refuses the token: every event would otherwise be answered
    with bolt's "please reinstall" and nothing at start would say why. When Slack cannot be
    asked (unreachable, too slow, a 5xx) it logs one warning and returns None: start-up goes
    on, and the caller checks again with :func:`recheck_bot_token`.
    """
    identity, problem = await _auth_test(client)
    if identity is None:
        log.warning(
            "could not check the Slack bot token (%s); serving anyway, checking it again in "
            "the background",
            problem,
        )
    return identity


async def recheck_bot_token(
    client: AsyncWebClient,
    sleep: Sleep,
    checked: Callable[[dict[str, Any]], None],
    *,
    first_wait: float = RECHECK_FIRST_SECONDS,
) -> None:
    """Ask ``auth.test`` until Slack answers (waits doubling from ``first_wait`` up to
    :data:`RECHECK_MAX_SECONDS`), then give ``checked`` the answer, or log an ERROR naming
    ``slack.bot_token`` when Slack refuses the token."""
    wait = first_wait
    while True:
        await sleep(wait)
        try:
            identity, problem = await _auth_test(client)
        except ConfigError as exc:
            log.error("%s, then restart citecast; until then no answer can be posted", exc)
            return
        if identity is not None:
            log.info("Slack is reachable again; it accepts the bot token")
            checked(identity)
            return
        wait = min(wait * 2, RECHECK_MAX_SECONDS)
        log.info(
            "still cannot check the Slack bot token (%s); checking again in %.0f s", problem, wait
        )


async def open_socket_url(
    client: AsyncWebClient, app_token: str, *, warned: bool = False
) -> str | None:
    """A Socket Mode WebSocket URL (``apps.connections.open``), or None when Slack could not
    be asked (one line logged, a warning unless start-up ``warned`` already that Slack could
    not be asked; the Socket Mode client keeps trying in the background).

    Raises ConfigError when Slack refuses the app-level token: the Socket Mode client would
    otherwise retry it forever, logging a traceback every ten seconds.
    """
    try:
        async with asyncio.timeout(TOKEN_CHECK_SECONDS):
            response = await client.apps_connections_open(app_token=app_token)
    except SLACK_CALL_ERRORS as exc:  # TimeoutError too: Slack too slow to judge
        code = error_code(exc)
        if isinstance(exc, SlackApiError) and code in REFUSED_TOKEN:
            raise ConfigError(
                f"slack.app_token: Slack refused the app-level token ({code}); create one with "
                "the connections:write scope (Basic Information → App-Level Tokens) and put it "
                "in SLACK_APP_TOKEN"
            ) from None
        level = logging.INFO if warned else logging.WARNING
        log.log(level, "could not open a Slack Socket Mode connection yet (%s); retrying", code)
        return None
    url = response.get("url")
    return url if isinstance(url, str) and url else None


def token_skipped(record: logging.LogRecord) -> bool:
    """A log filter: False for bolt's "`token` will be unused" warnings, which the connector's
    own client (given beside the token on purpose, see ``SlackConnector``) would set off."""
    return record.getMessage() not in (
        warning_client_prioritized_and_token_skipped(),
        warning_token_skipped(),
    )
