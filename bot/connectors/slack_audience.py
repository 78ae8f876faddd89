"""Who reads a Slack answer, and so which sources it may cite (DESIGN §7).

- A public channel: ``public_audience`` only. Anyone in the workspace can read the thread, so
  nothing about the asker widens it.
- A DM with the bot: ``public_audience`` plus the groups mapped from the user's email domain
  (``users.info``), from the user groups they belong to (``usergroups.users.list``) and from
  ``audience_by_channel`` for that DM. The user's own groups only when the DM is known to be
  theirs: the event is ``message.im`` (sent to the bot) or ``conversations.info`` names them as
  its ``user``. A ``D…`` channel whose lookup failed gets none.
- A person of another organisation (Slack Connect: ``is_stranger``, or a ``team_id`` other than
  this workspace's, outside its Enterprise Grid) never gets own groups, anywhere: an email
  domain or user group that maps them is the workspace's word about its own people. Only an
  ``audience_by_channel`` entry widens what they read. On Enterprise Grid the organisation's
  own people are those whose ``users.info`` ``enterprise_user.enterprise_id`` is the one
  ``auth.test`` names, whichever of its workspaces they belong to; an app installed on the
  whole organisation has no workspace of its own (``auth.test``: ``is_enterprise_install``, no
  ``team_id``), so there the organisation alone decides, and user groups are looked up in the
  asker's workspaces (an org-wide token must name one).
- A private channel or group DM: ``public_audience`` plus ``audience_by_channel``; the asker's own
  groups only when ``private_channels_use_user_groups`` is set, because every member reads it.
- A channel shared with another organisation (Slack Connect, ``is_ext_shared``, or an invitation
  pending): never the asker's own groups, whatever that setting says, since people outside the
  workspace read the answer. Only its explicit ``audience_by_channel`` mapping widens it.

Lookups that fail (Slack's refusal, a lost connection, a timeout) grant nothing, the safe
direction: an unknown channel counts as public, an unknown user has no groups; they are logged.
Results are cached for ``cache_seconds`` so a busy channel does not cost a ``users.info`` per
question, except a private channel's kind: it is read for every question, so one made public or
shared outside is treated as such from its next question on (a public channel made private gets
its mapping once its cached kind expires, the safe direction). A public channel's
``audience_by_channel`` mapping is ignored, and said so once per channel in the log. The same
``users.info`` answers name the people a question mentions (:meth:`SlackAudiences.display_name`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any, Literal

from slack_sdk.web.async_client import AsyncWebClient

from bot.config import SlackSettings
from bot.connectors.outbox_audience import ReadersUnknownError
from bot.connectors.slack_client import SLACK_CALL_ERRORS, error_code

log = logging.getLogger(__name__)

ChannelKind = Literal["public", "private", "im", "mpim"]
# Event channel types that settle the question without conversations.info. A private channel
# or group DM is always looked up: only its info says whether it is shared outside.
_EVENT_CHANNEL_TYPES: dict[str, ChannelKind] = {"channel": "public", "im": "im"}


class SlackAudiences:
    """Decides the audience (set of groups) of one Slack viewer in one conversation."""

    def __init__(
        self, client: AsyncWebClient, settings: SlackSettings, cache_seconds: float = 600.0
    ) -> None:
        self._client = client
        self._settings = settings
        self._ttl = cache_seconds
        self._kinds: dict[str, tuple[float, ChannelKind, bool]] = {}
        self._users: dict[str, tuple[float, dict[str, Any]]] = {}
        self._members: dict[str, tuple[float, frozenset[str]]] = {}
        self._said_emailless = False
        self._said_external: set[str] = set()
        self._said_shared: set[str] = set()  # shared channels mapped to private groups
        self._said_public: set[str] = set()  # public channels mapped all the same
        # (team_id, enterprise_id); team_id None for an org-wide install
        self._home: tuple[str | None, str | None] | None = None
        # The person each 1:1 DM is with (conversations.info's ``user``), cached with its kind.
        self._im_users: dict[str, str] = {}

    async def channel_kind(
        self, channel: str, event_channel_type: str | None = None
    ) -> ChannelKind:
        """``public``, ``private``, ``im`` or ``mpim`` (unknown channels count as public)."""
        kind, _ = await self._conversation(channel, event_channel_type)
        return kind

    async def _conversation(
        self, channel: str, event_channel_type: str | None = None, *, strict: bool = False
    ) -> tuple[ChannelKind, bool]:
        """The channel's kind, and whether people outside the workspace read it; ``strict``:
        a lookup that fails raises :class:`ReadersUnknownError` instead of counting as public."""
        if event_channel_type in _EVENT_CHANNEL_TYPES:
            return _EVENT_CHANNEL_TYPES[event_channel_type], False
        now = time.monotonic()
        cached = self._kinds.get(channel)
        if cached is not None and now - cached[0] < self._ttl:
            return cached[1], cached[2]
        try:
            response = await self._client.conversations_info(channel=channel)
            info = response.get("channel") or {}
        except SLACK_CALL_ERRORS as exc:
            if strict:
                raise ReadersUnknownError(
                    f"conversations.info {channel} failed ({_why(exc)}): who reads it is unknown"
                ) from None
            log.warning(
                "conversations.info %s failed (%s); treating it as a public channel: answers "
                "there cite only public_audience sources",
                channel,
                _why(exc),
            )
            # A D channel is a DM with the bot, but whose is unknown: no own groups there
            # (``for_viewer`` grants them only in a DM known to be the asker's).
            return ("im" if channel.startswith("D") else "public"), False
        external = bool(info.get("is_ext_shared") or info.get("is_pending_ext_shared"))
        kind: ChannelKind
        if info.get("is_im"):
            kind = "im"
        elif info.get("is_mpim"):
            kind = "mpim"
        elif info.get("is_private") or info.get("is_group"):
            kind = "private"
        else:
            kind = "public"
        im_user = info.get("user")
        if kind == "im" and isinstance(im_user, str):
            self._im_users[channel] = im_user
        if kind in ("public", "im") and not external:
            # Only answers that cannot widen an audience are cached: a private channel made
            # public or shared with another organisation must count as that at once.
            self._kinds[channel] = (now, kind, external)
        return kind, external

    async def for_viewer(
        self,
        channel: str,
        user: str | None,
        event_channel_type: str | None = None,
        *,
        strict: bool = False,
    ) -> frozenset[str]:
        """The groups whose sources may be cited to ``user`` in ``channel``. ``strict`` (the
        outbox judging a queued answer again): a channel lookup that fails raises
        :class:`ReadersUnknownError` rather than counting as public, so a Slack outage keeps
        the answer queued instead of dropping it."""
        settings = self._settings
        groups = set(settings.public_audience)
        kind, external = await self._conversation(channel, event_channel_type, strict=strict)
        if kind == "public":
            self._warn_public(channel)
            return frozenset(groups)
        groups.update(settings.audience_by_channel.get(channel, ()))
        if external:
            self._warn_shared(channel)
        if kind == "im":
            # An app is never a member of a 1:1 DM between two other people, yet only a DM
            # known to be the asker's own (the message.im event, or conversations.info's
            # ``user``) is read by the asker alone.
            own_groups = event_channel_type == "im" or (
                user is not None and self._im_users.get(channel) == user
            )
        else:
            own_groups = settings.private_channels_use_user_groups
        if user and own_groups and not external:
            groups.update(await self.user_groups(user))
        return frozenset(groups)

    def _warn_public(self, channel: str) -> None:
        """Say once that ``channel``, mapped by ``audience_by_channel``, is public, so its
        mapping is ignored: an admin who mapped it expects its answers to cite those groups."""
        mapped = set(self._settings.audience_by_channel.get(channel, ()))
        mapped -= set(self._settings.public_audience)
        if not mapped or channel in self._said_public:
            return
        self._said_public.add(channel)
        log.warning(
            "Slack channel %s is public, so slack.audience_by_channel's mapping of it to %s is "
            "ignored: answers there cite only public_audience sources (the whole workspace "
            "reads them); make the channel private to use the mapping, or remove it",
            channel,
            ", ".join(sorted(mapped)),
        )

    def _warn_shared(self, channel: str) -> None:
        """Say once that ``channel``, read by another organisation (Slack Connect), still gets
        the non-public groups ``audience_by_channel`` maps it to: a private channel shared
        after it was mapped would otherwise show its sources to outsiders silently."""
        mapped = set(self._settings.audience_by_channel.get(channel, ()))
        mapped -= set(self._settings.public_audience)
        if not mapped or channel in self._said_shared:
            return
        self._said_shared.add(channel)
        log.warning(
            "Slack channel %s is shared with another organisation (Slack Connect) and "
            "slack.audience_by_channel maps it to %s: answers there cite those sources to "
            "everyone in it, the other organisation's people too; remove the mapping if they "
            "may not read them",
            channel,
            ", ".join(sorted(mapped)),
        )

    async def for_private_view(self, channel: str, user: str) -> frozenset[str]:
        """The audience of an ephemeral answer: only ``user`` reads it, wherever it appears."""
        groups = set(self._settings.public_audience)
        if await self.channel_kind(channel) != "public":
            groups.update(self._settings.audience_by_channel.get(channel, ()))
        groups.update(await self.user_groups(user))
        return frozenset(groups)

    async def user_groups(self, user: str) -> set[str]:
        """Groups mapped from the user's email domain and user-group memberships; none for a
        person of another organisation (:meth:`_is_external`)."""
        groups = await self._mapped_groups(user)
        if groups and await self._is_external(user):
            return set()
        return groups

    async def _mapped_groups(self, user: str) -> set[str]:
        settings = self._settings
        groups: set[str] = set()
        if settings.audience_by_email_domain:
            email = await self._email(user)
            if email and "@" in email:
                domain = email.rsplit("@", 1)[1].lower()
                for key, mapped in settings.audience_by_email_domain.items():
                    if key.lower().lstrip("@") == domain:
                        groups.update(mapped)
        teams = await self._group_teams(user) if settings.audience_by_usergroup else ()
        for usergroup, mapped in settings.audience_by_usergroup.items():
            if user in await self._usergroup_members(usergroup, teams):
                groups.update(mapped)
        return groups

    async def _group_teams(self, user: str) -> tuple[str | None, ...]:
        """Where to look user groups up: (None,) for a workspace's token; for an org-wide one,
        which must name a workspace (``team_id``), the asker's workspaces (a group's members
        belong to its workspace, so a group the asker is in is in one of theirs)."""
        home = await self._home_team()
        if home is None or home[0] is not None:
            return (None,)
        info = await self._user(user, "no user-group groups")
        grid = info.get("enterprise_user") or {}
        found = [t for t in grid.get("teams") or [info.get("team_id")] if _text(t)]
        return tuple(found) or (None,)

    async def _is_external(self, user: str) -> bool:
        """True for a person of another organisation (Slack Connect), or when that cannot be
        told (this workspace's identity unknown): own groups are the workspace's own."""
        info = await self._user(user, "no email-based groups")
        home = await self._home_team()
        team = info.get("team_id")
        enterprise = (info.get("enterprise_user") or {}).get("enterprise_id")
        if info.get("is_stranger"):
            why = "Slack marks them as a stranger (is_stranger)"
        elif home is None:
            why = "this workspace's identity is unknown (auth.test failed)"
        elif home[1] is not None and enterprise == home[1]:
            return False  # a workspace of this Enterprise Grid organisation, maybe another
        elif home[0] is None:
            # an org-wide install: only the organisation tells its people from others
            why = f"they are not in this Enterprise Grid organisation ({home[1]})"
        elif isinstance(team, str) and team and team != home[0]:
            why = f"their workspace {team} is not this one ({home[0]})"
        else:
            return False
        if user not in self._said_external:
            self._said_external.add(user)
            log.info(
                "Slack user %s is from another organisation: %s; their email domain and user "
                "groups grant nothing, only public_audience and audience_by_channel apply",
                user,
                why,
            )
        return True

    async def _home_team(self) -> tuple[str | None, str | None] | None:
        """This workspace's ``team_id`` and Enterprise Grid ``enterprise_id`` (auth.test, kept
        once known); None when the lookup fails (logged, tried again next time) or names
        neither. An org-wide install has the organisation and no workspace: (None, "E…")."""
        if self._home is None:
            try:
                response = await self._client.auth_test()
            except SLACK_CALL_ERRORS as exc:
                log.warning("auth.test failed (%s); askers' own groups are not granted", _why(exc))
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

    async def _email(self, user: str) -> str | None:
        info = await self._user(user, "no email-based groups")
        email = (info.get("profile") or {}).get("email")
        return email if isinstance(email, str) else None

    async def display_name(self, user: str) -> str | None:
        """How Slack shows ``user`` (display name, else real name); None when unknown."""
        info = await self._user(user, "the mention stays an id")
        profile = info.get("profile") or {}
        for name in (profile.get("display_name"), profile.get("real_name"), info.get("name")):
            if isinstance(name, str) and name.strip():
                return name.strip()
        return None

    async def _user(self, user: str, consequence: str) -> dict[str, Any]:
        """``users.info``'s user object, cached; {} when the lookup fails (logged)."""
        now = time.monotonic()
        cached = self._users.get(user)
        if cached is not None and now - cached[0] < self._ttl:
            return cached[1]
        try:
            response = await self._client.users_info(user=user)
        except SLACK_CALL_ERRORS as exc:
            log.warning("users.info %s failed (%s); %s", user, _why(exc), consequence)
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

    async def _usergroup_members(
        self, usergroup: str, teams: tuple[str | None, ...] = (None,)
    ) -> frozenset[str]:
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
                log.warning(
                    "usergroups.users.list %s failed (%s); its audience_by_usergroup groups "
                    "are not granted",
                    usergroup,
                    _why(exc),
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


def _why(exc: BaseException) -> str:
    """Slack's error code, with the scope to add when the token lacks one (``needed``)."""
    code = error_code(exc)
    response = getattr(exc, "response", None)
    needed = response.get("needed") if code == "missing_scope" and response is not None else None
    if isinstance(needed, str) and needed:
        return f"{code}: the bot token lacks the {needed} scope; add it and reinstall the app"
    return code
