"""Discord lost while serving, in the log as one outage: a warning, INFO lines, and one when back.

discord.py reconnects on its own when the gateway connection is lost, and logs every attempt at
ERROR with the whole chained traceback (``Attempting a reconnect in 1.78s``): a six-second outage
was 182 lines. A filter on its ``discord.client`` logger drops those lines and tells the outage
instead: a warning naming the reason when the connection is lost, an INFO line for each further
attempt, and, when the gateway takes the bot back (its ``RESUMED`` or new-session line on
``discord.gateway``, which this replaces), an INFO line saying how long it lasted. A traceback
is never written for these: the reason is the exception's type and text. ``watch_outages`` puts
the filters on (once: a logger keeps one of each filter); the loggers' other lines pass.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

CLIENT_LOG = logging.getLogger("discord.client")
GATEWAY_LOG = logging.getLogger("discord.gateway")

# discord.py's format strings (``record.msg``) for an attempt to reconnect, and for a session
# started or resumed (discord.client, discord.gateway)
RECONNECT_NOTICE = "Attempting a reconnect in %.2fs"
SESSION_STARTED = "Shard ID %s has connected to Gateway (Session ID: %s)."
SESSION_RESUMED = "Shard ID %s has successfully RESUMED session %s."


def lost_reason(exc: BaseException | None) -> str:
    """Why an attempt failed, in one line (its type, and its text when it has one)."""
    if exc is None:
        return "no reason given"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class OutageLog:
    """The filters that tell one outage in a few lines (see the module)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lost_at: float | None = None  # while the connection is lost
        self._attempts = 0

    def reset(self) -> None:
        """Forget an outage (a new client starts: its first loss is a warning again)."""
        self._lost_at = None
        self._attempts = 0

    def client_line(self, record: logging.LogRecord) -> bool:
        """Drop discord.py's reconnect line (and traceback), logging the outage's own."""
        if record.msg != RECONNECT_NOTICE:
            return True
        error = record.exc_info[1] if record.exc_info else None
        delay = record.args[0] if isinstance(record.args, tuple) and record.args else 0.0
        reason = lost_reason(error)
        self._attempts += 1
        if self._lost_at is None:
            self._lost_at = self._clock()
            log.warning(
                "discord: lost the connection to Discord (%s); reconnecting in %.1fs",
                reason,
                delay,
            )
        else:
            log.info(
                "discord: still cannot reach Discord (%s); trying again in %.1fs", reason, delay
            )
        return False

    def gateway_line(self, record: logging.LogRecord) -> bool:
        """Replace the gateway's session line that ends an outage with one saying so."""
        if self._lost_at is None or record.msg not in (SESSION_STARTED, SESSION_RESUMED):
            return True
        lasted = self._clock() - self._lost_at
        how = "session resumed" if record.msg == SESSION_RESUMED else "a new session"
        log.info(
            "discord: connected to Discord again after %.0fs (on attempt %d; %s)",
            lasted,
            self._attempts,
            how,
        )
        self.reset()
        return False


OUTAGES = OutageLog()


def watch_outages() -> None:
    """Tell a lost gateway connection as one outage in the log, from a fresh start."""
    OUTAGES.reset()
    CLIENT_LOG.addFilter(OUTAGES.client_line)
    GATEWAY_LOG.addFilter(OUTAGES.gateway_line)
