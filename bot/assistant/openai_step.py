"""What one model step of the OpenAI-compatible backend produced, read from a completion or
from the chunks of a stream.

Streamed tool calls arrive in pieces keyed by ``index``. Some servers (Ollama, LiteLLM) send
parallel calls all with ``index`` 0, each with its own ``id`` and whole name, so a piece that
brings an ``id`` other than the one stored at its index starts a new call, and a name is never
appended to a call whose name is already complete, nor to itself when a server repeats it in
every piece (see :meth:`Step.add_call_delta`).

What servers do to a call's arguments and ids (objects instead of JSON text, JSON encoded
twice, several calls glued into one, one id for several calls) is undone in
:mod:`bot.assistant.openai_arguments`.

A reasoning model served without a reasoning parser (vLLM without ``--reasoning-parser``,
llama.cpp with ``--reasoning-format none``, any server that passes the model's output through)
writes its thinking into ``content`` as a ``<think>…</think>`` block before the answer. That is
not the answer: shown, it would put the model's deliberation (and every number it mulled over)
in front of the reader, so a block that opens the step's text is left out (:class:`ThinkFilter`).
Mistral sends ``content`` as a list of parts instead, its thinking a part of its own
(:func:`content_text`).

A model whose server does not parse its tool calls writes them into ``content`` as
``<tool_call>`` blocks (or in Mistral's, Llama's or Qwen3-Coder's bare form); when the step's
text ends with them and the step has no structured calls, they are the step's calls
(:mod:`bot.assistant.openai_text_calls`, :mod:`bot.assistant.openai_written_calls`), and in any
case they are never part of the text the reader sees. Such a model may go on to write the
tools' answer itself, as a ``<tool_response>`` block (or ``[TOOL_RESULTS]``), and an answer
drawn from it: made up, so the step's text ends before it, and a ``<tool_response>`` block is
never shown either.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.assistant.openai_arguments import (
    arguments_text,
    objects,
    unique_ids,
    unwrapped,
    whole_json,
)
from bot.assistant.openai_call_hold import CallHold
from bot.assistant.openai_errors import error_text
from bot.assistant.openai_text_calls import (
    before_invented_response,
    text_calls,
    without_blocks,
    without_responses,
)
from bot.assistant.openai_written_calls import numbered, written_calls
from bot.assistant.surrogate_halves import SurrogateJoin
from bot.assistant.tools import ToolCall

NORMAL_FINISH = frozenset({"stop", "tool_calls", "function_call", "eos_token", "stop_sequence"})
"""finish_reason values of a step that ended as the model meant it to (older releases of
Hugging Face TGI say "eos_token" or "stop_sequence" where OpenAI says "stop")."""

FAILED_FINISH = frozenset({"error", "abort"})
"""finish_reason values of a step the server gave up on (OpenRouter's "error", vLLM's
"abort"): what was written is a fragment, and shown it would read as the whole answer."""


@dataclass
class Step:
    """One model step: its text, the tool calls it asked for, and why it ended.

    ``finish_reason`` stays None until the endpoint says why the step ended; a stream that ends
    without saying so was cut off. ``error`` is the reason a server gave on the choice itself
    (OpenRouter sends ``finish_reason: "error"`` with an ``error`` object beside it).
    ``text_calls`` are the calls the model wrote as text (known at :meth:`end_text`), numbered
    ``text_call_<number>_<n>`` so that every call of a turn has an id of its own;
    ``blocks_left_out`` counts the ``<tool_call>`` blocks taken out of the text instead;
    ``invented_response`` says the text was cut before a ``<tool_response>`` the model wrote
    after its calls, and ``responses_left_out`` counts the ones taken out elsewhere.
    ``refusal`` is what OpenAI's ``refusal`` field said in place of an answer ("I can't help
    with that"; :func:`bot.assistant.openai_step_end.refusal_answer`).
    """

    text: list[str] = field(default_factory=list)
    calls: list[dict[str, str]] = field(default_factory=list)
    finish_reason: str | None = None
    error: str = ""
    number: int = 0
    text_calls: list[ToolCall] = field(default_factory=list)
    blocks_left_out: int = 0
    invented_response: bool = False
    responses_left_out: int = 0
    refusal: str = ""
    _at_index: dict[int, int] = field(default_factory=dict)  # stream index -> position in calls
    _halves: SurrogateJoin = field(default_factory=SurrogateJoin)
    _thinking: ThinkFilter = field(default_factory=lambda: ThinkFilter())
    _calls_hold: CallHold = field(default_factory=lambda: CallHold())

    @property
    def asked_for_tools(self) -> bool:
        """Whether the step asked for tools (in ``tool_calls`` or as text)."""
        return bool(self.calls or self.text_calls)

    def add_text(self, content: object) -> str:
        """Take in answer text as the model wrote it; return what of it the reader sees."""
        visible = self._thinking.feed(self._halves.feed(content_text(content)))
        visible = self._calls_hold.feed(visible) if visible else ""
        if visible:
            self.text.append(visible)
        return visible

    def end_text(self) -> str:
        """At the step's end (its structured calls all read): the text held back, as
        :meth:`add_text` would have returned it: what may have begun a thinking block and did
        not (``"<thi"`` and no more), and what followed a ``<tool_call>`` or
        ``<tool_response>`` line, less its blocks, and less a response the model made up after
        its calls and everything after that.
        When that text ends with blocks and the step has no structured calls, they become
        :attr:`text_calls` and the text before them is all that is shown."""
        rest = self._thinking.feed(self._halves.end()) + self._thinking.end()
        rest = self._calls_hold.feed(rest) if rest else ""
        held = self._calls_hold.end()
        cut = before_invented_response(held) if held else None
        if cut is not None:
            held, self.invented_response = cut, True
        prefix = f"text_call_{self.number}_"
        found = None if self.calls or not held else text_calls(held, prefix)
        earlier = None if found is None else written_calls(found[0], whole=False)
        if found is not None and earlier is not None:
            # calls of another form before the blocks: read too (and first), as what is shown
            # must not end in calls; those after a result the model made up are dropped
            later = [] if earlier.invented else found[1]
            self.invented_response = self.invented_response or earlier.invented
            calls = [*numbered(earlier, prefix), *later]
            found = (
                found[0][: earlier.start],
                [replace(c, id=f"{prefix}{n}") for n, c in enumerate(calls, start=1)],
            )
        written = None if found is not None or not held else written_calls(held, self._whole)
        if written is not None:
            # Mistral's, Llama's or a bare <function=> form: read as blocks are (beside
            # structured calls, left out as blocks are)
            held = held[: written.start]
            self.invented_response = self.invented_response or written.invented
            if self.calls:
                self.blocks_left_out += len(written.calls)
            else:
                found = (held, numbered(written, prefix))
        if found is not None:
            held, self.text_calls = found
        kept, left_out = without_blocks(held)
        self.blocks_left_out += left_out
        # a response the model made up before its calls is no more evidence than one after
        kept, self.responses_left_out = without_responses(kept)
        rest += kept if found is None or kept.strip() else ""
        if rest:
            self.text.append(rest)
        return rest

    @property
    def _whole(self) -> bool:
        """Whether what is held back is the whole of the step's text (nothing shown yet)."""
        return not "".join(self.text).strip()

    def tool_calls(self) -> list[ToolCall]:
        """The calls in the order the model made them (ids filled in where the server sent none),
        or when it made none in ``tool_calls``, the ones it wrote as text.

        Arguments that are several JSON objects one after the other are several calls of that
        tool: a server that streams parallel calls at one index without ids or names (LiteLLM,
        some vLLM tool parsers) or sends them in one string (Gemini) glues them together, and
        read as one call they are not JSON at all. Each later one gets the id ``<id>_<n>``.
        Arguments encoded twice are read once, and an id the server gave two calls is made
        unique (:mod:`bot.assistant.openai_arguments`).
        """
        if not self.calls:
            return list(self.text_calls)
        calls: list[ToolCall] = []
        for i, c in enumerate(self.calls):
            call_id, name = c.get("id") or f"call_{i}", c.get("name", "")
            parts = objects(c.get("arguments", "")) or [c.get("arguments", "")]
            calls.extend(
                ToolCall(call_id if n == 1 else f"{call_id}_{n}", name, unwrapped(part))
                for n, part in enumerate(parts, start=1)
            )
        return unique_ids(calls)

    def add_call(self, call_id: str | None, name: str | None, arguments: object) -> None:
        """A whole tool call (non-streaming responses)."""
        self.calls.append(
            {"id": call_id or "", "name": name or "", "arguments": arguments_text(arguments)}
        )

    def add_call_delta(
        self, index: int | None, call_id: str | None, name: str | None, arguments: object
    ) -> None:
        """One streamed piece of a tool call."""
        piece = arguments_text(arguments)
        index = index if isinstance(index, int) else 0
        position = self._at_index.get(index)
        entry = self.calls[position] if position is not None else None
        if entry is not None and call_id and entry["id"] and call_id != entry["id"]:
            entry = None  # a new id at a used index: the next parallel call (Ollama, LiteLLM)
        if entry is not None and name and entry.get("name"):
            # A name may come in pieces, but the same name again is a repeated header, not more
            # name (MiniMax on NVIDIA NIM repeats it in every piece, before the arguments too:
            # appended, "search_docssearch_docs" named no tool). Once the call's arguments
            # began (or the piece repeats the call's id) the name is complete: another name is
            # another call.
            complete = bool(entry.get("arguments")) or (bool(call_id) and call_id == entry["id"])
            if name == entry["name"] and not whole_json(entry["arguments"]):
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
        if piece:
            entry["arguments"] += piece

    def read_chunk(self, chunk: Any) -> list[str]:
        """Take in one stream chunk; return the answer text it carries."""
        out: list[str] = []
        for choice in getattr(chunk, "choices", None) or []:
            if choice.finish_reason:
                self.finish_reason = str(choice.finish_reason)
            self.error = error_text(getattr(choice, "error", None)) or self.error
            delta = choice.delta
            if delta is None:
                continue
            refusal = getattr(delta, "refusal", None)
            if isinstance(refusal, str):
                self.refusal += refusal  # streamed in pieces, as content is
            if delta.content:  # a str, or a list of parts (Mistral)
                visible = self.add_text(delta.content)
                if visible:
                    out.append(visible)
            for call in delta.tool_calls or []:
                function = call.function
                self.add_call_delta(
                    getattr(call, "index", None),
                    call.id,
                    function.name if function is not None else None,
                    function.arguments if function is not None else None,
                )
        return out


class ThinkFilter:
    """Leaves out a ``<think>…</think>`` block that opens a step's text, however it is chunked.

    Only at the start (after whitespace): "<think>" later in an answer is something the model
    is writing about. Text is held back only while it may still be the opening tag, and inside
    the block; after it, whitespace before the answer is dropped too.
    """

    OPEN = "<think>"
    CLOSE = "</think>"

    def __init__(self) -> None:
        self._state = "start"  # start -> (inside -> after ->) shown
        self._held = ""

    def feed(self, text: str) -> str:
        """The part of ``text`` (with what was held back) that is answer."""
        if self._state == "shown":
            return text
        self._held += text
        if self._state == "start":
            begun = self._held.lstrip()
            if self.OPEN.startswith(begun):
                return ""  # whitespace, or "<thi": wait for more
            if not begun.startswith(self.OPEN):
                return self._show(self._held)
            self._state, self._held = "inside", begun[len(self.OPEN) :]
        if self._state == "inside":
            end = self._held.find(self.CLOSE)
            if end < 0:
                # keep only what may be the start of the closing tag
                self._held = self._held[-(len(self.CLOSE) - 1) :]
                return ""
            self._state, self._held = "after", self._held[end + len(self.CLOSE) :]
        answer = self._held.lstrip()
        self._held = ""
        return self._show(answer) if answer else ""

    def end(self) -> str:
        """What was held back and is answer after all (never a part of a thinking block)."""
        rest, self._held = (self._held if self._state == "start" else ""), ""
        return rest

    def _show(self, text: str) -> str:
        self._state, self._held = "shown", ""
        return text


def content_text(content: object) -> str:
    """A message's text: the API's string, or the ``text`` parts of a list of parts.

    Mistral's reasoning models send ``[{"type": "thinking", …}, {"type": "text", "text": …}]``;
    the thinking part is not the answer, for the same reason as a ``<think>`` block.
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict)
            and part.get("type") == "text"
            and isinstance(part.get("text"), str)
        )
    return ""
