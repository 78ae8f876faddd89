"""Questions asked while the bot was not connected, read back from Discord's history (DESIGN §7).

Discord does not deliver a message again to a new gateway session: a mention posted while
``citecast serve`` was stopped (a deploy, a restart), or while a lost session could not be
resumed, never arrives as an event. So each time the bot starts a new session (every READY;
a successful RESUME replays what it missed and needs none of this), it reads the recent
history of the channels it answers in and answers, oldest first and through the normal path,
the questions nobody took up.

Which channels: the cached guild chats (text channels, the text chat of voice and stage
channels, threads) in scope (``discord.channels``, or every channel when that is empty; forum
posts of ``discord.forum_channels``) whose latest message is newer than where reading starts,
and the channels where the bot last took up a question (DMs included: a DM channel is not
cached after a restart), kept in the store
(:class:`ActiveChannels`). At most ``MAX_CHANNELS`` channels, one request each
(``HISTORY_PAGE`` messages, Discord's largest page), and at most ``MAX_QUESTIONS`` answers.

Where reading starts: ``discord.catch_up_minutes`` back (0 turns the catch-up off), or after
the last question the bot took up in that channel when that is later. A message already
claimed (``discord-message``: every question the bot took up, answered or being answered)
is never answered again; whether the rest are questions is decided as for a live message.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

import discord

from bot.config import DiscordSettings
from bot.connectors.discord_triggers import in_scope, missing_permission, where
from bot.errors import CitecastError, StoreError
from bot.store import Store

log = logging.getLogger(__name__)

STATE_SCOPE = "discord-catch-up"
STATE_KEY = "active-channels"
# the channels remembered as recently active (the latest questions' channels)
MAX_ACTIVE = 50
# the channels read at one catch-up, and the messages read in each (one request)
MAX_CHANNELS = 50
HISTORY_PAGE = 100
# the questions answered at one catch-up
MAX_QUESTIONS = 50


class ActiveChannels:
    """The channels where the bot last took up a question, with that question's id, kept in
    the store (best effort: a store failure costs only the catch-up of those channels)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._latest = self._load()

    def _load(self) -> dict[int, int]:
        try:
            saved = self._store.state(STATE_SCOPE, STATE_KEY)
            value = json.loads(saved) if saved else {}
        except (StoreError, ValueError) as exc:
            log.warning("discord: cannot read the channels to catch up on: %s", exc)
            return {}
        if not isinstance(value, dict):
            return {}
        return {
            int(cid): int(mid)
            for cid, mid in value.items()
            if str(cid).isdigit() and isinstance(mid, int)
        }

    def marks(self) -> dict[int, int]:
        """Each remembered channel with the id of the last question taken up there."""
        return dict(self._latest)

    def note(self, channel_id: int, message_id: int) -> None:
        """Remember that a question (``message_id``) was taken up in ``channel_id``."""
        if self._latest.get(channel_id, 0) >= message_id:
            return
        self._latest[channel_id] = message_id
        newest = sorted(self._latest.items(), key=lambda item: item[1], reverse=True)
        self._latest = dict(newest[:MAX_ACTIVE])
        value = json.dumps({str(cid): mid for cid, mid in self._latest.items()})
        try:
            self._store.set_state(STATE_SCOPE, STATE_KEY, value)
        except StoreError as exc:
            log.warning("discord: could not record channel %s to catch up on: %s", channel_id, exc)


def window_start(minutes: int) -> int:
    """The smallest message id (snowflake) of a message posted within ``minutes``."""
    return discord.utils.time_snowflake(discord.utils.utcnow() - timedelta(minutes=minutes))


def _watched(channel: object, settings: DiscordSettings) -> bool:
    """Whether questions in cached ``channel`` are answered: in scope, or a forum post."""
    if isinstance(channel, discord.Thread) and channel.parent_id in settings.forum_channels:
        return True
    return in_scope(channel, settings)


# the guild channels people write in: a voice or stage channel has a text chat of its own
# (a forum or a category holds no messages itself; a forum's posts are threads)
ChatChannel = discord.TextChannel | discord.VoiceChannel | discord.StageChannel | discord.Thread


def _chats(guild: discord.Guild) -> list[ChatChannel]:
    """The cached channels of ``guild`` that hold messages: text, voice and stage channels'
    chats, and threads."""
    channels = [c for c in guild.channels if isinstance(c, ChatChannel)]
    return [*channels, *guild.threads]


def _cached_channels(
    client: discord.Client, settings: DiscordSettings, start: Callable[[int], int]
) -> list[ChatChannel]:
    """The cached chats (text, voice and stage channels, threads) in scope with a message
    newer than ``start(id)``, where the bot may answer; the most recently active first."""
    found: list[ChatChannel] = []
    for guild in client.guilds:
        for channel in _chats(guild):
            last = channel.last_message_id
            if last is None or last <= start(channel.id) or not _watched(channel, settings):
                continue
            if missing_permission(channel) is None:  # elsewhere it could answer nothing
                found.append(channel)
    found.sort(key=lambda channel: channel.last_message_id or 0, reverse=True)
    return found


async def _channel(client: discord.Client, channel_id: int) -> discord.abc.Messageable | None:
    """A remembered channel, from the cache or fetched (a DM is not cached after a restart);
    None when it is gone or the bot may no longer see it."""
    cached = client.get_channel(channel_id)
    try:
        channel = cached or await client.fetch_channel(channel_id)
    except discord.HTTPException as exc:
        log.info("discord: not catching up on channel %s: %s", channel_id, exc)
        return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def channels_to_read(
    client: discord.Client, settings: DiscordSettings, marks: dict[int, int], start: int
) -> list[discord.abc.Messageable]:
    """The channels to read for questions posted after ``start`` (or after the channel's mark
    in ``marks``, when later), at most ``MAX_CHANNELS``."""

    def since(channel_id: int) -> int:
        return max(start, marks.get(channel_id, 0))

    chosen: dict[int, discord.abc.Messageable] = {
        channel.id: channel for channel in _cached_channels(client, settings, since)
    }
    for channel_id in sorted(marks, key=lambda cid: marks[cid], reverse=True):
        if len(chosen) >= MAX_CHANNELS:
            break
        if channel_id in chosen:
            continue
        cached = client.get_channel(channel_id)
        last = getattr(cached, "last_message_id", None)
        if isinstance(last, int) and last <= since(channel_id):
            continue  # nothing posted there since
        channel = await _channel(client, channel_id)
        if channel is not None and missing_permission(channel) is None:
            chosen[channel_id] = channel
    return list(chosen.values())[:MAX_CHANNELS]


async def posted_after(channel: discord.abc.Messageable, after: int) -> list[discord.Message]:
    """The messages of ``channel`` posted after id ``after`` (oldest first, at most
    ``HISTORY_PAGE``); none when Discord refuses (logged)."""
    try:
        return [
            message
            async for message in channel.history(
                limit=HISTORY_PAGE, after=discord.Object(id=after), oldest_first=True
            )
        ]
    except discord.HTTPException as exc:
        log.info("discord: cannot read %s to catch up: %s", where(channel), exc)
        return []


async def missed_messages(
    client: discord.Client,
    settings: DiscordSettings,
    marks: dict[int, int],
    claimed: Callable[[int], bool],
) -> list[discord.Message]:
    """The messages posted within ``discord.catch_up_minutes`` in the channels the bot answers
    in (see the module), not by the bot and not claimed yet, oldest first."""
    start = window_start(settings.catch_up_minutes)
    me = client.user
    found: list[discord.Message] = []
    for channel in await channels_to_read(client, settings, marks, start):
        after = max(start, marks.get(getattr(channel, "id", 0), 0))
        for message in await posted_after(channel, after):
            if me is not None and message.author.id == me.id:
                continue
            if not claimed(message.id):
                found.append(message)
    found.sort(key=lambda message: message.id)
    return found


async def catch_up(
    client: discord.Client,
    settings: DiscordSettings,
    marks: dict[int, int],
    claimed: Callable[[str], bool],
    take_up: Callable[[discord.Message], Awaitable[bool]],
) -> int:
    """Read the messages no session received (:func:`missed_messages`) and hand them, oldest
    first, to ``take_up`` (true for each question it took up), at most ``MAX_QUESTIONS``;
    one INFO line says how many. ``claimed(id)``: whether a message was taken up already."""
    try:
        found = await missed_messages(client, settings, marks, lambda mid: claimed(str(mid)))
    except (discord.DiscordException, OSError, TimeoutError, CitecastError) as exc:
        log.error("discord: could not read the questions asked while not connected: %s", exc)
        return 0
    caught = 0
    for message in found:
        if caught >= MAX_QUESTIONS:
            log.warning("discord: over %d questions to catch up on; the later ones left", caught)
            break
        try:
            took = await take_up(message)
        except CitecastError as exc:  # a store that fails now fails for the next one too
            log.error("discord: catching up stopped at message %s: %s", message.id, exc)
            break
        if took:
            caught += 1
    log.info(
        "discord: caught up on %d question(s) asked in the last %d minutes while not connected",
        caught,
        settings.catch_up_minutes,
    )
    return caught


__all__ = [
    "HISTORY_PAGE",
    "MAX_CHANNELS",
    "MAX_QUESTIONS",
    "ActiveChannels",
    "catch_up",
    "channels_to_read",
    "missed_messages",
    "posted_after",
    "window_start",
]
