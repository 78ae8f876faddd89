"""How the fake Slack reads and writes threads: ``conversations.replies`` paging (``oldest``,
``inclusive``, cursors) and replies to a question deleted meanwhile.

Slack keeps a deleted message that has replies as a tombstone (its thread goes on), but one
without replies is gone: ``chat.postMessage`` with its ``thread_ts`` then succeeds *outside*
any thread, as a message of the channel itself (the answer's ``message`` has no ``thread_ts``),
and ``chat.startStream`` refuses it (``invalid_thread_ts``).
"""

from __future__ import annotations

import base64
import re
from typing import Any

Json = dict[str, Any]
# A message timestamp as Slack writes it: Unix seconds, optionally with a fraction ("1.5", "0").
TS_PATTERN = re.compile(r"\d+(\.\d+)?")


def parent_gone(
    messages: list[Json], deleted: set[tuple[str, str]], channel: str, thread_ts: str
) -> bool:
    """True when ``thread_ts`` names a message deleted without replies (no thread to join)."""
    if (channel, thread_ts) not in deleted:
        return False
    return not any(m["ts"] == thread_ts or m.get("thread_ts") == thread_ts for m in messages)


def flag(value: object) -> bool:
    """A boolean argument as Slack reads it from a form or JSON body ("true", "1", true)."""
    return str(value).lower() in ("1", "true")


def since_oldest(thread: list[Json], parent_ts: str, args: Json) -> tuple[list[Json], Json | None]:
    """The thread from ``oldest`` on: replies after it (at it too when ``inclusive``); or
    Slack's refusal of a malformed ``oldest``.

    The parent stays first, as Slack is reported to keep it (its docs are silent), so a client
    that relies on every message being newer than ``oldest`` fails here.
    """
    oldest = args.get("oldest")
    if oldest is None or oldest == "":
        return thread, None
    if not TS_PATTERN.fullmatch(str(oldest)):
        return thread, {"ok": False, "error": "invalid_ts_oldest"}
    bound, inclusive = float(str(oldest)), flag(args.get("inclusive"))
    kept = [
        m
        for m in thread
        if m["ts"] == parent_ts or float(m["ts"]) > bound or (inclusive and float(m["ts"]) == bound)
    ]
    return kept, None


def cursor_for(ts: str) -> str:
    """An opaque cursor in Slack's form (base64 of ``next_ts:…``)."""
    return base64.b64encode(f"next_ts:{ts}".encode()).decode()


def cursor_ts(cursor: str) -> float | None:
    """The ts a cursor from :func:`cursor_for` starts at; None for a cursor Slack refuses."""
    try:
        decoded = base64.b64decode(cursor.encode(), validate=True).decode()
        return float(decoded.removeprefix("next_ts:")) if decoded.startswith("next_ts:") else None
    except ValueError:
        return None
