"""What Slack says about people and this workspace: ``users.info``, the members of user groups
(``usergroups.users.list``) and this workspace's identity (``auth.test``), cached.

:class:`~bot.connectors.slack_audience.SlackAudiences` decides from these which groups an asker
brings (DESIGN §7); the same ``users.info`` answers name the people a question mentions
(:meth:`SlackDirectory.display_name`). A lookup that fails (Slack's refusal, a lost connection,
a timeout) is logged and tells nothing, the safe direction: an unknown user has no email or
workspace, an unknown user group no members, an unknown workspace no identity. With ``strict``
(the outbox judging a queued answer again) it raises :class:`ReadersUnknownError` instead: fewer
groups would drop the answer as if its readers had changed, when Slack only failed to say, so it
waits for another try. Answers are cached for ``cache_seconds``; the workspace's identity once
known (the ``auth.test`` made at start, :meth:`SlackDirectory.learn_home`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.config import SlackSettings
from bot.connectors.outbox_audience import ReadersUnknownError
from bot.connectors.slack_client import SLACK_CALL_ERRORS, error_code

log = logging.getLogger(__name__)

# (team_id, enterprise_id); team_id None for an org-wide install
HomeTeam = tuple[str | None, str | None]


class SlackDirectory:
    """Slack's answers about users, user groups and this workspace, cached (``strict``: a
    failed lookup raises :class:`ReadersUnknownError` instead of telling nothing)."""

    def __init__(
        self, client: AsyncWebClient, settings: SlackSettings, cache_seconds: float = 600.0
    ) -> None:
        self._client = client
        self._settings = settings
        self._ttl = cache_seconds
        self._users: dict[str, tuple[float, dict[str, Any]]] = {}
        self._members: dict[str, tuple[float, frozenset[str]]] = {}
        self._home: HomeTeam | None = None
        self._said_emailless = False

    async def home_team(self, *, strict: bool = False) -> HomeTeam | None:
        """This workspace's ``team_id`` and Enterprise Grid ``enterprise_id`` (auth.test, kept
        once known); None when the lookup fails (logged, tried again next time) or names
        neither. An org-wide install has the organisation and no workspace: (None, "E…")."""
        if self._home is None:
            try:
                response = await self._client.auth_test()
            except SLACK_CALL_ERRORS as exc:
                if strict:
                    raise ReadersUnknownError(
                        f"auth.test failed ({why_failed(exc)}): whether the asker is of this "
                        f"workspace is unknown"
                    ) from None
                log.warning(
                    "auth.test failed (%s); askers' own groups are not granted", why_failed(exc)
                )
                return None
            self.learn_home(response.data if isinstance(response.data, dict) else {})
        return self._home

    def learn_home(self, identity: Mapping[str, Any]) -> None:
        """Keep the workspace and organisation an ``auth.test`` answer names (the one made at
        start), so that the audience lookups do not ask again; an answer naming neither
        changes nothing."""
        enterprise = _text(identity.get("enterprise_id"))
        team = _text(identity.get("team_id"))
        if identity.get("is_enterprise_install") is True or team == enterprise:
            # installed on the whole organisation: any team_id is no workspace of ours
            team = None
        if team is not None or enterprise is not None:
            self._home = (team, enterprise)

    async def email(self, user: str, *, strict: bool = False) -> str | None:
        """The email address ``users.info`` shows for ``user``; None when it shows none."""
        info = await self.user(user, "no email-based groups", strict=strict)
        email = (info.get("profile") or {}).get("email")
        return email if isinstance(email, str) else None

    async def display_name(self, user: str) -> str | None:
        """How Slack shows ``user`` (display name, else real name); None when unknown."""
        info = await self.user(user, "the mention stays an id")
        profile = info.get("profile") or {}
        for name in (profile.get("display_name"), profile.get("real_name"), info.get("name")):
            if isinstance(name, str) and name.strip():
                return name.strip()
        return None

    async def user(self, user: str, consequence: str, *, strict: bool = False) -> dict[str, Any]:
        """``users.info``'s user object, cached; {} when the lookup fails (logged with
        ``consequence``, what the caller goes without)."""
        now = time.monotonic()
        cached = self._users.get(user)
        if cached is not None and now - cached[0] < self._ttl:
            return cached[1]
        try:
            response = await self._client.users_info(user=user)
        except SLACK_CALL_ERRORS as exc:
            if strict:
                raise ReadersUnknownError(
                    f"users.info {user} failed ({why_failed(exc)}): their groups are unknown"
                ) from None
            log.warning("users.info %s failed (%s); %s", user, why_failed(exc), consequence)
            return {}
        info = response.get("user")
        value: dict[str, Any] = info if isinstance(info, dict) else {}
        emailless = value and not (value.get("profile") or {}).get("email")
        if emailless and self._settings.audience_by_email_domain and not value.get("is_bot"):
            # Slack leaves the email out, with ok, when the token lacks users:read.email:
            # email-domain audiences would grant nothing without a word. Said once: people
            # of another organisation (Slack Connect) may show none either.
            level = logging.DEBUG if self._said_emailless else logging.WARNING
            self._said_emailless = True
            log.log(
                level,
                "users.info %s shows no email address (does the bot token have the "
                "users:read.email scope? add it and reinstall the app); no email-based "
                "groups for them",
                user,
            )
        self._users[user] = (now, value)
        return value

    async def usergroup_members(
        self, usergroup: str, teams: tuple[str | None, ...] = (None,), *, strict: bool = False
    ) -> frozenset[str]:
        """The members of ``usergroup``, cached, looked up in ``teams`` in turn (None: the
        token's own workspace) until one has it; none when the lookup fails (logged)."""
        now = time.monotonic()
        cached = self._members.get(usergroup)
        if cached is not None and now - cached[0] < self._ttl:
            return cached[1]
        for team in teams:
            try:
                if team is None:
                    response = await self._client.usergroups_users_list(usergroup=usergroup)
                else:
                    response = await self._client.usergroups_users_list(
                        usergroup=usergroup, team_id=team
                    )
            except SLACK_CALL_ERRORS as exc:
                if team is not None and error_code(exc) == "no_such_subteam":
                    continue  # not in this workspace of the asker's: try their next one
                if strict:
                    raise ReadersUnknownError(
                        f"usergroups.users.list {usergroup} failed ({why_failed(exc)}): who is "
                        f"in it is unknown"
                    ) from None
                log.warning(
                    "usergroups.users.list %s failed (%s); its audience_by_usergroup groups "
                    "are not granted",
                    usergroup,
                    why_failed(exc),
                )
                return frozenset()
            members = frozenset(str(u) for u in response.get("users") or [])
            self._members[usergroup] = (now, members)
            return members
        # In none of the asker's workspaces (org-wide install): they are not its members.
        log.debug("user group %s is in none of the workspaces %s", usergroup, teams)
        return frozenset()


def _text(value: object) -> str | None:
    """A non-empty string from Slack's answer, else None (Slack sends null for "none")."""
    return value if isinstance(value, str) and value else None


def why_failed(exc: BaseException) -> str:
    """Slack's error code for a failed lookup, with the scope to add when the token lacks one
    (``needed``)."""
    code = error_code(exc)
    response = getattr(exc, "response", None)
    needed = response.get("needed") if code == "missing_scope" and response is not None else None
    if isinstance(needed, str) and needed:
        return f"{code}: the bot token lacks the {needed} scope; add it and reinstall the app"
    return code
