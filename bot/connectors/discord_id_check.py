"""Audience ids in the settings that match nothing the bot can see, told once at connect.

``discord.audience_by_guild``, ``audience_by_channel`` and ``audience_by_role`` are looked up
by id (names are refused when the settings load). An id copied from another server, a role or
channel deleted since, or a typo matches nothing, and the groups it grants silently never
apply: one warning per setting names such ids. A channel id missing from the cache is asked of
Discord before it is named (an archived thread is not cached, yet is answered in);
``dm_audience_by_user`` is not checked, since the bot sees no member list.
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


async def unknown_ids(client: discord.Client, settings: DiscordSettings) -> dict[str, list[int]]:
    """The ids of each audience setting that match no guild, channel or role the bot sees."""
    guilds = {guild.id for guild in client.guilds}
    roles = {role.id for guild in client.guilds for role in guild.roles}
    found = {
        "audience_by_guild": [i for i in _ids(settings.audience_by_guild) if i not in guilds],
        "audience_by_role": [i for i in _ids(settings.audience_by_role) if i not in roles],
        "audience_by_channel": [
            i for i in _ids(settings.audience_by_channel) if await _channel_unknown(client, i)
        ],
    }
    return {key: ids for key, ids in found.items() if ids}


async def warn_unknown_ids(client: discord.Client, settings: DiscordSettings) -> None:
    """One warning per audience setting with ids that match nothing the bot can see."""
    kinds = {
        "audience_by_guild": "server the bot is in",
        "audience_by_channel": "channel, category or thread the bot can see",
        "audience_by_role": "role in the servers the bot is in",
    }
    for key, ids in (await unknown_ids(client, settings)).items():
        log.warning(
            "discord: discord.%s: %s match(es) no %s; its groups never apply (a wrong, "
            "deleted or other server's id?)",
            key,
            ", ".join(str(i) for i in ids),
            kinds[key],
        )


__all__ = ["unknown_ids", "warn_unknown_ids"]
