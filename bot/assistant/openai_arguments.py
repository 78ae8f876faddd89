"""A tool call's arguments and id as compatible servers send them, made what the API means.

Arguments are JSON text in the API, but some servers send them as a JSON object (the client
passes whatever came through unvalidated), so an object is written back as JSON text
(:func:`arguments_text`) rather than failing the turn. Others encode the text twice
(:func:`unwrapped`), glue parallel calls into one string of several objects (:func:`objects`),
or give parallel calls one id (:func:`unique_ids`). What goes back to the endpoint in the
conversation is an object, whatever the model wrote (:func:`echoed_arguments`).
"""

from __future__ import annotations

import json

from bot.assistant.tools import ToolCall


def arguments_text(arguments: object) -> str:
    """A call's arguments as the JSON text the API specifies (an object some servers send
    instead is serialized; nothing is ``""``)."""
    if arguments is None:
        return ""
    if isinstance(arguments, str):
        return arguments
    try:
        return json.dumps(arguments, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(arguments)  # not JSON at all: the tool reports invalid arguments


def echoed_arguments(arguments: str) -> str:
    """A call's arguments as they go back to the endpoint in the conversation: as the model
    wrote them when they are a JSON object, else ``"{}"``.

    vLLM parses every earlier call's arguments into an object before the next step (chat
    templates iterate over them): older releases refused the whole request over one malformed
    call, with a JSON parser's message, where the model should read the tool's error and try
    again. Newer releases turn it into ``{}`` themselves, as this does.
    """
    try:
        value = json.loads(arguments)
    except ValueError:
        return "{}"
    return arguments if isinstance(value, dict) else "{}"


def unwrapped(arguments: str) -> str:
    """A call's arguments with one layer of JSON encoding too many taken off: a JSON string
    whose text is a JSON object becomes that object's text; anything else stays as it is.

    A model that writes its arguments as a string (IBM Granite 4 does) behind vLLM's Hermes
    parser, which encodes them once more, sends ``"{\\"query\\": \\"retry\\"}"``: read as
    it is, every call fails with "must be an object", and the model, told so, writes it the
    same way again.
    """
    try:
        inner = json.loads(arguments)
        value = json.loads(inner) if isinstance(inner, str) else None
    except ValueError:
        return arguments
    return inner if isinstance(inner, str) and isinstance(value, dict) else arguments


def unique_ids(calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` with every id its own: a later call with an id already taken gets
    ``<id>_<n>``.

    Some servers and proxies give parallel calls one id (or a fixed one for each tool). Each
    call is answered by a ``tool`` message naming its id, and two answers to one id are
    refused by the next request ("tool message answers unknown tool_call_id") or pair a result
    with the wrong call.
    """
    taken: set[str] = set()
    out: list[ToolCall] = []
    for call in calls:
        call_id, n = call.id, 1
        while call_id in taken:
            n += 1
            call_id = f"{call.id}_{n}"
        taken.add(call_id)
        out.append(call if call_id == call.id else ToolCall(call_id, call.name, call.arguments))
    return out


def objects(text: str) -> list[str] | None:
    """The JSON objects ``text`` holds one after the other, when it is two or more of them and
    nothing else (else None: one value, or anything that is not such a run, stays as it is)."""
    decoder = json.JSONDecoder()
    found: list[str] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return found if len(found) > 1 else None
        try:
            value, end = decoder.raw_decode(text, position)
        except ValueError:
            return None
        if not isinstance(value, dict):
            return None
        found.append(text[position:end])
        position = end


def whole_json(text: str) -> bool:
    """True when ``text`` is a complete JSON value (a call's arguments that are finished)."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def unreadable(calls: list[ToolCall]) -> list[ToolCall]:
    """The calls whose arguments are not JSON at all (the tool answers each with an error the
    model reads; the operator is told too: a model that keeps doing it needs a better template
    or another model)."""
    found: list[ToolCall] = []
    for call in calls:
        try:
            json.loads(call.arguments or "{}")
        except (json.JSONDecodeError, TypeError):
            found.append(call)
    return found
