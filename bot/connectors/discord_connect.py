"""Connecting to Discord at start: a setup problem fails start-up, an outage is retried.

``connect`` waits for the first gateway session (up to ``CONNECT_WAIT`` seconds; a slower
Discord keeps connecting in the background). A refused token or a privileged intent the bot may
not use is one ConfigError saying what to fix (``setup_problem``); when Discord cannot be reached
(network, DNS, an outage) serving goes on and a fresh client tries again in the background
(``keep_trying``); any other failure is logged in one line (``log_exit``). Once connected,
a lost connection is one warning, not a traceback per reconnect attempt (``discord_outage_log``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import aiohttp
import discord

from bot.connectors.discord_outage_log import watch_outages
from bot.errors import ConfigError

log = logging.getLogger(__name__)

# how long start() waits for the gateway session; a slower Discord keeps connecting after it
CONNECT_WAIT = 15.0

# a new client, logging in and connecting in the background (the client, and its task)
Launch = Callable[[], tuple[discord.Client, asyncio.Task[None]]]

# the gateway's close code for a token it does not accept
AUTHENTICATION_FAILED = 4004


def setup_problem(exc: BaseException | None) -> ConfigError | None:
    """The operator's fix, as one ConfigError, when ``exc`` says the bot is set up wrongly.

    A refused token (at login, or a gateway close 4004) and a privileged intent the
    application may not use (gateway close 4014) never get better by reconnecting; anything
    else is not a setup problem (None).
    """
    if isinstance(exc, discord.LoginFailure) or (
        isinstance(exc, discord.ConnectionClosed) and exc.code == AUTHENTICATION_FAILED
    ):
        return ConfigError(
            "discord.token: Discord refused the bot token; copy a new one from the Developer "
            "Portal (Bot → Reset Token) into DISCORD_BOT_TOKEN"
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return ConfigError(
            "discord.token: this bot may not use the Message Content intent; turn on Bot → "
            "Privileged Gateway Intents → Message Content Intent in the Developer Portal"
        )
    return None


def stop_reason(exc: BaseException | None) -> str:
    """Why the client stopped, in one line."""
    return f"{type(exc).__name__}: {exc}" if exc is not None else "the client stopped"


def log_exit(task: asyncio.Task[None]) -> None:
    """Log why the client stopped after start-up: one line for a setup problem or network."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is None:
        return
    problem = setup_problem(exc)
    if problem is not None:
        log.error("discord: the client stopped, so Discord is not served: %s", problem)
    elif isinstance(exc, discord.DiscordException | OSError | TimeoutError):
        log.error("discord: the client stopped, so Discord is not served: %s", stop_reason(exc))
    else:  # not one of the ways discord.py reports a lost connection: keep the traceback
        log.error("discord: the client stopped: %s", exc, exc_info=exc)


# the shortest and longest waits between two attempts to reach Discord when it could not be
# reached at start (``retry_backoff`` may be 0, which must not become a busy loop)
MIN_START_RETRY_DELAY = 0.1
MAX_START_RETRY_DELAY = 300.0


def unreachable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says only that Discord could not be reached (network, DNS, a 5xx at
    login): something that may pass, unlike a refused token."""
    network = OSError | aiohttp.ClientError | TimeoutError
    return isinstance(exc, network | discord.DiscordServerError | discord.GatewayNotFound)


async def wait_started(
    task: asyncio.Task[None], connected: asyncio.Event, timeout: float | None
) -> None:
    """Until the gateway session is up (``connected``), the client's ``task`` ends, or
    ``timeout`` seconds pass."""
    waiter = asyncio.create_task(connected.wait())
    try:
        await asyncio.wait({task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()


async def keep_trying(
    launch: Launch,
    connected: asyncio.Event,
    delay: float,
    warned: str = "",
) -> None:
    """Start a fresh client (``launch``) after ``delay`` seconds, the wait doubling up to
    ``MAX_START_RETRY_DELAY``, until one connects or stops for a reason that trying again
    cannot fix (logged in one line, as :func:`log_exit` does).

    ``warned`` is the reason the caller already logged a warning for: each attempt that fails
    for that same reason is an INFO line, and only a new reason is a warning again, so an
    offline start is one warning, not one every few minutes for as long as it lasts.

    A fresh client each time: each failed one is closed (so no HTTP session leaks), and a
    closed discord.py client keeps its closed connection pool.
    """
    delay = max(delay, MIN_START_RETRY_DELAY)
    while True:
        await asyncio.sleep(delay)
        client, task = launch()
        await wait_started(task, connected, None)
        if not task.done():
            task.add_done_callback(log_exit)
            return
        await client.close()
        error = None if task.cancelled() else task.exception()
        if not unreachable(error):
            log_exit(task)
            return
        delay = min(delay * 2, MAX_START_RETRY_DELAY)
        reason = stop_reason(error)
        log.log(
            logging.INFO if reason == warned else logging.WARNING,
            "discord: still cannot reach Discord (%s); trying again in %gs",
            reason,
            delay,
        )
        warned = reason


async def connect(
    launch: Launch, connected: asyncio.Event, retry_backoff: float
) -> asyncio.Task[None] | None:
    """Start a client (``launch``) and wait until its gateway session is up (``connected``),
    or ``CONNECT_WAIT`` seconds, then let it keep connecting in the background.

    Raises the ConfigError of a setup problem. When Discord cannot be reached, answers the
    task that keeps trying with fresh clients (``keep_trying``, after ``retry_backoff``
    seconds); any other failure is logged in one line and answers None, as does a start.
    """
    watch_outages()  # before the client logs anything
    client, task = launch()
    await wait_started(task, connected, CONNECT_WAIT)
    if not task.done():
        if not connected.is_set():
            log.warning("discord: not connected after %gs; still trying", CONNECT_WAIT)
        task.add_done_callback(log_exit)
        return None
    await client.close()
    error = None if task.cancelled() else task.exception()
    problem = setup_problem(error)
    if problem is not None:
        raise problem
    if not unreachable(error):
        log.error("discord: could not connect, so Discord is not served: %s", stop_reason(error))
        return None
    reason = stop_reason(error)
    log.warning("discord: cannot reach Discord (%s); still trying", reason)
    retry = keep_trying(launch, connected, retry_backoff, reason)
    return asyncio.create_task(retry, name="discord-retry")
