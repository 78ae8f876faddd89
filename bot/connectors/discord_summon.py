"""Keeping the operator told which ``discord.summon_roles`` can summon the bot, as roles change.

Whether a role mention summons the bot is decided for each message from the live guild cache
(``discord_triggers.summoning_role_ids``), which discord.py keeps current as roles are created,
renamed or deleted and as the bot is given or loses a role. What an operator hears must follow
too: a listed role the bot holds in none of its servers is named in one warning when it
connects, and afterwards whenever one stops counting (the role was deleted, taken from the bot,
or the bot left the server) a warning names it, and when one starts counting again (given to
the bot) an info line does. A rename changes nothing: roles are listed by id.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable

import discord

from bot.connectors.discord_triggers import unheld_summon_roles

log = logging.getLogger(__name__)


class SummonRoleWatch:
    """The listed summon roles the bot holds nowhere, as last seen; :meth:`check` after each
    connect and each role or guild change logs what changed."""

    def __init__(self, summon_roles: Collection[int]) -> None:
        self._roles = tuple(summon_roles)
        self._unheld: set[int] | None = None  # None: not checked since the start

    def check(self, guilds: Iterable[discord.Guild]) -> None:
        """Compare the roles held in ``guilds`` now with the last check, and log the changes."""
        if not self._roles:
            return
        unheld = unheld_summon_roles(guilds, self._roles)
        before = self._unheld
        self._unheld = set(unheld)
        if before is None:
            if unheld:
                log.warning(
                    "discord: discord.summon_roles %s: the bot holds no such role in its servers, "
                    "so mentions of it are not answered",
                    _ids(unheld),
                )
            return
        lost = [role_id for role_id in unheld if role_id not in before]
        gained = [role_id for role_id in self._roles if role_id in before - self._unheld]
        if lost:
            log.warning(
                "discord: discord.summon_roles %s: the bot no longer holds such a role in any of "
                "its servers (deleted, or taken from the bot), so mentions of it are not answered",
                _ids(lost),
            )
        if gained:
            log.info(
                "discord: discord.summon_roles %s: the bot now holds it, so its mentions are "
                "answered",
                _ids(gained),
            )


def _ids(role_ids: Iterable[int]) -> str:
    return ", ".join(str(role_id) for role_id in role_ids)


__all__ = ["SummonRoleWatch"]
