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
Not so for the outbox judging a queued answer again (``strict``): there a failed lookup, of the
channel or of the asker (``users.info``, ``usergroups.users.list``, ``auth.test``), raises
``ReadersUnknownError`` and the answer waits for another try, rather than being dropped as if
its readers had changed. The asker's lookups are ``directory``'s
(:class:`~bot.connectors.slack_directory.SlackDirectory`), cached for ``cache_seconds`` so a
busy channel does not cost a ``users.info`` per question; a channel's kind is cached here,
except a private channel's: it is read for every question, so one made public or shared
outside is treated as such from its next question on (a public channel made private gets its
mapping once its cached kind expires, the safe direction). A public channel's
``audience_by_channel`` mapping is ignored, and said so once per channel in the log.
"""

from __future__ import annotations

import logging
import time
from typing import Literal

from slack_sdk.web.async_client import AsyncWebClient

from bot.config import SlackSettings
from bot.connectors.outbox_audience import ReadersUnknownError
from bot.connectors.slack_client import SLACK_CALL_ERRORS
from bot.connectors.slack_directory import SlackDirectory, why_failed

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
        self.directory = SlackDirectory(client, settings, cache_seconds)
        self._kinds: dict[str, tuple[float, ChannelKind, bool]] = {}
        self._said_external: set[str] = set()
        self._said_shared: set[str] = set()  # shared channels mapped to private groups
        self._said_public: set[str] = set()  # public channels mapped all the same
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
                    f"conversations.info {channel} failed ({why_failed(exc)}): who reads it is "
                    f"unknown"
                ) from None
            log.warning(
                "conversations.info %s failed (%s); treating it as a public channel: answers "
                "there cite only public_audience sources",
                channel,
                why_failed(exc),
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
        outbox judging a queued answer again): a lookup that fails, of the channel or of the
        asker's groups, raises :class:`ReadersUnknownError` rather than counting as public or
        granting fewer groups, so a Slack outage keeps the answer queued instead of dropping
        it."""
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
            groups.update(await self.user_groups(user, strict=strict))
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

    async def user_groups(self, user: str, *, strict: bool = False) -> set[str]:
        """Groups mapped from the user's email domain and user-group memberships; none for a
        person of another organisation (:meth:`_is_external`). ``strict``: a lookup that fails
        raises :class:`ReadersUnknownError` instead of granting fewer."""
        groups = await self._mapped_groups(user, strict)
        if groups and await self._is_external(user, strict):
            return set()
        return groups

    async def _mapped_groups(self, user: str, strict: bool) -> set[str]:
        settings = self._settings
        groups: set[str] = set()
        if settings.audience_by_email_domain:
            email = await self.directory.email(user, strict=strict)
            if email and "@" in email:
                domain = email.rsplit("@", 1)[1].lower()
                for key, mapped in settings.audience_by_email_domain.items():
                    if key.lower().lstrip("@") == domain:
                        groups.update(mapped)
        teams = await self._group_teams(user, strict) if settings.audience_by_usergroup else ()
        for usergroup, mapped in settings.audience_by_usergroup.items():
            if user in await self.directory.usergroup_members(usergroup, teams, strict=strict):
                groups.update(mapped)
        return groups

    async def _group_teams(self, user: str, strict: bool) -> tuple[str | None, ...]:
        """Where to look user groups up: (None,) for a workspace's token; for an org-wide one,
        which must name a workspace (``team_id``), the asker's workspaces (a group's members
        belong to its workspace, so a group the asker is in is in one of theirs)."""
        home = await self.directory.home_team(strict=strict)
        if home is None or home[0] is not None:
            return (None,)
        info = await self.directory.user(user, "no user-group groups", strict=strict)
        grid = info.get("enterprise_user") or {}
        found = [t for t in grid.get("teams") or [info.get("team_id")] if isinstance(t, str) and t]
        return tuple(found) or (None,)

    async def _is_external(self, user: str, strict: bool) -> bool:
        """True for a person of another organisation (Slack Connect), or when that cannot be
        told (this workspace's identity unknown): own groups are the workspace's own."""
        info = await self.directory.user(user, "no email-based groups", strict=strict)
        home = await self.directory.home_team(strict=strict)
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
