"""Sending rendered Discord payloads with discord.py: one place for mentions, files and retries.

A renderer message ``{content, embeds, allowed_mentions, flags, components?}`` becomes the
keyword arguments of ``Messageable.send`` / ``Message.edit``: embeds via ``Embed.from_dict``,
link buttons via a ``discord.ui.View``, SUPPRESS_EMBEDS (4) and SUPPRESS_NOTIFICATIONS (4096)
via ``suppress_embeds``/``silent``. Every call passes ``AllowedMentions.none()`` whatever the
payload says, so no text can ping anyone.

Retries: discord.py itself waits out 429s (``retry_after``) and retries 500/502/504/524; a 503,
a 5xx that outlasts its retries, or a dropped connection is retried here up to
``max_retries`` times with exponential backoff from ``retry_backoff`` seconds. Other refusals
raise :class:`bot.errors.ChannelError` at once (a 4xx will not get better by retrying); a
message refused because of its files (413 too large, or 403 without Attach Files) raises
:class:`FilesRefusedError`, so the caller can send the sources again without native files; a
channel that takes nothing from the bot (403 Missing Access or Missing Permissions, a reply
refused without Read Message History (160002), a DM the user closed (50007), a locked thread
(160005, or 50083 when it is archived too), 404 Unknown Channel) raises
:class:`ChannelClosedError` (:class:`MissingPermissionsError` for 50013, which is also what a
message of embeds alone gets without Embed Links), so the caller does not try an apology there
too; a message of the bot's deleted meanwhile (404 Unknown Message, e.g. by a moderator)
raises :class:`MessageGoneError`. An answer's parts are sent with nonces derived from the
question (:func:`part_nonce`), so that a run that starts again after a crash, sending a part
Discord had already created, gets that message back instead of a second one. :func:`created`
finishes a send whose caller was cancelled, so that the message is not forgotten.
:func:`file_batches` groups a message's files into as many messages as Discord's limits take:
ten files, and ``MAX_REQUEST_BYTES`` per request.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import aiohttp
import discord

from bot.config import DiscordSettings
from bot.errors import ChannelError, RateLimitedError

log = logging.getLogger(__name__)
T = TypeVar("T")

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
MAX_FILES_PER_MESSAGE = 10
# Discord's upload limit where no guild boost raises it: DMs and unboosted guilds (10 MiB,
# discord.py's ``Guild._PREMIUM_GUILD_LIMITS[0].filesize``; a constant, not a private name)
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024
# Discord's limit on one whole request, all of a message's files together ("The maximum request
# size when sending a message is 25 MiB", Create Message); over it Discord answers 413 (40005)
MAX_REQUEST_BYTES = 25 * 1024 * 1024
# what a request carries besides file bytes: the payload JSON (2,000 content characters, 6,000
# of embeds, buttons) and the multipart headers of up to ten files, with room to spare
REQUEST_OVERHEAD = 64 * 1024
NO_PINGS = discord.AllowedMentions.none()
MISSING_PERMISSIONS = 50013
MISSING_ACCESS = 50001
UNKNOWN_CHANNEL = 10003
CANNOT_DM = 50007
UNKNOWN_MESSAGE = 10008
CANNOT_REPLY = 160002  # a reply without Read Message History
THREAD_ARCHIVED = 50083  # a locked thread that is archived too, without Manage Threads
THREAD_LOCKED = 160005  # a locked thread, without Manage Threads


class FilesRefusedError(ChannelError):
    """Discord refused a message because of its files: too large (413) or no Attach Files."""


class ChannelClosedError(ChannelError):
    """The channel takes nothing from the bot: no access, a missing permission, or deleted."""


class MissingPermissionsError(ChannelClosedError):
    """403 Missing Permissions (50013): also what a message of embeds alone gets where the bot
    may not embed links."""


class MessageGoneError(ChannelError):
    """The bot's message to edit or delete is gone: someone deleted it."""


def part_nonce(question_id: int, index: int, attempt: int = 0) -> int:
    """The nonce of part ``index`` of the answer to question ``question_id``, the same in every
    run: Discord (``enforce_nonce``) returns the message the bot created with it in the last
    few minutes instead of creating another, so a part whose creation a crash hid is not posted
    twice by the next run. ``attempt`` counts the parts sent at ``index`` before in this run
    (one deleted since must not be handed back)."""
    key = f"citecast:{question_id}:{index}:{attempt}".encode()
    # 63 bits, as discord.py's own random nonces: 19 digits, within Discord's 25 characters
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") >> 1


def reason(exc: BaseException) -> str:
    """``exc``'s message for a log line that already starts with ``discord:`` (ours carry the
    prefix too, for the places that show them alone)."""
    return str(exc).removeprefix("discord: ")


def _channel_closed(exc: discord.HTTPException, what: str) -> ChannelError | None:
    """The error to raise when ``exc`` says the bot cannot post in the channel at all, or its
    message is gone."""
    if exc.status == 404 and exc.code == UNKNOWN_MESSAGE:
        return MessageGoneError(f"discord: {what} refused: the message was deleted")
    if exc.status == 404 and exc.code == UNKNOWN_CHANNEL:
        return ChannelClosedError(f"discord: {what} refused: the channel no longer exists")
    if exc.status == 403 and exc.code == CANNOT_DM:
        return ChannelClosedError(f"discord: {what} refused: the user takes no DMs from the bot")
    if exc.status == 403 and exc.code == CANNOT_REPLY:
        return ChannelClosedError(
            f"discord: {what} refused: {exc.text} ({exc.code}); the bot replies to every "
            "question, so it needs Read Message History there"
        )
    if exc.code in (THREAD_ARCHIVED, THREAD_LOCKED):
        return ChannelClosedError(
            f"discord: {what} refused: {exc.text} ({exc.code}); only members with Manage "
            "Threads may post in a locked thread"
        )
    if exc.status == 403 and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        kind = MissingPermissionsError if exc.code == MISSING_PERMISSIONS else ChannelClosedError
        return kind(
            f"discord: {what} refused: {exc.text} ({exc.code}); the bot needs View Channels, "
            "Send Messages (in a thread: Send Messages in Threads) and Read Message History there"
        )
    return None


def _files_refused(exc: discord.HTTPException, what: str) -> FilesRefusedError | None:
    """The error to raise when ``exc`` refused a request that carried files, else None."""
    if exc.status == 413 or (exc.status == 403 and exc.code == MISSING_PERMISSIONS):
        return FilesRefusedError(f"discord: {what} with files refused: {exc.status} {exc.text}")
    return None


# the 5xx statuses discord.py retries by itself before raising (its HTTPClient.request)
RETRIED_BY_DISCORD_PY = frozenset({500, 502, 504, 524})


def _tries(exc: Exception, attempt: int) -> str:
    """How often a request was tried, as far as it is known: discord.py does not say how many
    times it retried a 5xx itself, so after its retries no count is given."""
    if isinstance(exc, discord.DiscordServerError) and exc.status in RETRIED_BY_DISCORD_PY:
        return "after discord.py's own retries"
    return f"after {attempt + 1} {'try' if attempt == 0 else 'tries'}"


async def with_retries(
    operation: Callable[[], Awaitable[T]], settings: DiscordSettings, what: str
) -> T:
    """Run ``operation``, retrying transient failures; raise ChannelError when it gives up."""
    attempt = 0
    while True:
        try:
            return await operation()
        except discord.RateLimited as exc:
            raise RateLimitedError(f"discord: {what}: rate limited", exc.retry_after) from None
        except (discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError) as exc:
            # discord.py itself already tried a 500, 502, 504 or 524 five times: trying each of
            # those again would multiply the requests an outage costs (only a 503 comes untried)
            given_up = isinstance(exc, discord.DiscordServerError) and exc.status != 503
            if given_up or attempt >= settings.max_retries:
                raise ChannelError(
                    f"discord: {what} failed {_tries(exc, attempt)}: {exc}"
                ) from None
            delay = settings.retry_backoff * (2**attempt)
            log.warning("discord: %s failed (%s); retrying in %.2fs", what, exc, delay)
            attempt += 1
            await asyncio.sleep(delay)
        except discord.HTTPException as exc:
            closed = _channel_closed(exc, what)
            if closed is not None:
                raise closed from None
            raise ChannelError(f"discord: {what} refused: {exc.status} {exc.text}") from None


def build_view(components: Sequence[Mapping[str, Any]] | None) -> discord.ui.View | None:
    """Link buttons (style 5) of the payload's action rows as a View; other kinds are ignored."""
    if not components:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(components):
        for button in row.get("components") or []:
            if button.get("type") == 2 and button.get("style") == 5 and button.get("url"):
                view.add_item(
                    discord.ui.Button(
                        style=discord.ButtonStyle.link,
                        label=str(button.get("label") or "Open")[:80],
                        url=str(button["url"]),
                        row=min(row_index, 4),
                    )
                )
    return view if view.children else None


def open_files(entries: Sequence[Mapping[str, Any]]) -> list[discord.File]:
    """``discord.File`` objects for payload file entries; a vanished file is skipped (logged)."""
    files: list[discord.File] = []
    for entry in entries:
        path = str(entry.get("path") or "")
        if not path or not os.path.isfile(path):
            log.warning("discord: cited file %r is gone; not attached", path)
            continue
        files.append(
            discord.File(path, filename=str(entry.get("filename") or os.path.basename(path)))
        )
    return files


def message_kwargs(message: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments shared by ``send`` and ``edit`` for one rendered message."""
    embeds = [discord.Embed.from_dict(dict(e)) for e in message.get("embeds") or []]
    return {
        "content": str(message.get("content") or ""),
        "embeds": embeds,
        "view": build_view(message.get("components")),
        "allowed_mentions": NO_PINGS,
    }


def suppresses_embeds(message: Mapping[str, Any]) -> bool:
    return bool(int(message.get("flags") or 0) & SUPPRESS_EMBEDS)


async def created(
    sending: Awaitable[discord.Message], on_late: Callable[[discord.Message], None]
) -> discord.Message:
    """The message ``sending`` creates, also when the caller is cancelled meanwhile.

    A cancel (the question was deleted) can come while the request is in flight, after Discord
    created the message: the request is finished anyway and ``on_late`` told of the message, so
    that it is withdrawn with the rest instead of answering nothing (a failed send posted
    nothing to withdraw). Without a cancel the message is returned as usual.
    """
    request = asyncio.ensure_future(sending)
    try:
        return await asyncio.shield(request)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            on_late(await request)
        raise


async def send_message(
    channel: discord.abc.Messageable,
    message: Mapping[str, Any],
    settings: DiscordSettings,
    *,
    files: Sequence[Mapping[str, Any]] = (),
    reply_to: discord.Message | None = None,
    nonce: int | None = None,
) -> discord.Message:
    """Send one rendered message (with its files), retrying transient failures.

    Every attempt carries the same nonce (``nonce``, else a random one), which discord.py sends
    with ``enforce_nonce``: when a 5xx hid the fact that Discord did create the message, the
    retry returns that message instead of posting it twice.
    """
    nonce = secrets.randbits(63) if nonce is None else nonce

    async def attempt() -> discord.Message:
        kwargs = message_kwargs(message)
        if kwargs["view"] is None:
            del kwargs["view"]
        opened = open_files(files)
        if opened:
            kwargs["files"] = opened
        if reply_to is not None:
            kwargs["reference"] = reply_to.to_reference(fail_if_not_exists=False)
            kwargs["mention_author"] = False
        try:
            return await channel.send(
                nonce=nonce,
                suppress_embeds=suppresses_embeds(message),
                silent=bool(int(message.get("flags") or 0) & SUPPRESS_NOTIFICATIONS),
                **kwargs,
            )
        except discord.HTTPException as exc:
            refused = _files_refused(exc, "sending a message") if opened else None
            if refused is not None:
                raise refused from None
            raise

    return await with_retries(attempt, settings, "sending a message")


async def edit_message(
    target: discord.Message,
    message: Mapping[str, Any],
    settings: DiscordSettings,
    *,
    files: Sequence[Mapping[str, Any]] = (),
    drop_files: bool = False,
) -> discord.Message:
    """Replace ``target`` with one rendered message (adding ``files``), retrying.

    ``drop_files`` removes the files the message already has (its text no longer names them).
    """

    async def attempt() -> discord.Message:
        kwargs = message_kwargs(message)
        opened = open_files(files)
        if opened or drop_files:
            kwargs["attachments"] = [*([] if drop_files else target.attachments), *opened]
        try:
            return await target.edit(suppress=suppresses_embeds(message), **kwargs)
        except discord.HTTPException as exc:
            refused = _files_refused(exc, "editing a message") if opened else None
            if refused is not None:
                raise refused from None
            raise

    return await with_retries(attempt, settings, "editing a message")


def message_file_budget(upload_limit: int) -> int:
    """How many bytes of files one message may carry where one file may have ``upload_limit``.

    Discord takes at most ``MAX_REQUEST_BYTES`` per request, files and JSON together; a boosted
    guild takes one file of its larger limit, so its requests may be that large.
    """
    return max(MAX_REQUEST_BYTES, upload_limit) - REQUEST_OVERHEAD


def _size(entry: Mapping[str, Any]) -> int:
    """The bytes a file entry adds to a request (0 for one that is gone: it is not sent)."""
    try:
        return os.path.getsize(str(entry.get("path") or ""))
    except OSError:
        return 0


def file_batches(
    entries: Sequence[Mapping[str, Any]], max_bytes: int
) -> list[list[Mapping[str, Any]]]:
    """File entries, in order, in groups one message can carry: at most ten files (Discord's
    per-message limit) of at most ``max_bytes`` together (see :func:`message_file_budget`).

    A file larger than ``max_bytes`` on its own (the renderer attaches none, but one may have
    grown since) goes alone; if Discord refuses it, the sources are sent without files.
    """
    batches: list[list[Mapping[str, Any]]] = []
    total = 0
    for entry in entries:
        size = _size(entry)
        if not batches or len(batches[-1]) >= MAX_FILES_PER_MESSAGE or total + size > max_bytes:
            batches.append([])
            total = 0
        batches[-1].append(entry)
        total += size
    return batches
