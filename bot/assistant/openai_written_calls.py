"""Tool calls a model wrote as text in forms other than ``<tool_call>`` blocks.

A server that does not parse a model's calls (no tool parser, the wrong one, a template it
does not recognize) passes them on in ``content``. Besides the Hermes and Qwen blocks
(:mod:`bot.assistant.openai_text_calls`), these forms are read, as the tool parsers of vLLM
(``mistral``, ``llama3_json``, ``qwen3_coder``) and llama.cpp read them:

- Mistral's: ``[TOOL_CALLS]`` and a JSON list of ``{"name": …, "arguments": {…}}`` (the
  tokenizers before v11: Mistral 7B v0.3, Nemo), or ``[TOOL_CALLS]NAME[ARGS]{…}`` for each
  call (v11 and later; v11 without ``[ARGS]``, v13 sometimes with ``[CALL_ID]ID`` before it);
- Llama 3.x's: ``<|python_tag|>`` at a line's start and one or more
  ``{"name": …, "parameters": {…}}`` objects (``;`` between them), or, as the whole message,
  those objects alone (or a JSON list of them, as Mistral's calls read when the server drops
  ``[TOOL_CALLS]`` with the other special tokens);
- Qwen3-Coder's ``<function=NAME>`` blocks at a line's start without ``<tool_call>`` around
  them (one left unclosed calls something only when it holds a ``<parameter=``).

As with ``<tool_call>`` blocks, they are calls only when they end the step's text (a whole
message, for bare JSON), with nothing after them but whitespace and end-of-turn tokens, or
what the template would put next, a tool's result the model made up (``[TOOL_RESULTS]``,
``<tool_response>``, Llama's ``ipython`` header), which is dropped with all that follows it.
Anything looser stays as written: a mention of ``[TOOL_CALLS]`` in a sentence, a call in
mid-answer, JSON inside a code fence, a JSON object that is not only a name and arguments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.assistant.openai_text_calls import FUNCTION_BLOCK, OPEN, function_call
from bot.assistant.tools import ToolCall

MISTRAL = "[TOOL_CALLS]"
ARGS = "[ARGS]"
CALL_ID = "[CALL_ID]"
PYTHON_TAG = "<|python_tag|>"
# What a chat template writes after the calls: the tool's result (made up, when the model
# writes it) or the header of the turn that brings it.
MADE_UP = ("[TOOL_RESULTS]", "<tool_response>", "<|start_header_id|>")
_END_TOKENS = ("</s>", "<|eom_id|>", "<|eot_id|>", "<|im_end|>", "</tool_call>")
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_CALL_ID = re.compile(r"\[CALL_ID\][A-Za-z0-9]{1,64}")
_KEYS = frozenset({"name", "arguments", "parameters", "type", "id"})
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class WrittenCalls:
    """Calls that end a text: where they begin, each call's name and arguments (JSON text, or
    the text as written when it is not JSON, which the tool then refuses), and whether a
    result the model made up after them was cut off."""

    start: int
    calls: tuple[tuple[str, str], ...]
    invented: bool


def written_calls(text: str, whole: bool) -> WrittenCalls | None:
    """The calls that end ``text`` in one of the forms above; ``whole`` says ``text`` is the
    whole of the step's text (so a bare JSON call may be read). None when there are none."""
    # The earliest form that opens calls ending the text wins: what comes before the calls
    # is shown, so it must not itself end in calls of another form.
    found = [f for f in (_mistral(text), _python_tag(text), _functions(text)) if f is not None]
    if not found:
        return _bare_json(text) if whole else None
    last = min(found, key=lambda f: f.start)
    # calls of another form may end the text before these (a model that changed forms between
    # calls): they are read too, or what is shown would end in them
    before = written_calls(text[: last.start], whole=False)
    if before is None:
        return last
    if before.invented:
        return before  # the later calls follow a result the model made up: dropped with it
    return WrittenCalls(before.start, before.calls + last.calls, last.invented)


def numbered(found: WrittenCalls, id_prefix: str) -> list[ToolCall]:
    """The calls as tool calls with ids ``<id_prefix><n>``."""
    return [
        ToolCall(f"{id_prefix}{n}", name, arguments)
        for n, (name, arguments) in enumerate(found.calls, start=1)
    ]


def _tail(text: str, position: int) -> bool | None:
    """What follows the calls from ``position``: None if it is more text (they are not calls),
    else whether it is a made-up result (dropped) rather than nothing."""
    rest = text[position:].strip()
    while rest.startswith(_END_TOKENS):
        rest = rest[len(next(t for t in _END_TOKENS if rest.startswith(t))) :].lstrip()
    if not rest:
        return False
    return True if rest.startswith(MADE_UP) else None


def _first(
    text: str, tag: str, read: Callable[[str, int], WrittenCalls | None]
) -> WrittenCalls | None:
    """The first place ``tag`` opens calls that end the text (an earlier one is prose)."""
    position = 0
    while (start := text.find(tag, position)) >= 0:
        found = read(text, start)
        if found is not None:
            return found
        position = start + len(tag)
    return None


def _mistral(text: str) -> WrittenCalls | None:
    return _first(text, MISTRAL, _mistral_at)


def _mistral_at(text: str, start: int) -> WrittenCalls | None:
    position = start + len(MISTRAL)
    after = text[position:].lstrip()
    if after.startswith("["):  # before v11: one JSON list
        value, end = _decode(text, len(text) - len(after))
        if not isinstance(value, list) or not value:
            return None
        calls = [_named(item) for item in value]
        if any(call is None for call in calls):
            return None
        tail = _tail(text, end)
        return None if tail is None else WrittenCalls(start, tuple(filter(None, calls)), tail)
    found: list[tuple[str, str]] = []
    while True:  # v11 on: NAME[ARGS]{…}, [TOOL_CALLS] before each
        name = _NAME.match(text, position)
        if name is None:
            return None
        position = name.end()
        if (call_id := _CALL_ID.match(text, position)) is not None:
            position = call_id.end()
        marked = text.startswith(ARGS, position)
        position += len(ARGS) if marked else 0
        value, end = _decode(text, position)
        if isinstance(value, dict):
            found.append((name.group(), json.dumps(value, ensure_ascii=False)))
        elif marked:  # the markers make it a call, whatever its arguments
            end = _next_of(text, position, (MISTRAL, *MADE_UP))
            found.append((name.group(), text[position:end].strip()))
        else:
            return None
        rest = text[end:].lstrip()
        if not rest.startswith(MISTRAL):
            tail = _tail(text, end)
            return None if tail is None else WrittenCalls(start, tuple(found), tail)
        position = len(text) - len(rest) + len(MISTRAL)


def _python_tag(text: str) -> WrittenCalls | None:
    return _first(text, PYTHON_TAG, _python_tag_at)


def _python_tag_at(text: str, start: int) -> WrittenCalls | None:
    if text[text.rfind("\n", 0, start) + 1 : start].strip():
        return None  # a special token, but a model writes it only at a line's start
    body_start = start + len(PYTHON_TAG)
    found = _json_calls(text, body_start)
    if found is not None:
        return WrittenCalls(start, found[0], found[1])
    # not JSON (Llama's built-in tools are written as Python): a call the tools refuse
    end = _next_of(text, body_start, (*MADE_UP, *_END_TOKENS))
    body = text[body_start:end].strip()
    if not body:
        return None  # the token alone calls nothing: left as written
    name = re.match(r"[A-Za-z0-9_]{1,64}", body)
    if name is None:
        # not a call Llama writes (``brave_search.call(…)``): maybe another form's tag, which
        # must not turn the calls before it into shown text; left as written
        return None
    # the token is never prose: whatever follows the call is dropped as made up
    return WrittenCalls(start, ((name.group(), body),), _tail(text, end) is not False)


def _bare_json(text: str) -> WrittenCalls | None:
    start = len(text) - len(text.lstrip())
    if text.startswith("[", start):
        value, end = _decode(text, start)
        if not isinstance(value, list) or not value:
            return None
        calls = [_named(item) for item in value]
        tail = None if any(c is None for c in calls) else _tail(text, end)
        return None if tail is None else WrittenCalls(start, tuple(filter(None, calls)), tail)
    found = _json_calls(text, start)
    return None if found is None else WrittenCalls(start, found[0], found[1])


def _json_calls(text: str, position: int) -> tuple[tuple[tuple[str, str], ...], bool] | None:
    """One or more call objects from ``position`` (``;`` between them) that end the text."""
    calls: list[tuple[str, str]] = []
    while True:
        value, end = _decode(text, len(text) - len(text[position:].lstrip()))
        call = _named(value)
        if call is None:
            return None
        calls.append(call)
        rest = text[end:].lstrip()
        if not rest.startswith(";"):
            tail = _tail(text, end)
            return None if tail is None else (tuple(calls), tail)
        position = len(text) - len(rest) + 1


def _named(value: object) -> tuple[str, str] | None:
    """A call object: a name and an object of arguments (``arguments`` or, as Llama writes
    them, ``parameters``), and no other keys than a call's."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    if not set(value) <= _KEYS or ("arguments" in value) == ("parameters" in value):
        return None
    arguments = value.get("arguments", value.get("parameters"))
    if isinstance(arguments, str):
        return value["name"], arguments  # encoded twice: read once more when run
    if not isinstance(arguments, dict):
        return None
    return value["name"], json.dumps(arguments, ensure_ascii=False)


def _functions(text: str) -> WrittenCalls | None:
    """``<function=…>`` blocks at lines' starts that end the text, without ``<tool_call>``."""
    return _first(text, "<function=", _functions_at)


def _functions_at(text: str, start: int) -> WrittenCalls | None:
    before = text[:start]
    if before[before.rfind("\n") + 1 :].strip() or before.rstrip().endswith(OPEN):
        return None  # in a sentence, or inside a <tool_call> block (read as that)
    calls: list[tuple[str, str]] = []
    position = start
    while (block := FUNCTION_BLOCK.match(text, position)) is not None:
        body_end = _next_of(text, block.start(2), MADE_UP)
        unclosed = block.end() > body_end or not block.group(0).endswith("</function>")
        if block.end() > body_end:  # unclosed: it ends where a made-up result begins
            body = text[block.start(2) : body_end]
            position = body_end
        else:
            body, position = block.group(2), block.end()
        call = function_call("", block.group(1), body)
        if unclosed and call.arguments == "{}":
            # the opening tag alone calls nothing (as ``<|python_tag|>`` alone does): left as
            # written, so a <tool_call> block after it does not leave it shown as a call
            return None
        calls.append((call.name, call.arguments))
        if not text[position:].lstrip().startswith("<function="):
            break
    tail = _tail(text, position) if calls else None
    return None if tail is None else WrittenCalls(start, tuple(calls), tail)


def _decode(text: str, position: int) -> tuple[object, int]:
    """The JSON value at ``position`` and where it ends; None (and ``position``) if none."""
    try:
        return _DECODER.raw_decode(text, position)
    except ValueError:
        return None, position


def _next_of(text: str, position: int, tags: tuple[str, ...]) -> int:
    """Where the first of ``tags`` after ``position`` begins, or the text's end."""
    found = [i for tag in tags if (i := text.find(tag, position)) >= 0]
    return min(found, default=len(text))
