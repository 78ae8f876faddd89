"""What a chat channel says when citecast itself is not set up, and the operator's one log line.

Two failures are not passing ones: the model endpoint refused citecast's key
(:class:`bot.errors.BackendConfigError`), or there is no usable knowledge index
(:class:`bot.errors.KnowledgeIndexError`: never ingested, unreadable, or from an older schema).
Asking again cannot help until whoever runs citecast fixes the setting or runs
``citecast ingest``, so Slack, Discord, email and Discourse all answer with
:data:`NOT_SET_UP_REPLY` (no "try again", no retry), as the web chat answers 503
(``bot.connectors.web_sse.public_status``). The cause and its fix are the operator's, in the
log: :class:`SetupAlarm` writes one ERROR line per cause, not one per question, for every
channel (the web chat's 503s included: ``bot.connectors.web_turns``).
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from bot.assistant.base import Reply
from bot.errors import BackendConfigError, KnowledgeIndexError
from bot.models import Answer
from bot.registry import SourceRegistry

if TYPE_CHECKING:
    from bot.runtime import Services

log = logging.getLogger(__name__)

NOT_SET_UP_REPLY = (
    "I'm not set up correctly yet, so I can't answer. The team running me has been told."
)
"""The asker's whole answer on every chat channel when :func:`is_setup_error` holds."""

SETUP_ERRORS = (BackendConfigError, KnowledgeIndexError)
"""What only the operator can fix: the connectors catch these before their generic failure."""


def is_setup_error(exc: BaseException) -> bool:
    """Whether ``exc`` means citecast is not set up (a refused key, no usable index): asking
    again cannot help, so the asker gets :data:`NOT_SET_UP_REPLY` and nothing is retried."""
    return isinstance(exc, SETUP_ERRORS)


def not_set_up_reply(audience: frozenset[str]) -> Reply:
    """:data:`NOT_SET_UP_REPLY` as an answer without sources, for channels that send a reply
    through their renderer and outbox (email, Discourse) rather than as a plain notice."""
    return Reply(Answer(NOT_SET_UP_REPLY), SourceRegistry(audience).to_json())


class SetupAlarm:
    """Logs each setup problem once (ERROR, with its cause and fix); the same cause again is
    one INFO line per question, so a deployment without an index does not fill the log with
    tracebacks, yet a new cause (a key fixed, then the index deleted) is an ERROR again.

    One per running citecast (``Services.setup_alarm``), shared by every channel.
    """

    def __init__(self) -> None:
        self._told: set[tuple[type[BaseException], str]] = set()
        self._lock = threading.Lock()  # connectors may report from worker threads too

    def report(self, channel: str, exc: BaseException, index_path: str = "") -> bool:
        """Log that ``channel`` could not answer because of ``exc`` (a setup error); returns
        True when this was the first time for this cause (the ERROR line was written).

        ``index_path`` (``index.path``) is named for an index problem whose message does not
        already name it: the operator must know which file ``citecast ingest`` should build.
        """
        cause = str(exc) or type(exc).__name__
        if isinstance(exc, KnowledgeIndexError) and index_path and index_path not in cause:
            cause += f" (index.path is {index_path})"
        key = (type(exc), cause)
        with self._lock:
            first = key not in self._told
            self._told.add(key)
        if first:
            log.error(
                "citecast is not set up correctly, so questions are answered with "
                '"not set up" (first on %s; logged once per cause): %s',
                channel,
                cause,
            )
        else:
            log.info("%s: question not answered: citecast is not set up (%s)", channel, cause)
        return first


def report_setup_error(services: Services, channel: str, exc: BaseException) -> None:
    """Tell the operator, through the deployment's one :class:`SetupAlarm`, that ``channel``
    answered a question with :data:`NOT_SET_UP_REPLY` (the web chat: its 503) because of
    ``exc``."""
    services.setup_alarm.report(channel, exc, services.settings.index.path)


__all__ = [
    "NOT_SET_UP_REPLY",
    "SETUP_ERRORS",
    "SetupAlarm",
    "is_setup_error",
    "not_set_up_reply",
    "report_setup_error",
]
