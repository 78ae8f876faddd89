"""The client one answer's stream talks through, telling the moment Slack starts the stream.

slack_sdk's chat stream starts its message inside ``append`` (once a buffer fills) or inside
``stop`` (an answer shorter than the buffer), and in ``stop`` it goes straight on to
``chat.stopStream`` without handing the new message's ts back first. A process killed while
that second call is on its way would leave a message nobody recorded, which a restart could
then neither find as the question's half answer nor delete (``slack_replies``). So the stream
is given this client: the bot's own client in every respect (token, address, retries, session),
except that ``chat.startStream`` passes the new message's ts to ``started`` the moment Slack
returns it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse


class StreamStartClient(AsyncWebClient):
    """``client``'s twin whose ``chat.startStream`` reports the started message's ts."""

    def __init__(self, client: AsyncWebClient, started: Callable[[str], None]) -> None:
        # deliberately not AsyncWebClient.__init__: the twin shares the client's whole
        # configuration and session as they are, rather than rebuilding them
        self.__dict__.update(client.__dict__)
        self._started = started

    async def chat_startStream(  # noqa: N802 (slack_sdk's method name)
        self, *args: Any, **kwargs: Any
    ) -> AsyncSlackResponse:
        """Start the stream as Slack's client does, then report its ts (when Slack gave one)."""
        response = await super().chat_startStream(*args, **kwargs)
        ts = response.get("ts")
        if isinstance(ts, str) and ts:
            self._started(ts)
        return response


__all__ = ["StreamStartClient"]
