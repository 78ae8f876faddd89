"""How long the Slack outbox keeps trying a queued answer: failed tries and rate-limited ones.

A try that *failed* (a 5xx, a lost connection, Slack's refusal of the moment) uses up the failure
budget: after :data:`MAX_ATTEMPTS` of them the answer is dropped. A try that Slack only
*rate-limited* (HTTP 429 with ``Retry-After``) says nothing about the answer: Slack would take it
a little later, and a busy workspace can rate-limit the same answer many times. So a rate-limited
try is not counted (the store's ``postpone``, not ``mark_failed_attempt``) and does not lengthen
the backoff; it waits as long as Slack asked, and is bounded by time instead: an answer Slack is
still rate-limiting :data:`MAX_RATE_LIMITED_SECONDS` after it was first tried is dropped, so none
is retried forever. An item queued before its first try's time was kept has no such bound, so
its rate-limited tries count as failed ones, as they always did.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.errors import ChannelError, RateLimitedError
from bot.store import OutboxItem

log = logging.getLogger(__name__)

# Failed tries after which a queued answer is dropped (with the apology): some 14 hours of tries
# at the default outbox_poll_seconds (30 s, doubling up to an hour between tries).
MAX_ATTEMPTS = 20
# The longest wait between two tries of a queued answer, unless Slack asks for longer.
MAX_RETRY_SECONDS = 3600.0
# How long an answer may wait while Slack keeps rate-limiting it, from its first try on.
MAX_RATE_LIMITED_SECONDS = 24 * 3600.0


@dataclass(frozen=True)
class Verdict:
    """What becomes of a queued answer after a try that did not deliver it."""

    give_up: bool
    counted: bool  # whether the try counts as a failed one
    wait: float  # seconds until the next try
    failed: int  # failed tries so far, this one included when counted
    waited: float | None  # seconds since the answer was first tried (None: not known)


def judge(
    item: OutboxItem, error: ChannelError, *, since: float | None, now: float, poll_seconds: float
) -> Verdict:
    """The verdict on a try of ``item`` that ended in ``error``; ``since``: when the answer was
    first tried (Unix seconds; None for items queued before that was kept)."""
    waited = None if since is None else now - since
    wait = min(MAX_RETRY_SECONDS, poll_seconds * 2 ** min(item.attempts, MAX_ATTEMPTS))
    if isinstance(error, RateLimitedError) and waited is not None:
        wait = max(wait, error.retry_after)  # sooner is only refused again
        return Verdict(waited >= MAX_RATE_LIMITED_SECONDS, False, wait, item.attempts, waited)
    if isinstance(error, RateLimitedError):
        wait = max(wait, error.retry_after)
    failed = item.attempts + 1
    return Verdict(failed >= MAX_ATTEMPTS, True, wait, failed, waited)


def report(channel: str, error: ChannelError, verdict: Verdict) -> None:
    """Log a try that did not deliver a queued answer for ``channel``: a rate-limited one that
    is tried again (not a failure), or the answer being dropped, saying which budget ran out."""
    if not verdict.give_up:
        if not verdict.counted:
            log.info(
                "Slack rate-limited a queued answer for %s (not counted as a failed try); "
                "trying again in %.0f s",
                channel,
                verdict.wait,
            )
        return
    if not verdict.counted:
        log.error(
            "dropped a queued Slack answer for %s: Slack was still rate-limiting it %.1f hours "
            "after its first try (%d failed tries besides): %s",
            channel,
            (verdict.waited or 0.0) / 3600,
            verdict.failed,
            error,
        )
    else:
        log.error(
            "dropped a queued Slack answer for %s after %d failed tries: %s",
            channel,
            verdict.failed,
            error,
        )
