"""What the model is told: short citation rules and the tool descriptions, nothing more.

The model never receives a separate numbered source list: every number it may cite arrives
beside its evidence in a tool result (``[cite: N]`` headings, a ``Cite`` column, ``cite`` fields).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.knowledge.records import TableSummary
from bot.models import Exchange

SYSTEM_PROMPT = """\
You answer questions using only the tools' results about the knowledge base.

Citation rules:
- Search first. Every result carries its number beside it: a [cite: N] heading, a Cite column \
or a "cite" field.
- After each sentence that uses a result, write its number in square brackets, like [2] or \
[1][3]. Cite only numbers the tools gave you in this conversation.
- A bracketed number inside a passage's text is that document's own reference, not a result \
number: never copy it.
- For a record you may instead write [[{key_word} key="KEY" columns="col1, col2"]] with the \
record's key and the columns you used.
- Do not write a list of sources or references at the end; citecast adds one.
- If the results do not answer the question, say you could not find it in the knowledge base \
and cite nothing.
Answer briefly, in the language of the question, using Markdown."""


def system_prompt(key_word: str = "source") -> str:
    """The system message, with the configured record-key word."""
    return SYSTEM_PROMPT.replace("{key_word}", key_word)


def tool_specs(tables: Mapping[str, TableSummary]) -> list[dict[str, Any]]:
    """OpenAI tool definitions: ``search_docs`` always, ``lookup_records`` when tables exist."""
    specs: list[dict[str, Any]] = [
        {
            "type": "function",
            "function": {
                "name": "search_docs",
                "description": "Full-text search of the knowledge base. Returns the best passages, "
                "each under a [cite: N] heading with its title, section and page.",
                "parameters": {
                    "type": "object",
                    "properties": {"query": {"type": "string", "description": "search words"}},
                    "required": ["query"],
                },
            },
        }
    ]
    if tables:
        described = "; ".join(_table_line(name, summary) for name, summary in tables.items())
        specs.append(
            {
                "type": "function",
                "function": {
                    "name": "lookup_records",
                    "description": "Look up rows of a record table. Each row has a cite number "
                    f"and a key. Tables: {described}.",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "table": {"type": "string", "enum": list(tables)},
                            "query": {
                                "type": "string",
                                "description": "search words; empty for the table's first rows",
                            },
                        },
                        "required": ["table", "query"],
                    },
                },
            }
        )
    return specs


def _table_line(name: str, summary: TableSummary) -> str:
    """``products: Plans and what they cost (tier, price_usd)`` for the tool description."""
    about = f": {summary.description}" if summary.description else ""
    return f"{name}{about} ({', '.join(summary.columns)})"


# An old citation in the form a channel stored it: "[^1]" (Answer.text, Discourse, web),
# "[1]" (Slack, the CLI), "<https://…|[1]>" (a Slack link), "\\[1\\]" (Discord escapes the
# brackets), each also weakly supported ("[1?]", grounding's annotate policy), with the spaces
# before it (a no-break space or word joiner glues a marker to its word: renderers.glue).
# Footnote definition lines ("[^1]: [Title](url), p. 3", a Discourse post's sources) go whole.
# Code spans and fences are matched first and kept, so "x[1]" in code survives.
_MARKER = r"\\?\[\^?\d{1,3}\??\\?\]"
_OLD_CITATION = re.compile(
    r"(?P<code>```.*?(?:```|\Z)|`[^`\n]*`)"
    r"|(?m:^[ \t]*\[\^\d{1,3}\]:[^\n]*\n?)"
    rf"|[ \t\u00a0\u2060]*(?:<[^<>|\s]+\|{_MARKER}>|{_MARKER})",
    re.DOTALL,
)


def without_citations(text: str) -> str:
    """``text`` without the citation markers an earlier answer carried, in any channel's form."""
    return _OLD_CITATION.sub(lambda m: m.group("code") or "", text)


def history_messages(history: Sequence[Exchange]) -> list[dict[str, Any]]:
    """Earlier turns as chat messages, without their old citation markers.

    Old numbers belong to old turns; leaving them in would invite the model to cite them now.
    History comes back from each channel in that channel's form (see :func:`without_citations`),
    as many exchanges as its setting gives (``web.history_turns``, ``slack.history_turns``, …):
    every one is passed on, since a context too small for them is named with those settings.
    """
    messages: list[dict[str, Any]] = []
    for exchange in history:
        messages.append({"role": "user", "content": exchange.question})
        messages.append({"role": "assistant", "content": without_citations(exchange.answer)})
    return messages
