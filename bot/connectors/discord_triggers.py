"""Which Discord messages are questions for the bot, and whether it may answer where they are.

A question is written by a person: never by a bot, a webhook (``webhook_id``: Discord does not
promise a webhook's author carries the bot flag), or Discord itself. System messages such as
"Alice pinned a message" or the first message of a thread started from the bot's answer carry a
``message_reference`` to the bot's message without being replies, and a forward of the bot's
answer references it too; none of them asks anything, so only ordinary messages and real
replies count. A reply is to a message in its own channel: a reference into another channel
(which Discord's client never makes, but a crafted or third-party request can) is no reply,
since following it would carry that channel's answer, and its audience, into this one.

The bot is mentioned by ``<@id>``, ``<@!id>`` (both arrive in ``mentions``) or by its own
managed role: typing ``@citecast`` in a guild often picks that role (the one Discord made for
the bot, ``tags.bot_id`` its id) instead of its user. Any other role it holds, such as a shared
@Moderators, is pinged for its people, not for the bot: it summons the bot only when listed in
``discord.summon_roles``, and a role the bot does not hold never does. :func:`trigger_of` says
why a message is a question (a DM, a mention in scope, a reply to the bot, a new forum post),
for a new message and for an edited one alike.

Before the assistant runs, the bot's cached permissions in the channel are checked: where it
cannot view or post, or may not read the history (Discord refuses a reply without Read Message
History, and everything the bot sends is a reply), the answer could never arrive, so it is
neither computed nor attempted. A locked thread (archived or not) takes messages only from
members with Manage Threads, so without it the bot does not answer there either; an archived
thread that is not locked is unarchived by the answer. Where it may not embed links, sources
are listed as text even when ``discord.embeds`` is on, and where it may not attach files,
cited files are shown by their signed link or name instead of being refused.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from typing import Literal

import discord

from bot.config import DiscordSettings

log = logging.getLogger(__name__)
# why the bot answers a message
Trigger = Literal["dm", "mention", "reply", "forum"]
# the message types a person writes a question as; everything else is made by Discord
QUESTION_TYPES = (discord.MessageType.default, discord.MessageType.reply)


def written_by_a_person(message: discord.Message, me_id: int) -> bool:
    """Whether a person (not the bot, another bot, a webhook or Discord) wrote ``message``."""
    return (
        message.author.id != me_id
        and not message.author.bot
        and message.webhook_id is None
        and message.type in QUESTION_TYPES
    )


def is_reply(message: discord.Message) -> bool:
    """Whether ``message`` is a real reply (not a forward or a system message's reference) to a
    message in its own channel."""
    ref = message.reference
    return (
        message.type == discord.MessageType.reply
        and ref is not None
        and ref.type == discord.MessageReferenceType.reply
        and ref.channel_id == message.channel.id
    )


def summoning_role_ids(guild: discord.Guild | None, summon_roles: Collection[int]) -> set[int]:
    """The roles whose mention in ``guild`` mentions the bot: its own managed role, and the
    roles of ``summon_roles`` (``discord.summon_roles``) that it holds there."""
    if guild is None:
        return set()
    # found by its tags (bot_id), as discord.py does: the role Discord made for this bot alone
    own = guild.self_role
    found = {own.id} if own is not None else set()
    me = guild.me
    if me is not None and summon_roles:
        wanted = set(summon_roles)
        found |= {role.id for role in me.roles if role.id in wanted and not role.is_default()}
    return found


def unheld_summon_roles(
    guilds: Iterable[discord.Guild], summon_roles: Collection[int]
) -> list[int]:
    """The ids of ``summon_roles`` the bot holds in none of ``guilds``: their mentions are not
    answered (a wrong id, or a role not given to the bot), which an operator should hear of."""
    held = {role.id for guild in guilds if guild.me is not None for role in guild.me.roles}
    return [role_id for role_id in summon_roles if role_id not in held]


def mentions_me(message: discord.Message, me_id: int, settings: DiscordSettings) -> bool:
    """Whether ``message`` mentions the bot, by user (either form) or by a summoning role.

    Both are read from the mentions Discord found (``mentions``, ``mention_roles``), never from
    the text: Discord leaves out ``<@id>`` and ``<@&id>`` written in a code span or block (a
    pasted config, a log line), which pings nobody, and so summons nobody either.
    """
    if any(user.id == me_id for user in message.mentions):
        return True
    if not message.role_mentions:
        return False
    summoning = summoning_role_ids(message.guild, settings.summon_roles)
    return any(role.id in summoning for role in message.role_mentions)


def missing_permission(channel: object) -> str | None:
    """The permission the bot lacks to answer in a guild ``channel``, from the cache, or None.

    None too where it cannot be told (a DM, or a channel not in the cache): then sending is
    simply tried, and a refusal is reported by ``discord_send``.
    """
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    me = channel.guild.me
    if me is None or (isinstance(channel, discord.Thread) and channel.parent is None):
        return None  # a thread's permissions are its parent's, which is not cached
    permissions = channel.permissions_for(me)
    if not permissions.view_channel:
        return "View Channels"
    if isinstance(channel, discord.Thread):
        if not permissions.send_messages_in_threads:
            return "Send Messages in Threads"
        if channel.locked and not permissions.manage_threads:
            # archived or not, Discord lets only Manage Threads write in a locked thread (an
            # archived one that is not locked is unarchived by the answer)
            return "Manage Threads (the thread is locked)"
    elif not permissions.send_messages:
        return "Send Messages"
    # every answer, part and notice replies to a message: Discord refuses a reply without it
    return None if permissions.read_message_history else "Read Message History"


def may_embed(channel: object) -> bool:
    """Whether the bot's embeds show in ``channel`` (True where it cannot be told, and in DMs).

    Without Embed Links Discord drops a bot's embeds from a message that has text and refuses
    one that has only embeds, so a Sources embed would vanish or fail to send.
    """
    return _granted(channel, "embed_links")


def may_attach(channel: object) -> bool:
    """Whether the bot may attach files in ``channel`` (True where it cannot be told, and in
    DMs): without Attach Files Discord refuses a message with files (403)."""
    return _granted(channel, "attach_files")


def _granted(channel: object, permission: str) -> bool:
    """Whether the bot holds ``permission`` in ``channel``; True in DMs and where the cache
    cannot tell (no member of the bot yet, a thread whose parent is not cached)."""
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return True
    me = channel.guild.me
    if me is None or (isinstance(channel, discord.Thread) and channel.parent is None):
        return True
    return bool(getattr(channel.permissions_for(me), permission))


def where(channel: object) -> str:
    """A channel as an operator finds it: ``#name (id) in Guild``, or its id alone."""
    name = getattr(channel, "name", None)
    guild = getattr(channel, "guild", None)
    cid = getattr(channel, "id", "?")
    shown = f"#{name} ({cid})" if name else f"channel {cid}"
    return f"{shown} in {guild.name}" if isinstance(guild, discord.Guild) else shown


async def referenced(message: discord.Message) -> discord.Message | None:
    """The message ``message`` replies to (from the event when included, else fetched); None
    for a reference into another channel, which is no reply (see the module's docstring)."""
    ref = message.reference
    if ref is None or ref.message_id is None or ref.channel_id != message.channel.id:
        return None
    if isinstance(ref.resolved, discord.Message):
        return ref.resolved
    if isinstance(ref.resolved, discord.DeletedReferencedMessage):
        return None
    try:
        return await message.channel.fetch_message(ref.message_id)
    except discord.HTTPException as exc:
        log.info("discord: cannot fetch replied-to message %s: %s", ref.message_id, exc)
        return None


async def resolve_channel(
    client: discord.Client | None, message: discord.Message, settings: DiscordSettings
) -> None:
    """Fetch a guild channel missing from the cache (e.g. a thread seen before its create).

    Without it a forum post whose THREAD_CREATE has not arrived yet would look like a
    message in an unknown channel and its forum could not be recognised.
    """
    channel = message.channel
    if not isinstance(channel, discord.PartialMessageable) or message.guild is None:
        return
    me = client.user if client is not None else None
    if client is None or me is None or not written_by_a_person(message, me.id):
        return
    maybe_for_us = (
        message.id == channel.id  # a forum post's first message has the thread's id
        or is_reply(message)
        or mentions_me(message, me.id, settings)
    )
    if not maybe_for_us:
        return
    try:
        fetched = await client.fetch_channel(channel.id)
    except discord.HTTPException as exc:
        log.info("discord: cannot fetch channel %s: %s", channel.id, exc)
        return
    if isinstance(fetched, discord.Thread | discord.TextChannel | discord.VoiceChannel):
        message.channel = fetched


def in_scope(channel: object, settings: DiscordSettings) -> bool:
    """Whether mentions in ``channel`` are answered: it is in ``discord.channels``, or a thread
    of one, or in a category listed there (a thread's category is its parent's)."""
    configured = set(settings.channels) | set(settings.forum_channels)
    if not settings.channels:
        return True
    parent_id = channel.parent_id if isinstance(channel, discord.Thread) else None
    return any(
        found is not None and found in configured
        for found in (getattr(channel, "id", None), parent_id, category_of(channel))
    )


def category_of(channel: object) -> int | None:
    """The id of the category ``channel`` (a thread: its parent channel) is in, if known."""
    if isinstance(channel, discord.Thread):
        channel = channel.parent  # not Thread.category_id: it raises when this is not cached
    category_id = getattr(channel, "category_id", None)
    return category_id if isinstance(category_id, int) else None


async def trigger_of(
    message: discord.Message, me_id: int, settings: DiscordSettings
) -> Trigger | None:
    """Why the bot (user ``me_id``) should answer ``message``, or None to stay quiet."""
    if not written_by_a_person(message, me_id):
        return None
    channel = message.channel
    if isinstance(channel, discord.DMChannel):
        return "dm"
    if message.guild is None:
        return None
    if (
        isinstance(channel, discord.Thread)
        and channel.parent_id in settings.forum_channels
        and message.id == channel.id
    ):
        return "forum"
    if not in_scope(channel, settings):
        return None
    if mentions_me(message, me_id, settings):
        return "mention"
    if is_reply(message):
        parent = await referenced(message)
        if parent is not None and parent.author.id == me_id:
            return "reply"
    return None
