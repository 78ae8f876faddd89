"""Joining a message's blocks into as few messages as a channel's length limit allows.

Discord's 2,000 characters and Slack's section limits cut a long answer into several messages;
:func:`pack` fills each one with whole blocks, cutting a block only when it is longer than a
message (at the places :mod:`renderers.limits` chooses: a line, a sentence, a space, never
inside a link, a citation or a character).
"""

from __future__ import annotations

from collections.abc import Sequence

from renderers.escaping import visible
from renderers.limits import MIN_FILL, split_first, split_long


def pack(blocks: Sequence[str], limit: int, sep: str = "\n\n") -> list[str]:
    """Join ``blocks`` into as few messages of at most ``limit`` characters as possible.

    Greedy by block: a block goes whole into the current message when it fits, else whole into
    the next. A block longer than the limit must be cut anyway: its first piece fills the room
    left in the current message (:func:`split_first`), so a long answer's messages are full
    rather than alternately full and nearly empty (the tail of one long block, alone, before
    the next). Two pieces of one block never share a message (they would read as two
    paragraphs).
    """
    messages: list[str] = []
    current = ""
    for block in blocks:
        if not visible(block):
            continue
        if current and len(block) > limit:
            room = limit - len(current) - len(sep)
            if room >= MIN_FILL:
                piece, rest = split_first(block, room)
                if visible(piece) and len(piece) <= room:
                    messages.append(f"{current}{sep}{piece}")
                    current, block = "", rest
        pieces = [block] if len(block) <= limit else split_long(block, limit)
        for piece in pieces:
            if not visible(piece):
                continue
            joined = f"{current}{sep}{piece}" if current else piece
            if len(joined) <= limit:
                current = joined
            else:
                if current:
                    messages.append(current)
                current = piece
    if current:
        messages.append(current)
    return messages
