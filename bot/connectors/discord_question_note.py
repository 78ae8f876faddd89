"""The one note above the answer to a Discord question: "your question is long", "files not read".

A chat channel tells the asker, before the answer, that the assistant read only the first
``web.max_question_chars`` of the question, or that its attached files were not read
(``base.question_note``). A question followed through its edits (``discord_edits.Asked``)
keeps at most one such note, above its answer (``Asked.note``):

- an edit that makes the note true when the answer is already posted rewrites the answer's
  first message into the note, and the answer goes on in the messages after it: a note posted
  anew would land below the answer it is about;
- an edit that changes what the note says (the files taken off a long question) edits it, and
  one that makes it untrue (the question shortened again) deletes it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import discord

from bot.config import DiscordSettings
from bot.connectors.base import question_note
from bot.connectors.discord_edits import Asked
from bot.connectors.discord_notices import notify
from bot.connectors.discord_send import NO_PINGS, MessageGoneError, with_retries
from bot.errors import CitecastError

log = logging.getLogger(__name__)


def note_text(
    message: discord.Message, cut_to: int | None, asked: Asked | None, earlier: Sequence[object]
) -> str | None:
    """What the note above the answer to ``message`` says (None: no note), the question cut
    to ``cut_to`` characters (None: not cut). An edit cannot add files to a message, so files
    are spoken of only where their note was posted with the first answer (``asked.note``),
    or where this is the first answer (no ``earlier`` replies)."""
    noted = asked is not None and asked.note is not None
    return question_note(cut_to, bool(message.attachments) and (noted or not earlier))


async def place_note(
    message: discord.Message,
    text: str | None,
    asked: Asked | None,
    earlier: Sequence[discord.Message],
    settings: DiscordSettings,
    on_sent: Callable[[discord.Message], None],
) -> list[discord.Message]:
    """Make the note above the answer to ``message`` say ``text`` (None: delete it), and return
    the messages the answer is to be written into: ``earlier``, less the first when that
    became the note. ``asked.note`` is the note after; ``on_sent`` is told of a new one."""
    note = asked.note if asked is not None else None
    replies = list(earlier)
    if note is not None and text is None:
        note = None if await _delete(note, settings) else note  # kept: deleted at the next edit
    elif note is not None and text is not None and note.content != text:
        try:
            note = await _rewrite(note, text, settings)
        except MessageGoneError:
            note = None  # deleted meanwhile: posted again below
        except CitecastError as exc:  # it says what it said: better than a second note
            log.warning("discord: could not update the note above %s: %s", message.id, exc)
    if text is not None and note is None and replies:
        try:
            note = await _rewrite(replies[0], text, settings)
            replies = replies[1:]
        except MessageGoneError:
            replies = replies[1:]
        except CitecastError as exc:
            log.warning("discord: could not put the note above %s: %s", message.id, exc)
    if text is not None and note is None:
        note = await notify(message, text, settings, on_sent=on_sent)
    if asked is not None:
        asked.note = note
        asked.replies = replies  # so a failure before the answer starts leaves the note alone
    return replies


async def _rewrite(sent: discord.Message, text: str, settings: DiscordSettings) -> discord.Message:
    """``sent`` rewritten to the plain note ``text`` (its embeds and files dropped)."""

    async def edit() -> discord.Message:
        return await sent.edit(
            content=text[:2000], embeds=[], attachments=[], allowed_mentions=NO_PINGS
        )

    return await with_retries(edit, settings, "writing the note above an answer")


async def _delete(note: discord.Message, settings: DiscordSettings) -> bool:
    """Delete a note that is no longer true; whether it is gone (one already gone is)."""
    try:
        await with_retries(note.delete, settings, "deleting a note that is no longer true")
    except MessageGoneError:
        return True
    except CitecastError as exc:
        log.warning("discord: could not delete note %s: %s", note.id, exc)
        return False
    return True


__all__ = ["note_text", "place_note"]
