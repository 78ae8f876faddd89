"""Which Slack events are questions, and the question each one asks.

Answered: ``app_mention`` anywhere, and ``message`` events in a DM with the bot (which includes
assistant threads). Not answered: anything a bot wrote (``bot_id``, ``bot_profile``, subtype
``bot_message``, or the bot's own user), edits and deletions and other subtypes, and plain
channel messages (a mention there arrives as its own ``app_mention`` event).

A question's turns are stored under ``slack:INSTALLATION:CHANNEL:THREAD_TS``
(:meth:`SlackQuestion.conversation`): the workspace the app is installed in, or for an app
installed on a whole Enterprise Grid organisation the organisation (``authorizations[0]``).
Never the asker's own team (the event's ``team``): in a channel shared with another
organisation (Slack Connect) or across an organisation's workspaces, people of several teams
ask in one thread, and its turns must stay one conversation (the model read them all as its
history, and a shared turn page checks them all).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.connectors.slack_text import question_text
from bot.connectors.slack_thread import SlackThread

log = logging.getLogger("bot.connectors.slack")  # the connector's account of its events

ANSWERED_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})


@dataclass(frozen=True)
class SlackQuestion:
    """One question to answer, taken from an event."""

    event_id: str
    channel: str
    ts: str
    thread_ts: str
    user: str | None
    team_id: str | None
    text: str
    channel_type: str | None
    assistant_thread: bool
    raw_text: str = ""  # as Slack sent it, to name the people it mentions (``text`` says @U…)
    has_files: bool = False
    # the installation the event was delivered to (see the module docstring), not the asker's
    installation: str | None = None

    def conversation(self) -> str:
        """The store's conversation of the question's thread, whoever of which team asks."""
        return f"slack:{self.installation or self.team_id}:{self.channel}:{self.thread_ts}"

    def thread(self) -> SlackThread:
        """Where its answer goes: the question's thread (an assistant thread or not)."""
        return SlackThread(
            self.channel,
            self.thread_ts,
            self.user,
            self.team_id,
            self.assistant_thread,
            question_ts=self.ts,
        )


def is_from_a_bot(event: dict[str, Any], bot_user_id: str | None) -> bool:
    """True for messages written by this bot or any other bot."""
    return bool(
        event.get("bot_id")
        or event.get("subtype") == "bot_message"
        or event.get("bot_profile")
        or (bot_user_id and event.get("user") == bot_user_id)
    )


def question_from_event(
    body: dict[str, Any], event: dict[str, Any], bot_user_id: str | None
) -> SlackQuestion | None:
    """The question an Events API callback asks, or None when it is not one to answer."""
    kind = event.get("type")
    if is_from_a_bot(event, bot_user_id) or event.get("subtype") not in ANSWERED_SUBTYPES:
        return None
    if kind == "message" and event.get("channel_type") != "im":
        return None  # channel messages are answered through their app_mention event
    if kind not in ("app_mention", "message") or not event.get("channel") or not event.get("ts"):
        return None
    ts = str(event["ts"])
    channel_type = event.get("channel_type")
    return SlackQuestion(
        event_id=str(body.get("event_id") or f"{event['channel']}:{ts}"),
        channel=str(event["channel"]),
        ts=ts,
        thread_ts=str(event.get("thread_ts") or ts),
        user=event.get("user"),
        team_id=event.get("team") or body.get("team_id"),
        text=question_text(str(event.get("text") or ""), bot_user_id),
        channel_type=channel_type,
        assistant_thread=channel_type == "im" and bool(event.get("thread_ts")),
        raw_text=str(event.get("text") or ""),
        has_files=bool(event.get("files")),
        installation=installation_of(body),
    )


def installation_of(body: dict[str, Any]) -> str | None:
    """The workspace (or, installed org-wide, the organisation) an Events API callback was
    delivered to: ``authorizations[0]``, else the envelope's ``team_id``.

    The envelope's ``team_id`` alone can name the team where the event happened rather than
    the installation (an event from the other side of a shared channel); ``authorizations``
    names the installation, with ``team_id`` null for an org-wide one.
    """
    authorizations = body.get("authorizations")
    if isinstance(authorizations, list) and authorizations:
        first = authorizations[0]
        if isinstance(first, dict):
            for key in ("team_id", "enterprise_id"):
                value = first.get(key)
                if isinstance(value, str) and value:
                    return value
    team = body.get("team_id")
    return team if isinstance(team, str) and team else None


def rate_limit_notice(body: dict[str, Any]) -> bool:
    """True (logged) for Slack's ``app_rate_limited`` callback: it drops the workspace's events
    for the rest of this minute, and the questions asked meanwhile are not answered."""
    if body.get("type") != "app_rate_limited":
        return False
    log.warning(
        "Slack is dropping events for team %s (app_rate_limited, minute %s): more than "
        "30,000 events an hour; questions asked meanwhile are not answered",
        body.get("team_id"),
        body.get("minute_rate_limited"),
    )
    return True
