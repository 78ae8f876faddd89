"""Ids in the settings that match nothing the bot can see, told once at connect.

``discord.channels``, ``forum_channels``, ``audience_by_guild``, ``audience_by_channel`` and
``audience_by_role`` are looked up by id (names are refused when the settings load). An id
copied from another server, a role or channel deleted since, or a typo matches nothing: the
mentions there are silently never answered, or the groups it grants never apply. One warning
per setting names such ids (``summon_roles`` are told of by ``discord_summon``). A channel id
missing from the cache is asked of Discord before it is named (an archived thread is not
cached, yet is answered in); ``dm_audience_by_user`` is not checked, since the bot sees no
member list.
"""

from __future__ import annotations

import logging

import discord

from bot.config import DiscordSettings

log = logging.getLogger(__name__)


def _ids(mapping: dict[str, list[str]]) -> list[int]:
    return [int(key) for key in mapping if key.isdigit()]


async def _channel_unknown(client: discord.Client, channel_id: int) -> bool:
    if client.get_channel(channel_id) is not None:
        return False
    try:
        await client.fetch_channel(channel_id)
    except (discord.NotFound, discord.Forbidden):
        return True
    except discord.HTTPException:
        return False  # Discord could not say: not worth a false alarm
    return False


async def _channels_unknown(client: discord.Client, channel_ids: list[int]) -> list[int]:
    return [i for i in dict.fromkeys(channel_ids) if await _channel_unknown(client, i)]


async def unknown_ids(client: discord.Client, settings: DiscordSettings) -> dict[str, list[int]]:
    """The ids of each setting (the channels answered in, the audience maps) that match no
    guild, channel or role the bot sees."""
    guilds = {guild.id for guild in client.guilds}
    roles = {role.id for guild in client.guilds for role in guild.roles}
    found = {
        "channels": await _channels_unknown(client, settings.channels),
        "forum_channels": await _channels_unknown(client, settings.forum_channels),
        "audience_by_guild": [i for i in _ids(settings.audience_by_guild) if i not in guilds],
        "audience_by_role": [i for i in _ids(settings.audience_by_role) if i not in roles],
        "audience_by_channel": await _channels_unknown(client, _ids(settings.audience_by_channel)),
    }
    return {key: ids for key, ids in found.items() if ids}


# what a setting's unknown id costs, said in its warning
ANSWERED_IN = "mentions there are never answered"
GROUPS = "its groups never apply"


async def warn_unknown_ids(client: discord.Client, settings: DiscordSettings) -> None:
    """One warning per setting with ids that match nothing the bot can see."""
    kinds = {
        "channels": ("channel, category or thread the bot can see", ANSWERED_IN),
        "forum_channels": ("forum channel the bot can see", "its posts are never answered"),
        "audience_by_guild": ("server the bot is in", GROUPS),
        "audience_by_channel": ("channel, category or thread the bot can see", GROUPS),
        "audience_by_role": ("role in the servers the bot is in", GROUPS),
    }
    for key, ids in (await unknown_ids(client, settings)).items():
        kind, cost = kinds[key]
        log.warning(
            "discord: discord.%s: %s match(es) no %s; %s (a wrong, deleted or other server's id?)",
            key,
            ", ".join(str(i) for i in ids),
            kind,
            cost,
        )


__all__ = ["unknown_ids", "warn_unknown_ids"]
