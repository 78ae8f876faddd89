"""Slack's assistant threads (the *Agents & AI Apps* side panel): the suggested prompts offered
when a thread starts. A side call: a failure is logged and costs nothing else. (The thread's
status, ``thinking…`` while an answer is written, is set by ``SlackPoster.set_status``.)"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.slack_client import SLACK_CALL_ERRORS, error_code

log = logging.getLogger(__name__)

MAX_PROMPTS = 4  # assistant.threads.setSuggestedPrompts takes at most four
MAX_TITLE = 75


async def suggest_prompts(
    client: AsyncWebClient, event: dict[str, Any], prompts: Sequence[str]
) -> None:
    """Offer ``prompts`` in the assistant thread an ``assistant_thread_started`` event opened."""
    thread = event.get("assistant_thread") or {}
    channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
    if not channel or not thread_ts or not prompts:
        return
    try:
        await client.assistant_threads_setSuggestedPrompts(
            channel_id=channel,
            thread_ts=thread_ts,
            prompts=[{"title": _title(p), "message": p} for p in prompts[:MAX_PROMPTS]],
        )
    except SLACK_CALL_ERRORS as exc:
        log.warning("assistant.threads.setSuggestedPrompts failed: %s", error_code(exc))


def _title(prompt: str, limit: int = MAX_TITLE) -> str:
    return prompt if len(prompt) <= limit else prompt[: limit - 1].rstrip() + "\u2026"
