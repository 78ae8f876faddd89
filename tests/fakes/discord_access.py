"""What the fake Discord lets the bot do in a channel: permissions and upload limits.

Permissions are computed as Discord computes them: the guild owner and Administrator may do
everything; otherwise the bot's roles' permissions, then the channel's @everyone overwrite, then
its role overwrites together, then its member overwrite (threads follow their parent channel).
Without View Channel the bot gets 403 "Missing Access" (50001) for anything in the channel; a
send without Send Messages (Send Messages in Threads in a thread), a fetch without Read Message
History, or files without Attach Files get 403 "Missing Permissions" (50013); a reply without
Read Message History gets 403 "Cannot reply without permission to read message history"
(160002), as Discord answers it. In a locked thread only Manage Threads may write: without it
a write there gets 400 "Thread is archived" (50083) when the thread is archived too, else 403
"Thread is locked" (160005); a write in an archived thread that is not locked unarchives it,
as a message from whoever may send there does on Discord. A DM to a user
in ``closed_dms`` gets 403 "Cannot send messages to this user" (50007); without Embed
Links the bot's embeds are dropped (a message of embeds alone: 50013). Upload limits are
Discord's own: 10 MiB per file in DMs and unboosted guilds, more at boost tiers 2 and 3, and
25 MiB per request (all of a message's files together), or a boosted file's limit if larger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakes.discord_limits import MAX_REQUEST_BYTES, DiscordFormError, UploadedFile

if TYPE_CHECKING:
    from tests.fakes.discord_world import DiscordWorld

ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1
# what @everyone holds in a new guild, as far as a text bot is concerned
EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | SEND_MESSAGES_IN_THREADS
)
# the permissions the README's invite link asks for, held by the bot's managed role
BOT_INVITE_PERMISSIONS = EVERYONE_DEFAULT
UPLOAD_LIMIT_BY_TIER = {0: 10 << 20, 1: 10 << 20, 2: 50 << 20, 3: 100 << 20}
THREAD_TYPES = (10, 11, 12)
MISSING_ACCESS: dict[str, Any] = {"message": "Missing Access", "code": 50001}
MISSING_PERMISSIONS: dict[str, Any] = {"message": "Missing Permissions", "code": 50013}
CANNOT_DM: dict[str, Any] = {"message": "Cannot send messages to this user", "code": 50007}
CANNOT_REPLY: dict[str, Any] = {
    "message": "Cannot reply without permission to read message history",
    "code": 160002,
}
THREAD_ARCHIVED: dict[str, Any] = {"message": "Thread is archived", "code": 50083}
THREAD_LOCKED: dict[str, Any] = {"message": "Thread is locked", "code": 160005}


def bot_permissions(world: DiscordWorld, channel_id: int) -> int:
    """The bot's permissions in a channel, computed as Discord does (a DM: everything)."""
    channel = world.channels[channel_id]
    if channel.get("parent_id") is not None and channel.get("type") in THREAD_TYPES:
        channel = world.channels[int(channel["parent_id"])]  # threads follow their parent
    guild_id = channel.get("guild_id")
    if guild_id is None:
        return ALL_PERMISSIONS
    gid = int(guild_id)
    guild = world.guilds[gid]
    if guild["owner_id"] == world.bot_user["id"]:
        return ALL_PERMISSIONS
    member = world.members[(gid, int(world.bot_user["id"]))]
    mine = {str(gid), *member["roles"]}
    allowed = 0
    for role in guild["roles"]:
        if role["id"] in mine:
            allowed |= int(role["permissions"])
    if allowed & ADMINISTRATOR:
        return ALL_PERMISSIONS
    overwrites = {o["id"]: o for o in channel.get("permission_overwrites") or []}
    everyone = overwrites.get(str(gid))
    if everyone is not None:
        allowed = (allowed & ~int(everyone["deny"])) | int(everyone["allow"])
    deny = allow = 0
    for oid, overwrite in overwrites.items():
        if overwrite["type"] == 0 and oid != str(gid) and oid in mine:
            deny |= int(overwrite["deny"])
            allow |= int(overwrite["allow"])
    allowed = (allowed & ~deny) | allow
    own = overwrites.get(world.bot_user["id"])
    if own is not None and own["type"] == 1:
        allowed = (allowed & ~int(own["deny"])) | int(own["allow"])
    return allowed


def permission_refusal(
    world: DiscordWorld, method: str, parts: list[str], cid: int
) -> tuple[int, dict[str, Any]] | None:
    """Discord's 403 (status, body) when the bot may not make this channel request, else None."""
    allowed = bot_permissions(world, cid)
    if not allowed & VIEW_CHANNEL:
        return 403, MISSING_ACCESS
    if cid in world.closed_dms and method == "POST" and parts[2:] == ["messages"]:
        return 403, CANNOT_DM
    in_thread = world.channels[cid].get("type") in THREAD_TYPES
    send = SEND_MESSAGES_IN_THREADS if in_thread else SEND_MESSAGES
    needed = 0
    if method == "POST" and parts[2:] in (["messages"], ["typing"]):
        needed = send
    elif method == "GET" and parts[2:3] == ["messages"]:
        needed = READ_MESSAGE_HISTORY
    if allowed & needed != needed:
        return 403, MISSING_PERMISSIONS
    if in_thread and method in ("POST", "PATCH", "DELETE"):
        return thread_refusal(world.channels[cid], allowed)
    return None


def thread_refusal(thread: dict[str, Any], allowed: int) -> tuple[int, dict[str, Any]] | None:
    """Discord's refusal of a write in a locked ``thread`` without Manage Threads, else None;
    a write to an archived thread that may be unarchived unarchives it."""
    metadata = thread.get("thread_metadata") or {}
    if metadata.get("locked") and not allowed & MANAGE_THREADS:
        return (400, THREAD_ARCHIVED) if metadata.get("archived") else (403, THREAD_LOCKED)
    metadata["archived"] = False
    return None


def check_attach(world: DiscordWorld, cid: int, files: list[UploadedFile]) -> None:
    """Raise Discord's 403 for files in a channel where the bot lacks Attach Files."""
    if files and not bot_permissions(world, cid) & ATTACH_FILES:
        raise DiscordFormError(403, MISSING_PERMISSIONS)


def check_reply(world: DiscordWorld, cid: int, reference: object) -> None:
    """Raise Discord's 403 for a reply where the bot lacks Read Message History."""
    if reference and not bot_permissions(world, cid) & READ_MESSAGE_HISTORY:
        raise DiscordFormError(403, CANNOT_REPLY)


def shown_embeds(
    world: DiscordWorld, cid: int, content: str, embeds: list[Any], has_files: bool
) -> list[Any]:
    """The embeds Discord keeps from the bot: none without Embed Links (then a message of
    nothing but embeds is refused with 403 Missing Permissions)."""
    if not embeds or bot_permissions(world, cid) & EMBED_LINKS:
        return embeds
    if not (content or has_files):
        raise DiscordFormError(403, MISSING_PERMISSIONS)
    return []


def upload_limit(world: DiscordWorld, channel_id: int) -> int:
    """The largest file Discord takes in this channel: the guild's boost tier's, or a DM's."""
    guild_id = world.channels[channel_id].get("guild_id")
    tier = 0 if guild_id is None else int(world.guilds[int(guild_id)]["premium_tier"])
    return UPLOAD_LIMIT_BY_TIER[tier]


def request_limit(world: DiscordWorld, channel_id: int) -> int:
    """The most one create or edit request may carry in this channel, files and JSON together:
    Discord's documented 25 MiB, or, in a guild whose boost lets one file be larger, that
    file's limit (Discord takes such a file, so it takes a request that large)."""
    return max(MAX_REQUEST_BYTES, upload_limit(world, channel_id))
