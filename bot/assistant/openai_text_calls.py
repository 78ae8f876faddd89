"""Tool calls a model wrote as text: ``<tool_call>{"name": …, "arguments": {…}}</tool_call>``.

Hermes and Qwen models write their calls in that form; a server that parses it (vLLM with
``--tool-call-parser hermes``, llama.cpp with ``--jinja``, Ollama with a tool-aware template)
sends them as ``tool_calls``. A server that does not (a vLLM tool parser that misses, an Ollama
or LM Studio template it does not recognize, a proxy in front of a raw model) passes them on in
``content``, where they would be shown to the reader as markup instead of being run.

What counts as a call is what those chat templates produce (text, then the calls), and nothing
looser, so an answer that talks *about* the tag is never run:

- a *block* opens with ``<tool_call>`` at the start of a line (after spaces at most), its body
  starts with ``{``, and its ``</tool_call>`` ends a line; the last block may be unclosed
  (a model that stops at its end-of-turn token before writing the closing tag);
- a step's text holds calls only when it *ends* with one or more blocks, with nothing but
  whitespace between and after them; the text before them is the step's preamble, as text
  before structured calls is (:func:`text_calls`);
- each block is one call; a body that is not a JSON object naming a tool becomes a call the
  tool answers with an error, as a structured call with invalid arguments is (:func:`_call`).

Everywhere else (a block in mid-answer, blocks beside structured calls, calls in the last
round), blocks are taken out of the text the reader sees (:func:`without_blocks`); ``<tool_call>``
inside a sentence is prose and stays.

The same models often go on after their calls as their template goes on: with a
``<tool_response>`` block holding the tool's answer, which they make up, and then an answer
drawn from it. None of that is evidence. A *response block* opens with ``<tool_response>`` at
the start of a line, its body starts with ``{`` or ``[`` or a new line, or is empty (as
templates write it; ``<tool_response> tags …`` is prose), and its ``</tool_response>`` ends a
line (or it runs to the end). When one follows a call block with only whitespace between, the
text is cut before it (:func:`before_invented_response`): the calls are read from what is
left, as vLLM's Hermes parser takes the calls and drops what follows. A response block
anywhere else is taken out (:func:`without_responses`). While a step streams, text from a line
that opens with either tag is held back until the step ends (:class:`CallHold`), since only
then is it known whether the blocks end the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from bot.assistant.tools import ToolCall

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
RESPONSE_OPEN = "<tool_response>"
RESPONSE_CLOSE = "</tool_response>"
_HELD_TAGS = (OPEN, RESPONSE_OPEN)

# A name to put on a call whose body is not JSON, so its error says which tool it was for.
_NAME = re.compile(r'"name"\s*:\s*"([A-Za-z0-9_.-]{1,64})"')


@dataclass(frozen=True)
class Block:
    """One ``<tool_call>`` block: where it is in the text, and what it holds."""

    start: int
    end: int
    body: str


def blocks(text: str) -> list[Block]:
    """The blocks of ``text`` in order (a ``<tool_call>`` that does not open one is prose)."""
    return _tagged(text, OPEN, CLOSE, lambda body: body.lstrip().startswith("{"))


def response_blocks(text: str) -> list[Block]:
    """The ``<tool_response>`` blocks of ``text`` in order (a tag that does not open one is
    prose)."""
    return _tagged(text, RESPONSE_OPEN, RESPONSE_CLOSE, _response_body)


def _response_body(body: str) -> bool:
    """Whether ``body`` begins as a template writes a tool's result: JSON, or on the next line
    (Qwen's template puts the result, often plain text, there); or is nothing at all."""
    return body.lstrip(" \t")[:1] in ("", "{", "[", "\n", "\r")


def before_invented_response(text: str) -> str | None:
    """When a response block follows a call block (only whitespace between): ``text`` up to
    that response block, which the model made up, as it did whatever follows it; else None."""
    responses = response_blocks(text)
    for call in blocks(text):
        for response in responses:
            if response.start >= call.end and not text[call.end : response.start].strip():
                return text[: response.start]
    return None


def _tagged(text: str, opening: str, closing: str, body_ok: Callable[[str], bool]) -> list[Block]:
    """The blocks of ``text`` that open with ``opening`` at a line's start, have a body
    ``body_ok`` accepts, and end a line with ``closing`` (the last one may be unclosed)."""
    found: list[Block] = []
    position = 0
    while (start := text.find(opening, position)) >= 0:
        position = start + len(opening)
        line_start = text.rfind("\n", 0, start) + 1
        close = text.find(closing, position)
        body = text[position : close if close >= 0 else len(text)]
        if text[line_start:start].strip() or not body_ok(body):
            continue
        if close < 0:
            found.append(Block(start, len(text), body))
            break
        end = close + len(closing)
        line_end = text.find("\n", end)
        if not text[end : len(text) if line_end < 0 else line_end].strip():
            found.append(Block(start, end, body))
            position = end
    return found


def text_calls(text: str, id_prefix: str) -> tuple[str, list[ToolCall]] | None:
    """When ``text`` ends with blocks: the text before them and their calls (ids
    ``<id_prefix><n>``); else None."""
    found = blocks(text)
    if not found:
        return None
    gaps = [text[a.end : b.start] for a, b in pairwise(found)]
    if any(gap.strip() for gap in [*gaps, text[found[-1].end :]]):
        return None  # a block in mid-text is an example or a stray, not a call
    calls = [_call(f"{id_prefix}{n}", block.body) for n, block in enumerate(found, start=1)]
    return text[: found[0].start], calls


def without_blocks(text: str) -> tuple[str, int]:
    """``text`` with its blocks taken out (the text around them a paragraph apart), and how
    many there were."""
    return _without(text, blocks(text))


def without_responses(text: str) -> tuple[str, int]:
    """``text`` with its response blocks taken out, as :func:`without_blocks` takes out calls."""
    return _without(text, response_blocks(text))


def _without(text: str, found: list[Block]) -> tuple[str, int]:
    if not found:
        return text, 0
    edges = [0, *(edge for block in found for edge in (block.start, block.end)), len(text)]
    pieces = [text[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True)]
    out = pieces[0].rstrip(" \t")
    for piece in pieces[1:]:
        piece = piece.lstrip()
        if piece:
            out = f"{out.rstrip()}\n\n{piece}" if out.strip() else piece
    return (out if out.strip() else ""), len(found)


def _call(call_id: str, body: str) -> ToolCall:
    """A block's call: ``{"name": …, "arguments": …}``, the arguments an object (or the JSON
    text of one, as some models double-encode them). Anything else is kept as the call's
    arguments, which the tool then refuses as it refuses a structured call's invalid ones."""
    try:
        value = json.loads(body)
    except ValueError:
        value = None
    if isinstance(value, dict) and isinstance(value.get("name"), str):
        arguments = value.get("arguments")
        if arguments is None:
            return ToolCall(call_id, value["name"], "")
        if isinstance(arguments, str):
            return ToolCall(call_id, value["name"], arguments)
        return ToolCall(call_id, value["name"], json.dumps(arguments, ensure_ascii=False))
    guess = _NAME.search(body)
    return ToolCall(call_id, guess.group(1) if guess else "", body.strip())


class CallHold:
    """Holds back a step's text from the first line that opens with ``<tool_call>`` or
    ``<tool_response>`` to the step's end, however the text is chunked; text before it passes
    at once.

    Only a line's start can open a block, so a line is held only while it is spaces and a
    prefix of a tag; a mention of a tag inside a sentence never holds anything.
    """

    def __init__(self) -> None:
        self._held = ""  # a line that may still open a block, or everything after one did
        self._holding = False
        self._line_start = True  # what was passed on ends at a line's start

    def feed(self, text: str) -> str:
        """The part of ``text`` (with what was held back) that is passed on now."""
        if self._holding:
            self._held += text
            return ""
        text, self._held = self._held + text, ""
        start: int | None = 0 if self._line_start else _next_line(text, 0)
        while start is not None:
            rest = text[start:].lstrip(" \t")
            if rest.startswith(_HELD_TAGS):
                self._holding, self._held = True, text[start:]
                return self._passed(text[:start])
            if "\n" not in rest and any(tag.startswith(rest) for tag in _HELD_TAGS):
                self._held = text[start:]  # "  <tool_c": wait for more
                return self._passed(text[:start])
            start = _next_line(text, start)
        return self._passed(text)

    def end(self) -> str:
        """At the step's end: everything held back."""
        rest, self._held, self._holding = self._held, "", False
        return rest

    def _passed(self, text: str) -> str:
        if text:
            self._line_start = text.endswith("\n")
        return text


def _next_line(text: str, position: int) -> int | None:
    newline = text.find("\n", position)
    return None if newline < 0 else newline + 1
