"""A private ``/citecast`` answer packed into the posts one ``response_url`` takes.

Slack takes at most five messages through a command's ``response_url`` (within 30 minutes), and
the private answer goes that way so that it works in channels the bot has not joined, where
``chat.postEphemeral`` is refused. A long answer rendered into more messages than that is
packed again into :data:`MAX_RESPONSE_URL_USES`, its sources first: the source list (context
blocks) and the buttons (record actions, feedback, *Share in channel*) always arrive, and the
answer's text keeps as many of its blocks, in order, as the posts have room for, then a note
that it stops there, linking the whole answer when the deployment has a public base URL. Only
a source list too long for all but one of the posts is compacted to "and N more" (linked to the
answer's source list when there is that URL), as the renderers' limits rules do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.runtime import Services
from renderers.base import RenderContext
from renderers.escaping import slack_url
from renderers.limits import SLACK_MAX_BLOCKS
from renderers.slack import MessagePacker

# Slack's limit on messages sent through one response_url (its interactivity docs)
MAX_RESPONSE_URL_USES = 5
CONTINUED = "(continued)"

Block = dict[str, Any]
Message = dict[str, Any]


@dataclass(frozen=True)
class _Answer:
    """A rendered answer taken apart: its text's blocks, source entries and button blocks."""

    body: list[Block]
    entries: list[str]
    actions: list[Block]


def answer_page(services: Services, turn_id: int) -> str | None:
    """The whole answer's page (``/turns/{key}``) as the renderers link it, or None without a
    public base URL (or a signer for its key)."""
    signer = services.signer
    key = signer.turn_key(turn_id) if signer is not None else None
    context = RenderContext(public_base_url=services.settings.web.public_base_url, turn_id=key)
    url = context.full_list_url()
    return url.removesuffix("#sources") if url else None


def _taken_apart(messages: Sequence[Message]) -> _Answer:
    body: list[Block] = []
    entries: list[str] = []
    actions: list[Block] = []
    for block in (b for m in messages for b in m.get("blocks") or []):
        if block.get("type") == "context":
            entries += [str(e.get("text") or "") for e in block.get("elements") or []]
        elif block.get("type") == "actions":
            actions.append(block)
        else:
            body.append(block)
    return _Answer(body, entries, actions)


def _note(answer_url: str | None) -> Block:
    text = "_(The rest of this answer does not fit in a private message"
    text += f": <{slack_url(answer_url)}|read the whole answer>.)_" if answer_url else ".)_"
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _more(count: int, answer_url: str | None) -> str:
    label = f"and {count} more"
    return f"<{slack_url(answer_url + '#sources')}|{label}>" if answer_url else label


def _layout(
    body: Sequence[Block], entries: Sequence[str], actions: Sequence[Block]
) -> list[list[Block]]:
    packer = MessagePacker(SLACK_MAX_BLOCKS)
    for block in body:
        packer.add(block)
    for entry in entries:
        packer.add_source(entry)
    for block in actions:
        packer.add(block)
    return [blocks for blocks in packer.messages if blocks]


def _most(count: int, fits: Callable[[int], bool]) -> int | None:
    """The largest ``k`` of 0..``count`` for which ``fits(k)`` (true up to some ``k``, false
    after it: more blocks never take fewer posts), or None when not even 0 fits."""
    if not fits(0):
        return None
    low, high = 0, count
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _source_list(answer: _Answer, room: int, answer_url: str | None) -> list[str]:
    """The source entries, compacted to "and N more" only when they need more than ``room``
    posts (with the buttons)."""
    entries = answer.entries

    def listed(kept: int) -> list[str]:
        if kept == len(entries):
            return entries
        return [*entries[:kept], _more(len(entries) - kept, answer_url)]

    kept = _most(len(entries), lambda k: len(_layout([], listed(k), answer.actions)) <= room)
    return listed(kept or 0)


def fit_response_uses(
    messages: Sequence[Message], answer_url: str | None, uses: int = MAX_RESPONSE_URL_USES
) -> list[Message]:
    """``messages`` (a rendered private answer with its buttons) in at most ``uses`` messages,
    its source list and buttons whole; unchanged when they are that few already."""
    if len(messages) <= uses:
        return list(messages)
    answer = _taken_apart(messages)
    entries = _source_list(answer, max(1, uses - 1), answer_url)
    note = _note(answer_url)

    def body(kept: int) -> list[Block]:
        return answer.body if kept == len(answer.body) else [*answer.body[:kept], note]

    def fits(kept: int) -> bool:
        return len(_layout(body(kept), entries, answer.actions)) <= uses

    kept = _most(len(answer.body), fits)
    layout = _layout(body(kept or 0), entries, answer.actions)
    first = str(messages[0].get("text") or "")
    return [
        {**messages[0], "text": first if index == 0 else CONTINUED, "blocks": blocks}
        for index, blocks in enumerate(layout)
    ]


__all__ = ["MAX_RESPONSE_URL_USES", "answer_page", "fit_response_uses"]
