"""The state of the fake Discord: users, guilds, roles, channels, threads and messages.

Builders return Discord's own JSON shapes (ids as strings, snowflakes carrying the time), the
same payloads the gateway sends (GUILD_CREATE, MESSAGE_CREATE, MESSAGE_UPDATE: an edit, or
link previews, whole or partial) and the REST API returns. A reply read back (a fetch, a
channel's history, an edit) carries the message it replies to as it reads now (``as_read``),
and null there once that message is deleted, as Discord's does.

Permissions are Discord's: a guild is owned by someone other than the bot, @everyone holds the
default text permissions, and the bot holds its own managed integration role (``tags.bot_id``,
created when a bot is invited with permissions). ``tests.fakes.discord_access`` applies channel
overwrites the way Discord does (@everyone, then roles, then the member), so a channel hidden
from @everyone is hidden from the bot too unless an overwrite lets it in.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from tests.fakes.discord_access import BOT_INVITE_PERMISSIONS, EVERYONE_DEFAULT

DISCORD_EPOCH_MS = 1_420_070_400_000


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class DiscordWorld:
    """Guilds, channels, members and messages, kept as Discord JSON."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.bot_user = self._user(self.snowflake(), "citecast", bot=True)
        self.users: dict[int, dict[str, Any]] = {int(self.bot_user["id"]): self.bot_user}
        self.guilds: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.members: dict[tuple[int, int], dict[str, Any]] = {}
        self.owner = self._user(self.snowflake(), "owner")
        self.users[int(self.owner["id"])] = self.owner
        self.bot_roles: dict[int, int] = {}
        # DM channels whose user blocked the bot (or closed DMs): Discord refuses with 50007
        self.closed_dms: set[int] = set()

    def snowflake(self) -> int:
        """A fresh snowflake id carrying the current time, as Discord's do."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def _user(self, uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": str(uid),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
        }

    def add_user(self, name: str, *, bot: bool = False) -> dict[str, Any]:
        user = self._user(self.snowflake(), name, bot=bot)
        self.users[int(user["id"])] = user
        return user

    def add_guild(self, name: str = "Guild", *, premium_tier: int = 0) -> int:
        gid = self.snowflake()
        self.guilds[gid] = {
            "id": str(gid),
            "name": name,
            "unavailable": False,
            "owner_id": self.owner["id"],
            "premium_tier": premium_tier,
            "roles": [self._role(gid, "@everyone", EVERYONE_DEFAULT)],
            "channels": [],
            "threads": [],
            "members": [],
            "member_count": 1,
            "features": [],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "large": False,
            "joined_at": now_iso(),
        }
        bot_role = self.add_bot_role(gid, self.bot_user, permissions=BOT_INVITE_PERMISSIONS)
        self.bot_roles[gid] = bot_role
        self.add_member(gid, self.bot_user, roles=[bot_role])
        return gid

    def bot_role(self, guild_id: int) -> int:
        """The bot's own managed integration role in a guild."""
        return self.bot_roles[guild_id]

    def _role(self, rid: int, name: str, permissions: int = 0) -> dict[str, Any]:
        return {
            "id": str(rid),
            "name": name,
            "permissions": str(permissions),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def add_role(
        self,
        guild_id: int,
        name: str,
        *,
        permissions: int = 0,
        tags: dict[str, str | None] | None = None,
        role_id: int | None = None,
    ) -> int:
        """A role; ``tags`` as Discord sends them make it managed (``bot_id``: a bot's own
        role, ``integration_id``: an integration's, ``premium_subscriber: None``: the booster
        role, whose flag is the key's presence with a null value). ``role_id``: an id taken
        earlier with :meth:`snowflake` (a role created after the bot connected)."""
        rid = role_id or self.snowflake()
        role = self._role(rid, name, permissions)
        if tags is not None:
            role["managed"] = True
            role["tags"] = dict(tags)
        self.guilds[guild_id]["roles"].append(role)
        return rid

    def add_bot_role(self, guild_id: int, bot: dict[str, Any], *, permissions: int = 0) -> int:
        """The managed role Discord creates for ``bot`` when it joins a guild (``tags.bot_id``);
        nobody can give it to anyone else."""
        return self.add_role(
            guild_id, bot["username"], permissions=permissions, tags={"bot_id": bot["id"]}
        )

    def add_member(self, guild_id: int, user: dict[str, Any], roles: Sequence[int] = ()) -> None:
        member = {
            "user": user,
            "roles": [str(r) for r in roles],
            "joined_at": now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
        }
        self.members[(guild_id, int(user["id"]))] = member
        if user is self.bot_user:
            self.guilds[guild_id]["members"].append(member)

    def add_channel(
        self,
        guild_id: int,
        name: str,
        *,
        kind: int = 0,
        view_only_roles: list[int] | None = None,
        view_only_members: Sequence[int] = (),
    ) -> int:
        """A text (0) or forum (15) channel.

        ``view_only_roles`` hides it from @everyone and lets those roles (and the users in
        ``view_only_members``) view it, as permission overwrites do on Discord.
        """
        cid = self.snowflake()
        overwrites: list[dict[str, Any]] = []
        if view_only_roles is not None:
            view = 1 << 10
            overwrites.append({"id": str(guild_id), "type": 0, "allow": "0", "deny": str(view)})
            overwrites += [
                {"id": str(r), "type": 0, "allow": str(view), "deny": "0"} for r in view_only_roles
            ]
            overwrites += [
                {"id": str(u), "type": 1, "allow": str(view), "deny": "0"}
                for u in view_only_members
            ]
        channel = {
            "id": str(cid),
            "type": kind,
            "guild_id": str(guild_id),
            "name": name,
            "position": len(self.guilds[guild_id]["channels"]),
            "permission_overwrites": overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
        }
        if kind == 15:
            channel.update({"available_tags": [], "flags": 0, "default_reaction_emoji": None})
        self.guilds[guild_id]["channels"].append(channel)
        self.channels[cid] = channel
        return cid

    def thread_payload(self, guild_id: int, parent_id: int, name: str, owner: int) -> int:
        """Register a public thread (e.g. a forum post) and return its id."""
        tid = self.snowflake()
        self.channels[tid] = {
            "id": str(tid),
            "type": 11,
            "guild_id": str(guild_id),
            "parent_id": str(parent_id),
            "name": name,
            "owner_id": str(owner),
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "applied_tags": [],
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": now_iso(),
                "locked": False,
            },
        }
        return tid

    def open_dm(self, user: dict[str, Any]) -> int:
        cid = self.snowflake()
        self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [user]}
        return cid

    def user_message(
        self,
        channel_id: int,
        author: dict[str, Any],
        content: str,
        *,
        mention_bot: bool = False,
        mention_role: int | None = None,
        reply_to: int | None = None,
        message_id: int | None = None,
    ) -> dict[str, Any]:
        """A MESSAGE_CREATE payload from ``author`` (stored so it can be fetched later).

        ``mention_role`` starts the message with that role's mention (``<@&id>``), as Discord's
        client writes it when ``@name`` autocompletes to a role.
        """
        channel = self.channels[channel_id]
        mid = message_id or self.snowflake()
        if mention_bot:
            content = f"<@{self.bot_user['id']}> {content}"
        if mention_role is not None:
            content = f"<@&{mention_role}> {content}"
        data: dict[str, Any] = self._message(mid, channel_id, author, content)
        if mention_bot:
            data["mentions"] = [self.bot_user]
        if mention_role is not None:
            data["mention_roles"] = [str(mention_role)]
        guild_id = channel.get("guild_id")
        if guild_id is not None:
            data["guild_id"] = guild_id
            member = self.members.get((int(guild_id), int(author["id"])))
            if member is not None:
                data["member"] = {k: v for k, v in member.items() if k != "user"}
        if reply_to is not None:
            data["type"] = 19
            data["message_reference"] = {
                "message_id": str(reply_to),
                "channel_id": str(channel_id),
                **({"guild_id": guild_id} if guild_id else {}),
            }
            if reply_to in self.messages:
                data["referenced_message"] = self._as_referenced(self.messages[reply_to])
        self.messages[mid] = data
        # as Discord's channel objects (GUILD_CREATE, GET /channels/{id}) say
        channel["last_message_id"] = str(mid)
        return data

    def edited_message(self, message_id: int, content: str) -> dict[str, Any]:
        """The MESSAGE_UPDATE of a person editing ``message_id`` to ``content`` (stored).

        As on Discord: the whole message as edited, ``edited_timestamp`` set, and its mentions
        worked out again from the new text (an edit can add or remove the bot's mention).
        """
        data = dict(self.messages[message_id])
        data["content"] = content
        data["edited_timestamp"] = now_iso()
        # as Discord: a mention written in a code block or span is text, not a mention
        pinging = re.sub(r"```.*?```|`[^`]*`", "", content, flags=re.DOTALL)
        users = {int(uid) for uid in re.findall(r"<@!?(\d+)>", pinging)}
        data["mentions"] = [self.users[uid] for uid in sorted(users) if uid in self.users]
        data["mention_roles"] = re.findall(r"<@&(\d+)>", pinging)
        self.messages[message_id] = data
        return self.as_read(data)

    def link_previews(self, message_id: int, *, partial: bool = True) -> dict[str, Any]:
        """The MESSAGE_UPDATE Discord sends when it adds link previews to ``message_id``.

        ``partial``: only ``id``, ``channel_id``, ``guild_id`` and ``embeds``, as Discord
        documents an update may be; else the whole message with ``edited_timestamp`` untouched
        (a preview is no edit by the author).
        """
        data = dict(self.messages[message_id])
        found = re.findall(r"https?://\S+", data["content"])
        data["embeds"] = [{"type": "link", "url": url} for url in found[:1]]
        self.messages[message_id] = data
        if not partial:
            return self.as_read(data)
        keys = ("id", "channel_id", "guild_id", "embeds")
        return {key: data[key] for key in keys if key in data}

    def _message(
        self, mid: int, channel_id: int, author: dict[str, Any], content: str
    ) -> dict[str, Any]:
        return {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": author,
            "content": content,
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": [],
        }

    def as_read(self, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` as Discord serves it now (a fetch, a channel's history, an edit's
        MESSAGE_UPDATE): a reply carries
        the message it replies to as that reads now in ``referenced_message``, and null there
        once that message is deleted (the ``message_reference`` stays)."""
        ref = message.get("message_reference")
        if message.get("type") != 19 or not ref or ref.get("type", 0) != 0:
            return message
        replied = self.messages.get(int(ref["message_id"]))
        return {
            **message,
            "referenced_message": None if replied is None else self._as_referenced(replied),
        }

    @staticmethod
    def _as_referenced(message: dict[str, Any]) -> dict[str, Any]:
        """``message`` as another's ``referenced_message``: Discord nests one level only."""
        return {k: v for k, v in message.items() if k != "referenced_message"}

    def messages_in(self, channel_id: int) -> list[dict[str, Any]]:
        """The bot's messages in a channel as they are now (after edits), oldest first."""
        return [
            m
            for m in self.messages.values()
            if int(m["channel_id"]) == channel_id and m["author"]["id"] == self.bot_user["id"]
        ]
