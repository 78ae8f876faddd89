"""The fake Slack's workspace: who the app is (``auth.test``), and the channels, people, user
groups and messages a test declares. Mixed into :class:`tests.fakes.slack_api.FakeSlackAPI`.

Enterprise Grid is modelled as Slack sends it. ``FakeSlackAPI(enterprise_id="E0ORG")`` is a
workspace of that organisation: ``auth.test`` adds ``enterprise_id`` and
``is_enterprise_install``, and its people carry ``enterprise_user`` (``enterprise_id``,
``teams``) in ``users.info``. ``org_install=True`` is an app installed on the whole
organisation: ``auth.test`` names no workspace (``team_id`` null), and each event's
``authorizations[0]`` has ``team_id`` null and ``is_enterprise_install`` true while the envelope's
``team_id`` is the workspace the event happened in (:meth:`SlackWorkspaceScript.envelope`). A
person of another workspace of the same organisation is ``add_user(…, team_id="T…",
enterprise_id="E0ORG")``; one of another organisation (Slack Connect) has another team and
enterprise, or ``is_stranger``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from tests.fakes.slack_methods import FakeSlackState

Json = dict[str, Any]


class SlackWorkspaceScript:
    """Declaring the workspace (or Enterprise Grid organisation) the fake pretends to be."""

    state: FakeSlackState
    team_id: str
    enterprise_id: str | None
    org_install: bool
    bot_user_id: str
    bot_id: str
    _next_ts: Callable[[], str]  # SlackWebMethods's clock

    def _m_auth_test(self, args: Json) -> Json:
        """Who the token is: the workspace, or for an org-wide install only the organisation."""
        identity: Json = {
            "ok": True,
            "url": "https://fake.slack.test/",
            "team": "Fake Team",
            "user": "citecast",
            "team_id": None if self.org_install else self.team_id,
            "user_id": self.bot_user_id,
            "bot_id": self.bot_id,
        }
        if self.enterprise_id is not None:
            identity.update(
                enterprise_id=self.enterprise_id, is_enterprise_install=self.org_install
            )
        return identity

    def envelope(
        self,
        event: Json,
        event_id: str,
        *,
        team: str | None = None,
        ext_shared: bool = False,
    ) -> Json:
        """The Events API callback Slack sends for ``event`` to this installation.

        ``team``: the workspace the event happened in (this one by default; another workspace
        of the organisation for an org-wide install). ``ext_shared``: the channel is shared
        with another organisation (Slack Connect).
        """
        self.keep_reply_of(event)  # Slack has the message an event is about
        where = team or self.team_id
        body: Json = {
            "token": "legacy",
            "team_id": where,
            "api_app_id": "A0APP",
            "event": event,
            "type": "event_callback",
            "event_id": event_id,
            "event_time": int(time.time()),
            "authorizations": [
                {
                    "enterprise_id": self.enterprise_id,
                    "team_id": None if self.org_install else self.team_id,
                    "user_id": self.bot_user_id,
                    "is_bot": True,
                    "is_enterprise_install": self.org_install,
                }
            ],
            "is_ext_shared_channel": ext_shared,
            "context_team_id": where,
            "context_enterprise_id": self.enterprise_id,
        }
        if self.enterprise_id is not None:
            body["enterprise_id"] = self.enterprise_id
        return body

    def add_channel(
        self,
        channel_id: str,
        kind: str = "public",
        name: str | None = None,
        *,
        shared: str | None = None,
        im_user: str | None = None,
    ) -> None:
        """Declare a channel: ``public``, ``private``, ``im`` or ``mpim``.

        ``shared``: ``"external"`` (Slack Connect, with another organisation), ``"pending"``
        (invited, not yet accepted) or ``"org"`` (across this organisation's workspaces).
        ``im_user``: for an ``im``, the person the bot's DM is with (conversations.info's
        ``user``; Slack always names them, an app is never in a DM between two others).
        """
        extra: Json = {"user": im_user} if kind == "im" and im_user else {}
        self.state.channels[channel_id] = {
            **extra,
            "id": channel_id,
            "name": name or channel_id.lower(),
            "is_channel": kind == "public",
            "is_group": kind == "private",
            "is_im": kind == "im",
            "is_mpim": kind == "mpim",
            "is_private": kind != "public",
            "is_shared": shared in ("external", "org"),
            "is_ext_shared": shared == "external",
            "is_org_shared": shared == "org",
            "is_pending_ext_shared": shared == "pending",
        }

    def add_user(
        self,
        user_id: str,
        email: str | None = None,
        *,
        is_bot: bool = False,
        name: str | None = None,
        team_id: str | None = None,
        is_stranger: bool = False,
        enterprise_id: str | None = None,
        teams: Sequence[str] = (),
    ) -> None:
        """Declare a user (``users.info``); ``name`` is their display and real name.

        ``team_id``: their home workspace, this one by default; another one makes them a
        Slack Connect user of another organisation, unless ``enterprise_id`` is this one's.
        ``is_stranger``: Slack's flag for an external person who shares no channel with this
        workspace. ``enterprise_id``: their Enterprise Grid organisation (``enterprise_user``;
        this one's by default for a person of this workspace), ``teams`` its workspaces they
        belong to (their home workspace by default).
        """
        profile: Json = {"email": email} if email else {}
        if name:
            profile.update(display_name=name, real_name=name)
        home = team_id or self.team_id
        user: Json = {
            "id": user_id,
            "team_id": home,
            "name": user_id.lower(),
            "is_bot": is_bot,
            "profile": profile,
        }
        if is_stranger:
            user["is_stranger"] = True
        grid = enterprise_id or (self.enterprise_id if team_id is None else None)
        if grid is not None:
            user["enterprise_user"] = {
                "id": user_id,
                "enterprise_id": grid,
                "enterprise_name": f"Org {grid}",
                "is_admin": False,
                "is_owner": False,
                "teams": list(teams) or [home],
            }
        self.state.users[user_id] = user

    def add_usergroup(self, group_id: str, users: list[str], *, team_id: str | None = None) -> None:
        """Declare a user group and its members (``usergroups.users.list``); ``team_id``: the
        workspace it is in (this one by default), which an org-wide token must name."""
        self.state.usergroups[group_id] = list(users)
        self.state.usergroup_teams[group_id] = team_id or self.team_id

    def add_message(
        self,
        channel: str,
        text: str,
        user: str,
        thread_ts: str | None = None,
        *,
        ts: str | None = None,
        **extra: Any,
    ) -> str:
        """Put a message into a channel (as if a person had written it); returns its ts.

        ``ts`` backdates it (history written before the test); by default it is written now.
        """
        ts = ts or self._next_ts()
        message = {"type": "message", "ts": ts, "user": user, "text": text, **extra}
        if thread_ts:
            message["thread_ts"] = thread_ts
        self.state.messages.setdefault(channel, []).append(message)
        return ts

    def keep_reply_of(self, event: Json) -> None:
        """Keep the thread reply an event is about in its thread, as Slack has it, when a test
        sent the event without adding the message first (a follow-up the bot checks is still
        there before answering it). Not one deleted meanwhile, nor a thread's first message."""
        channel, ts, thread_ts = event.get("channel"), event.get("ts"), event.get("thread_ts")
        if not (isinstance(channel, str) and isinstance(ts, str) and isinstance(thread_ts, str)):
            return
        if ts == thread_ts or event.get("subtype") or (channel, ts) in self.state.deleted:
            return
        if any(m["ts"] == ts for m in self.state.messages.get(channel, [])):
            return
        text, user = str(event.get("text") or ""), str(event.get("user") or "")
        self.add_message(channel, text, user, thread_ts, ts=ts)

    def delete_message(self, channel: str, ts: str) -> None:
        """A person deletes a message: with replies it stays as Slack's tombstone; without
        them it is gone, and a reply to it no longer lands in a thread (see slack_threads)."""
        messages = self.state.messages.setdefault(channel, [])
        self.state.deleted.add((channel, ts))
        for message in [m for m in messages if m["ts"] == ts]:
            if any(m.get("thread_ts") == ts and m["ts"] != ts for m in messages):
                message.update(
                    subtype="tombstone", text="This message was deleted.", user="USLACKBOT"
                )
            else:
                messages.remove(message)
