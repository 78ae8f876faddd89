"""Conversation history from a Discord reply chain, and the question text of a message.

A follow-up is a reply to one of the bot's answers; that answer replies to the question before,
which may itself reply to an earlier answer, and so on. Walking the chain back gives the
earlier exchanges (oldest first), at most ``discord.history_limit`` of them. A message of the
chain deleted since is stepped over by what the bot recorded before it
(``discord_chain_links``): only its own exchange is left out, not every one before it.

The stored conversation is named after the root question, ``discord:<channel>:<root id>``. The
walk is bounded, so it cannot find the root of a conversation longer than the limit; instead
every message the bot posts is recorded in the store with its conversation
(``remember_posted``), and a follow-up takes the conversation of the message it replies to
(``conversation_for``). Only a reply to a message without a record (posted before the record
was kept, or with another store) falls back to the walk's root.

The model gets an earlier answer only while the channel's readers may still see it, by the rule
every channel's history follows (:func:`bot.connectors.web_turn_page.visible_answer`): a stored
answer citing or written from a knowledge-base file made private or dropped from the index
since, or a record of a table made narrower or removed, is left out of the history, though its
messages stay in the channel (:meth:`Continued.history_for`). Each message the bot posts is
recorded with the turn it answers too (``answer_records``), so an exchange is judged by its own
stored turn however its question was edited since (``discord_history_answers``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import discord

from bot.config import DiscordSettings
from bot.connectors.answer_records import DISCORD_SCOPE, every_turn, record_turn, recorded_turns
from bot.connectors.discord_chain_links import recorded_before, remember_before
from bot.connectors.discord_history_answers import Continued
from bot.connectors.discord_triggers import referenced, summoning_role_ids
from bot.errors import StoreError
from bot.models import Exchange
from bot.store import Store, Turn

log = logging.getLogger(__name__)
# where the renderer's source list starts: its heading, at the top of a message or after a
# blank line (answer text cannot produce it: the renderer escapes "*" in text)
SOURCES_HEADING = re.compile(r"(?:\A|\n\n)\*\*Sources\*\*\n")
# more messages than any answer is split into (the walk stops there; history stays bounded)
MAX_ANSWER_PARTS = 20
# the store's ``channel`` for the records of the bot's messages
STORE_CHANNEL = "discord"
# a user, role or channel mention, or a custom emoji, as Discord's markup writes it
MARKUP = re.compile(r"<(@!?|@&|#)(\d{15,20})>|<a?(:\w+:)\d{15,20}>")


def _readable(text: str, message: discord.Message) -> str:
    """``text`` with mentions and custom emoji as Discord shows them (``@Ada``, ``#help``,
    ``:party:``): the model, like a reader, gets names rather than bare ids."""
    guild = message.guild
    users = {user.id: user.display_name for user in message.mentions}

    def name(match: re.Match[str]) -> str:
        if match[3]:
            return match[3]
        kind, ident = match[1], int(match[2])
        if kind == "#":
            channel = guild.get_channel_or_thread(ident) if guild is not None else None
            return f"#{channel.name}" if channel is not None else "#channel"
        if kind == "@&":
            role = guild.get_role(ident) if guild is not None else None
            return f"@{role.name}" if role is not None else "@role"
        return f"@{users[ident]}" if ident in users else "@user"

    return MARKUP.sub(name, text)


def question_text(message: discord.Message, bot_id: int, settings: DiscordSettings) -> str:
    """The message content without the mentions that summon the bot (its user, its managed role,
    a held role of ``discord.summon_roles``), other mentions as names (a shared role pinged
    beside the bot is part of the question); a forum post gets its title too."""
    text = re.sub(rf"<@!?{bot_id}>", " ", message.content)
    for role_id in summoning_role_ids(message.guild, settings.summon_roles):
        text = text.replace(f"<@&{role_id}>", " ")
    text = _readable(text, message).strip()
    channel = message.channel
    if (
        isinstance(channel, discord.Thread)
        and isinstance(channel.parent, discord.ForumChannel)
        and message.id == channel.id
        and channel.name
        and channel.name not in text
    ):
        text = f"{channel.name}\n\n{text}".strip()
    return text


def without_sources(content: str) -> str:
    """An answer message's text without its rendered source list (history needs the prose)."""
    found = SOURCES_HEADING.search(content)
    return (content if found is None else content[: found.start()]).rstrip()


def _prose(parts: list[discord.Message]) -> str:
    """The answer text of its messages (newest first), up to where the source list starts."""
    prose: list[str] = []
    for part in reversed(parts):
        text = without_sources(part.content)
        if text:
            prose.append(text)
        if SOURCES_HEADING.search(part.content):
            break  # the source list started here; later parts only continue it
    return "\n\n".join(prose)


@dataclass(frozen=True)
class Chain:
    """Earlier exchanges, oldest first, the id of the conversation's first question, for each
    exchange the ids of its answer's messages, and the bot's message the walk started from
    (the one the follow-up replies to; None when it replies to none that is there)."""

    history: tuple[Exchange, ...]
    root_id: int
    answers: tuple[tuple[int, ...], ...] = ()
    replied_to: int | None = None


class _Walk:
    """The steps of one walk back: each message's reply, or over a deleted one, the message
    recorded before it (``discord_chain_links``), at most ``gaps`` times."""

    def __init__(self, store: Store | None, gaps: int) -> None:
        self.store = store
        self.gaps = gaps

    async def before(self, message: discord.Message) -> tuple[discord.Message | None, bool]:
        """The message ``message`` replies to and False; when that one is gone, the message
        recorded before it and True; None when there is neither."""
        found = await referenced(message)
        ref = message.reference
        if found is not None or self.store is None or self.gaps <= 0 or ref is None:
            return found, False
        if ref.message_id is None or ref.channel_id != message.channel.id:
            return None, False  # no reply, or one into another channel: nothing to step over
        channel = message.channel
        before = recorded_before(self.store, message_key(channel.id, ref.message_id))
        if before is None:
            return None, False
        self.gaps -= 1
        try:
            return await channel.fetch_message(before), True
        except discord.HTTPException as exc:
            log.info("discord: cannot fetch message %s before a deleted one: %s", before, exc)
            return None, False


async def reply_chain(
    message: discord.Message, bot_id: int, settings: DiscordSettings, store: Store | None = None
) -> Chain:
    """Walk back from ``message`` through the bot's answers (at most ``history_limit``
    exchanges).

    A long answer is several messages, each replying to the one before; a reply to any of them
    gets the whole answer in its history. ``root_id`` is where the walk stopped: the first
    question only when the chain is not longer than ``limit`` (``conversation_for`` prefers
    the stored record of the replied-to message). A reference into another channel ends the
    walk (``referenced`` follows none): that channel's answers are not this one's history.

    With ``store``, a deleted message is stepped over by its record (``discord_chain_links``),
    at most ``history_limit`` times, one fetch each: a deleted question or answer (or any part
    of one) leaves its own exchange out, not every exchange before it.
    """
    exchanges: list[Exchange] = []
    answers: list[tuple[int, ...]] = []
    walk = _Walk(store, settings.history_limit)
    replied_to: int | None = None
    current = message
    taken = 0
    while taken < settings.history_limit:
        answer, over_gap = await walk.before(current)
        if answer is not None and answer.author.id != bot_id and over_gap:
            current = answer  # its answer was deleted: that exchange is left out
            continue
        if answer is None or answer.author.id != bot_id:
            break
        if current is message and not over_gap:
            replied_to = answer.id
        parts = [answer]
        asked, over_gap = await walk.before(answer)
        while asked is not None and asked.author.id == bot_id and len(parts) < MAX_ANSWER_PARTS:
            # over a gap, the bot's message is the answer before a deleted question: that
            # question's exchange is left out and the walk goes on from this answer
            parts = [asked] if over_gap else [*parts, asked]
            asked, over_gap = await walk.before(asked)
        if asked is None or asked.author.id == bot_id:
            break
        if over_gap:
            # a person's message over a gap: the deleted message was one of this answer's
            # parts, so the rest is not the answer its question got; like a deleted answer,
            # that exchange is left out (its stored turn would bring back the deleted part)
            current = asked
            continue
        taken += 1
        question = question_text(asked, bot_id, settings)
        if question:  # a bare mention and the bot's hint are no exchange for the model
            exchanges.append(Exchange(question=question, answer=_prose(parts)))
            answers.append(tuple(part.id for part in parts))
        current = asked
    return Chain(tuple(reversed(exchanges)), current.id, tuple(reversed(answers)), replied_to)


def message_key(channel_id: int, message_id: int) -> str:
    """The store key of a bot message. The channel is part of it so that a reference to a
    message elsewhere (a forward) never pulls a conversation into another channel."""
    return f"{channel_id}:{message_id}"


def conversation_for(message: discord.Message, chain: Chain, store: Store) -> str:
    """The stored conversation ``message`` belongs to: the recorded one of the bot message it
    replies to, else the one named after the root question the walk reached."""
    channel_id = message.channel.id
    ref = message.reference
    if ref is not None and ref.message_id is not None:
        recorded = store.conversation_of(STORE_CHANNEL, message_key(channel_id, ref.message_id))
        if recorded is not None:
            return recorded
    return f"discord:{channel_id}:{chain.root_id}"


async def conversation_of(
    message: discord.Message, bot_id: int, settings: DiscordSettings, store: Store
) -> Continued:
    """The stored conversation ``message`` continues, with the reply chain's last
    ``history_limit`` exchanges, all of the conversation's stored turns and the turns each
    exchange's messages were recorded for, to make its history of
    (:meth:`Continued.history_for`, once the answer's audience is known)."""
    chain = await reply_chain(message, bot_id, settings, store)
    conversation = conversation_for(message, chain, store)
    turns = every_turn(store, conversation, STORE_CHANNEL)
    found = {turn.id: turn for turn in turns}
    channel_id = message.channel.id
    answered_by: list[tuple[Turn, ...]] = []
    for parts in chain.answers:
        ids = {
            turn_id
            for part in parts
            for turn_id in recorded_turns(store, DISCORD_SCOPE, message_key(channel_id, part))
        }
        for turn_id in ids - found.keys():  # recorded for a turn of another conversation
            other = store.turn(turn_id)
            if other is not None:
                found[turn_id] = other
        answered_by.append(tuple(found[t] for t in sorted(ids) if t in found))
    return Continued(
        conversation, chain.history, tuple(turns), tuple(answered_by), chain.replied_to
    )


def remember_question(store: Store, message: discord.Message, replied_to: int | None) -> None:
    """Record the bot's message that the question ``message`` replies to (``replied_to``, from
    its reply chain; nothing when None), so a walk can step over the question once it is
    deleted (``discord_chain_links``)."""
    if replied_to is not None:
        remember_before(store, message_key(message.channel.id, message.id), replied_to)


def remember_posted(
    store: Store,
    channel_id: int,
    conversation: str,
    sent: discord.Message,
    turn_id: int,
    question_id: int | None = None,
    *,
    replace: bool = True,
) -> None:
    """Record the bot's message ``sent`` (in channel ``channel_id``) as part of ``conversation``
    and as answering turn ``turn_id``, and the question ``question_id`` it is posted for, by
    which a walk steps over ``sent`` once it is deleted (``discord_chain_links``).

    ``replace`` records ``turn_id`` alone, for a message that holds its answer (an edited
    question's answer rewrites the earlier one's messages); without it ``turn_id`` is added to
    the turns recorded before, for a message that still shows an earlier answer: each is
    judged, so one its readers may no longer see keeps the exchange out of history.

    Best effort: the message is already on Discord, so a store failure is only logged (a reply
    to it then finds its conversation by walking the chain, and its turn by its question).
    """
    key = message_key(channel_id, sent.id)
    try:
        store.remember_messages(STORE_CHANNEL, [key], conversation)
    except StoreError as exc:
        log.warning("discord: could not record the conversation of message %s: %s", sent.id, exc)
    record_turn(store, DISCORD_SCOPE, key, turn_id, replace=replace)
    if question_id is not None:
        remember_before(store, key, question_id)
