"""Tool calls a model wrote as text: ``<tool_call>{"name": …, "arguments": {…}}</tool_call>``.

Hermes and Qwen models write their calls in that form; a server that parses it (vLLM with
``--tool-call-parser hermes``, llama.cpp with ``--jinja``, Ollama with a tool-aware template)
sends them as ``tool_calls``. A server that does not (a vLLM tool parser that misses, an Ollama
or LM Studio template it does not recognize, a proxy in front of a raw model) passes them on in
``content``, where they would be shown to the reader as markup instead of being run.

What counts as a call is what those chat templates produce (text, then the calls), and nothing
looser, so an answer that talks *about* the tag is never run:

- a *block* opens with ``<tool_call>`` at the start of a line (after spaces at most), its body
  starts with ``{`` (or with ``<function=``, as Qwen3-Coder and Qwen 3.5 write calls), and
  its ``</tool_call>`` ends a line; a block may be left unclosed (a model that stops at its
  end-of-turn token before writing the closing tag, or goes straight on to its next call or
  to a made-up response), and then ends where the next line that opens with either tag
  begins, or at the text's end;
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
line (or it is left unclosed, as a call block may be). When one follows a call block with only
whitespace between, the text is cut before it (:func:`before_invented_response`): the calls
are read from what is left, as vLLM's Hermes parser takes the calls and drops what follows. A
response block anywhere else (before the calls too) is taken out (:func:`without_responses`).
While a step streams, text from a line that opens with either tag is held back until the step
ends (:class:`bot.assistant.openai_call_hold.CallHold`), since only then is it known whether
the blocks end the text. Calls written in other forms (Mistral's, Llama's, ``<function=``
without ``<tool_call>``) are read in :mod:`bot.assistant.openai_written_calls`.
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
_TAG_LINE = re.compile(r"^[ \t]*<tool_(?:call|response)>", re.MULTILINE)

FUNCTION = "<function="
# A name to put on a call whose body is not JSON, so its error says which tool it was for.
_NAME = re.compile(r'"name"\s*:\s*"([A-Za-z0-9_.-]{1,64})"')
# Qwen3-Coder's and Qwen 3.5's form: <function=NAME>, then <parameter=KEY>VALUE</parameter>
# for each argument, the value as written (the template puts it on lines of its own).
# A function's name is a tool name (OpenAI's rule: letters, digits, "_" and "-", dots and
# colons as some servers add them), never markup: "<function=<|python_tag|>" is no call.
FUNCTION_BLOCK = re.compile(r"\s*<function=([\w.:-]{1,64})>(.*?)(?:</function>|\Z)", re.DOTALL)
_PARAMETER = re.compile(
    r"<parameter=([^>\s]{1,64})>(.*?)(?:</parameter>|(?=<parameter=)|\Z)", re.DOTALL
)


@dataclass(frozen=True)
class Block:
    """One ``<tool_call>`` block: where it is in the text, and what it holds."""

    start: int
    end: int
    body: str


def blocks(text: str) -> list[Block]:
    """The blocks of ``text`` in order (a ``<tool_call>`` that does not open one is prose)."""
    return _tagged(text, OPEN, CLOSE, lambda body: body.lstrip().startswith(("{", FUNCTION)))


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
    ``body_ok`` accepts, and end a line with ``closing``; or are left unclosed, and end where
    the next line that opens with either tag begins (or at the text's end).

    An unclosed call followed by a ``<tool_response>`` the model went on to write would
    otherwise take the made-up response (and all after it) as its body; no JSON body can hold
    a line that opens with a tag, since a JSON string cannot span lines.
    """
    found: list[Block] = []
    position = 0
    while (start := text.find(opening, position)) >= 0:
        position = start + len(opening)
        if text[text.rfind("\n", 0, start) + 1 : start].strip():
            continue
        stop = _next_tag_line(text, position)
        close = _line_closing(text, closing, position, stop)
        if close is None:
            continue  # a whole block closed mid-line: a sentence about the tag
        if close < 0:
            end = len(text) if stop is None else stop
            if body_ok(body := text[position:end]):
                found.append(Block(start, end, body))
                position = end
            continue
        end = close + len(closing)
        if body_ok(text[position:close]):
            found.append(Block(start, end, text[position:close]))
            position = end
    return found


def _line_closing(text: str, closing: str, position: int, stop: int | None) -> int | None:
    """Where the first ``closing`` after ``position`` that ends its line is, before ``stop``
    (the next tag line); -1 when there is none (the block is left unclosed). A ``closing``
    inside an unfinished body (a JSON string holding ``"</tool_call>"``) is text: the block
    goes on. One that closes a whole body with more text on its line makes the block a
    sentence about the tag: None."""
    close = text.find(closing, position)
    while close >= 0 and (stop is None or close < stop):
        end = close + len(closing)
        line_end = text.find("\n", end)
        if not text[end : len(text) if line_end < 0 else line_end].strip():
            return close
        if _whole(text[position:close]):
            return None
        close = text.find(closing, end)
    return -1


def _whole(body: str) -> bool:
    """Whether ``body`` is complete as written: a JSON value, or anything but an open JSON
    object (a ``<function=…>`` body, words)."""
    if not body.lstrip().startswith("{"):
        return True
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


def _next_tag_line(text: str, position: int) -> int | None:
    """Where the first line after ``position`` that opens with either tag begins."""
    line = _next_line(text, position)
    found = None if line is None else _TAG_LINE.search(text, line)
    return None if found is None else found.start()


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
    text of one, as some models double-encode them), or ``<function=NAME>`` with its
    parameters (:func:`function_call`). Anything else is kept as the call's arguments, which
    the tool then refuses as it refuses a structured call's invalid ones."""
    function = FUNCTION_BLOCK.match(body)
    if function is not None:
        return function_call(call_id, function.group(1), function.group(2))
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


def function_call(call_id: str, name: str, body: str) -> ToolCall:
    """A call in Qwen3-Coder's form (Qwen 3.5 and 3.6 write it too): each
    ``<parameter=KEY>`` holds its value as text, between the line breaks the template puts
    around it. Values stay text: every parameter of citecast's tools is a string."""
    arguments = {
        key: value.removeprefix("\n").removesuffix("\n") for key, value in _PARAMETER.findall(body)
    }
    return ToolCall(call_id, name, json.dumps(arguments, ensure_ascii=False))


def _next_line(text: str, position: int) -> int | None:
    newline = text.find("\n", position)
    return None if newline < 0 else newline + 1
