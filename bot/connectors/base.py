"""The connector contract: what ``citecast serve`` needs from each channel.

A connector turns channel events into questions, asks the shared Answerer, renders the answer
with its channel's renderer and sends it with the platform's own SDK. HTTP-driven channels
(web, Slack HTTP events, Discourse webhooks) contribute Starlette routes to the one ASGI app;
long-running ones (Discord gateway, Slack Socket Mode, SMTP listener, IMAP poller, outbox
workers) start background tasks in the same event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from bot.errors import ConfigError

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from bot.runtime import Services


def fit_question(text: str, limit: int) -> tuple[str, bool]:
    """The question as the assistant reads it, at most ``limit`` (``web.max_question_chars``)
    characters on every channel, and whether it was cut (the asker should then be told)."""
    if len(text) <= limit:
        return text, False
    return text[:limit].rstrip(), True


def long_question_note(limit: int) -> str:
    """What a chat channel tells the asker whose question :func:`fit_question` cut."""
    return f"Your question is long: I read its first {limit:,} characters."


FILES_NOT_READ = "I can't read attached files, so this answer is from the knowledge base only."


def question_note(cut_to: int | None, files: bool) -> str | None:
    """The one note a chat channel posts before an answer: that the question was cut to its
    first ``cut_to`` characters, that its attached ``files`` were not read (an answer from the
    knowledge base alone would otherwise read as one about the file), or both; None when
    neither."""
    notes = [long_question_note(cut_to)] if cut_to is not None else []
    if files:
        notes.append(FILES_NOT_READ)
    return "\n".join(notes) or None


class Connector(Protocol):
    """One channel, plugged into ``citecast serve``."""

    name: str

    def routes(self) -> list[BaseRoute]:
        """Routes to mount into the app (empty for channels without HTTP endpoints)."""
        ...

    async def start(self) -> None:
        """Start background work (gateway clients, listeners, outbox workers)."""
        ...

    async def stop(self) -> None:
        """Stop background work; in-flight answers finish or are recorded as failed."""
        ...


def enabled_connectors(services: Services) -> list[Connector]:
    """Build the connectors that ``config.yaml`` enables (the web channel is always on).

    Each checks its settings as it is built (a token left blank by an unset variable). Every
    channel's problems are gathered into one ConfigError, a line each, so that one start names
    them all rather than one per try."""
    settings = services.settings
    builders: list[Callable[[Services], Connector]] = []
    if settings.slack.enabled:
        from bot.connectors.slack import SlackConnector

        builders.append(SlackConnector)
    if settings.discord.enabled:
        from bot.connectors.discord import DiscordConnector

        builders.append(DiscordConnector)
    if settings.email.enabled:
        from bot.connectors.email import EmailConnector

        builders.append(EmailConnector)
    if settings.discourse.enabled:
        from bot.connectors.discourse import DiscourseConnector

        builders.append(DiscourseConnector)
    connectors: list[Connector] = []
    problems: list[str] = []
    for build in builders:
        try:
            connectors.append(build(services))
        except ConfigError as exc:
            problems.append(str(exc))
    if problems:
        raise ConfigError("\n".join(problems))
    return connectors
