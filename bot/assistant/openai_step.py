"""What one model step of the OpenAI-compatible backend produced, read from a completion or
from the chunks of a stream.

Streamed tool calls arrive in pieces keyed by ``index``. Some servers (Ollama, LiteLLM) send
parallel calls all with ``index`` 0, each with its own ``id`` and whole name, so a piece that
brings an ``id`` other than the one stored at its index starts a new call, and a name is never
appended to a call whose name is already complete (see :meth:`Step.add_call_delta`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.assistant.tools import ToolCall

NORMAL_FINISH = frozenset({"stop", "tool_calls", "function_call"})
"""finish_reason values of a step that ended as the model meant it to."""


@dataclass
class Step:
    """One model step: its text, the tool calls it asked for, and why it ended.

    ``finish_reason`` stays None until the endpoint says why the step ended; a stream that ends
    without saying so was cut off.
    """

    text: list[str] = field(default_factory=list)
    calls: list[dict[str, str]] = field(default_factory=list)
    finish_reason: str | None = None
    _at_index: dict[int, int] = field(default_factory=dict)  # stream index -> position in calls

    def tool_calls(self) -> list[ToolCall]:
        """The calls in the order the model made them (ids filled in where the server sent none)."""
        return [
            ToolCall(c.get("id") or f"call_{i}", c.get("name", ""), c.get("arguments", ""))
            for i, c in enumerate(self.calls)
        ]

    def add_call(self, call_id: str | None, name: str | None, arguments: str | None) -> None:
        """A whole tool call (non-streaming responses)."""
        self.calls.append({"id": call_id or "", "name": name or "", "arguments": arguments or ""})

    def add_call_delta(
        self, index: int | None, call_id: str | None, name: str | None, arguments: str | None
    ) -> None:
        """One streamed piece of a tool call."""
        index = index if isinstance(index, int) else 0
        position = self._at_index.get(index)
        entry = self.calls[position] if position is not None else None
        if entry is not None and call_id and entry["id"] and call_id != entry["id"]:
            entry = None  # a new id at a used index: the next parallel call (Ollama, LiteLLM)
        if entry is not None and name and entry.get("name"):
            # A name may come in pieces, but once the call's arguments began (or the piece
            # repeats the call's id) it is complete: the same name again is a repeated header,
            # not more name; another name is another call.
            complete = bool(entry.get("arguments")) or (bool(call_id) and call_id == entry["id"])
            if complete and name == entry["name"] and not _whole_json(entry["arguments"]):
                name = None
            elif complete:
                # another name, or the same one after whole arguments (parallel calls of one
                # tool at one index, without ids): another call
                entry = None
        if entry is None:
            entry = {"id": "", "name": "", "arguments": ""}
            self._at_index[index] = len(self.calls)
            self.calls.append(entry)
        if call_id:
            entry["id"] = call_id
        if name:
            entry["name"] += name
        if arguments:
            entry["arguments"] += arguments

    def read_chunk(self, chunk: Any) -> list[str]:
        """Take in one stream chunk; return the answer text it carries."""
        out: list[str] = []
        for choice in getattr(chunk, "choices", None) or []:
            if choice.finish_reason:
                self.finish_reason = str(choice.finish_reason)
            delta = choice.delta
            if delta is None:
                continue
            if delta.content:
                self.text.append(delta.content)
                out.append(delta.content)
            for call in delta.tool_calls or []:
                function = call.function
                self.add_call_delta(
                    getattr(call, "index", None),
                    call.id,
                    function.name if function is not None else None,
                    function.arguments if function is not None else None,
                )
        return out


def _whole_json(text: str) -> bool:
    """True when ``text`` is a complete JSON value (a call's arguments that are finished)."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
