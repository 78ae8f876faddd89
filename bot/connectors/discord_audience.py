"""Who may read a Discord answer, as a set of citecast audience groups.

An answer posted in a channel is read by everyone who can view that channel, not only by the
asker, so a guild answer's audience is the channel's, never the asker's own groups:

1. ``audience_by_channel`` for the thread, else for its parent channel, else for that channel's
   category: taken as configured. A category's mapping holds for a channel in it only when the
   channel is read by no one the category keeps out (:func:`reader_outside_category`; synced
   permissions always are); a channel opened wider gets what step 2 gives, never more than the
   category's groups, and one warning names it. A thread is never read by more people than its
   parent channel (a public thread has its parent's permissions, a private one fewer readers),
   so the parent's mapping holds for it as it is.
2. Otherwise ``public_audience`` + ``audience_by_guild`` for the guild, plus the groups that
   every role able to view a restricted channel shares (a channel that denies VIEW_CHANNEL to
   @everyone and allows it to roles mapped in ``audience_by_role``). A channel that also lets
   individual members in (member overwrites), or lets in an unmapped role, gets no role groups.
   The overwrites that let the bot itself in are not readers of that kind and are skipped: on
   Discord the bot can only see such a channel through a member overwrite for its own user, an
   overwrite for its own managed (integration) role, or Administrator. Another bot's managed
   role is not skipped: that bot reads the answer too, and holds none of the role groups.

A DM is read only by the asker: ``public_audience`` + ``dm_audience_by_user`` + for each guild
with a mapping where the user is a member, that guild's groups and the groups of the user's
mapped roles (looked up through the REST API, so no privileged members intent is needed).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from bot.config import DiscordSettings
from bot.connectors.discord_triggers import category_of, where

log = logging.getLogger(__name__)


def _groups(mapping: dict[str, list[str]], key: int | None) -> set[str]:
    return set(mapping.get(str(key), ())) if key is not None else set()


def lets_the_bot_in(target: discord.Role | discord.Member | discord.Object, bot_id: int) -> bool:
    """Whether an overwrite targets the bot's own user or the bot's own managed role."""
    if isinstance(target, discord.Role):
        return target.tags is not None and target.tags.bot_id == bot_id
    return target.id == bot_id  # a Member, or an Object for a member not in the cache


def _member_name(target: discord.Member | discord.Object) -> str:
    shown = target.display_name if isinstance(target, discord.Member) else None
    return f"member {shown} ({target.id})" if shown else f"member {target.id}"


def _member_outside(
    channel: discord.abc.GuildChannel, category: discord.CategoryChannel, bot_id: int
) -> str | None:
    """A member that ``channel``'s own overwrites let in and ``category`` keeps out, if any."""
    no_overwrite = discord.PermissionOverwrite()
    for target, overwrite in channel.overwrites.items():
        if isinstance(target, discord.Role) or overwrite.view_channel is not True:
            continue
        if (
            lets_the_bot_in(target, bot_id)
            or category.overwrites.get(target, no_overwrite).view_channel
        ):
            continue
        if isinstance(target, discord.Member) and category.permissions_for(target).view_channel:
            continue
        # a member not in the cache cannot be checked against the category: counted as outside
        return f"{_member_name(target)} is let in by the channel but not by the category"
    for target, overwrite in category.overwrites.items():
        if isinstance(target, discord.Role) or overwrite.view_channel is not False:
            continue
        if channel.overwrites.get(target, no_overwrite).view_channel is not False:
            return f"{_member_name(target)} is kept out of the category but not the channel"
    return None


def reader_outside_category(
    channel: discord.abc.GuildChannel, category: discord.CategoryChannel, bot_id: int
) -> str | None:
    """Why ``channel`` is read by someone ``category`` keeps out, or None when it is not.

    Readers are resolved as Discord does, from the guild's role permissions and the overwrites
    (discord.py's ``permissions_for``): a role, @everyone included, that can view the channel
    but not the category, or a member let in (or not kept out) by the channel alone. The
    overwrites that let the bot in are not readers (``bot_id``: the bot's user). A member whose
    access only comes from combining several roles is beyond this check: map such a channel on
    its own.
    """
    for role in channel.guild.roles:
        if lets_the_bot_in(role, bot_id):
            continue
        viewer = channel.permissions_for(role).view_channel
        if viewer and not category.permissions_for(role).view_channel:
            shown = "@everyone" if role.is_default() else f"role @{role.name} ({role.id})"
            return f"{shown} can view the channel but not the category"
    return _member_outside(channel, category, bot_id)


def restricted_role_groups(
    channel: discord.abc.GuildChannel, settings: DiscordSettings, bot_id: int
) -> set[str]:
    """Groups shared by every role that can view a channel hidden from @everyone.

    ``bot_id`` is the bot's user id: the overwrites letting the bot in are not counted.
    """
    everyone = channel.guild.default_role
    overwrites = channel.overwrites
    base = overwrites.get(everyone)
    if base is None or base.view_channel is not False:
        return set()
    shared: set[str] | None = None
    for target, overwrite in overwrites.items():
        if target == everyone or overwrite.view_channel is not True:
            continue
        if lets_the_bot_in(target, bot_id):
            continue
        if not isinstance(target, discord.Role):
            return set()  # a member let in by name may hold none of the role groups
        groups = _groups(settings.audience_by_role, target.id)
        if not groups:
            return set()
        shared = groups if shared is None else shared & groups
    return shared or set()


def _unmapped_audience(
    channel: discord.abc.GuildChannel | discord.Thread, settings: DiscordSettings, bot_id: int
) -> set[str]:
    """What a channel no mapping covers gets: public, its guild's, its readers' role groups."""
    governing = channel.parent if isinstance(channel, discord.Thread) else channel
    groups = set(settings.public_audience) | _groups(settings.audience_by_guild, channel.guild.id)
    if isinstance(governing, discord.abc.GuildChannel):
        groups |= restricted_role_groups(governing, settings, bot_id)
    return groups


def channel_audience(
    channel: discord.abc.GuildChannel | discord.Thread,
    settings: DiscordSettings,
    bot_id: int,
    warned: set[int] | None = None,
) -> frozenset[str]:
    """The audience of an answer posted in a guild channel or thread (``bot_id``: our user).

    ``audience_by_channel`` is looked up for the thread, its parent channel, then that
    channel's category: a category mapped once covers every channel in it, as its
    permissions do, new channels included, unless a channel lets in someone the category
    keeps out. Such a channel gets what an unmapped one does, never more than the category's
    groups, with one warning per channel (its id is added to ``warned``, when given, to say
    it was logged; without it every call warns).
    """
    parent_id = channel.parent_id if isinstance(channel, discord.Thread) else None
    for candidate in (channel.id, parent_id):
        if candidate is not None and str(candidate) in settings.audience_by_channel:
            return frozenset(settings.audience_by_channel[str(candidate)])
    category_id = category_of(channel)
    mapped = settings.audience_by_channel.get(str(category_id)) if category_id else None
    if mapped is None:
        return frozenset(_unmapped_audience(channel, settings, bot_id))
    governing = channel.parent if isinstance(channel, discord.Thread) else channel
    category = getattr(governing, "category", None)
    if isinstance(category, discord.CategoryChannel) and isinstance(
        governing, discord.abc.GuildChannel
    ):
        outside = reader_outside_category(governing, category, bot_id)
    else:  # readers that cannot be compared are not taken to be the category's
        outside = "the category's permissions are not known"
    if outside is None:
        return frozenset(mapped)
    named = governing if governing is not None else channel
    if warned is None or named.id not in warned:
        log.warning(
            "discord: %s does not get the audience_by_channel mapping of its category %s: %s; "
            "its answers get an unmapped channel's audience, within the category's (map the "
            "channel itself to change that)",
            where(named),
            f"{category.name} ({category_id})" if category is not None else category_id,
            outside,
        )
        if warned is not None:
            warned.add(named.id)
    return frozenset(_unmapped_audience(channel, settings, bot_id) & set(mapped))


def _mapped_guilds(
    guilds: Iterable[discord.Guild], settings: DiscordSettings
) -> list[discord.Guild]:
    role_ids = set(settings.audience_by_role)
    return [
        guild
        for guild in guilds
        if str(guild.id) in settings.audience_by_guild
        or any(str(role.id) in role_ids for role in guild.roles)
    ]


async def dm_audience(
    user: discord.abc.User, guilds: Iterable[discord.Guild], settings: DiscordSettings
) -> frozenset[str]:
    """The audience of an answer in a DM with ``user``."""
    groups = set(settings.public_audience) | _groups(settings.dm_audience_by_user, user.id)
    for guild in _mapped_guilds(guilds, settings):
        try:
            member = await guild.fetch_member(user.id)
        except discord.NotFound:
            continue
        except discord.HTTPException as exc:
            # Failing closed: without the membership we grant nothing from this guild.
            log.warning("discord: cannot look up member %s in guild %s: %s", user.id, guild.id, exc)
            continue
        groups |= _groups(settings.audience_by_guild, guild.id)
        for role in member.roles:
            groups |= _groups(settings.audience_by_role, role.id)
    return frozenset(groups)


async def answer_audience(
    message: discord.Message,
    client: discord.Client | None,
    settings: DiscordSettings,
    warned: set[int] | None = None,
) -> frozenset[str]:
    """The audience groups of whoever can read the answer to ``message`` (``warned``: see
    :func:`channel_audience`)."""
    channel = message.channel
    if isinstance(channel, discord.DMChannel) or message.guild is None:
        guilds = client.guilds if client else []
        return await dm_audience(message.author, guilds, settings)
    if isinstance(channel, discord.Thread | discord.abc.GuildChannel):
        me = client.user if client else None
        return channel_audience(channel, settings, me.id if me else 0, warned)
    return frozenset(settings.public_audience)
