"""Test harness for the Slack connector: a real connector, bolt app and store against the fake.

``slack_world(tmp_path, answerer, **settings)`` starts :class:`FakeSlackAPI` on loopback, builds
``Services`` with a real ``Store`` in ``tmp_path`` and the given answerer, constructs the real
:class:`SlackConnector` pointed at the fake and mounts its routes in a Starlette app reached
through ``httpx.ASGITransport``. Events go in as signed HTTP requests (``post_event``), button
clicks as signed interactivity payloads (``click``). ``sleeps`` records every retry/edit wait
the connector asked for (the waits themselves are skipped). ``slack_world_at(clock, …)`` is the
same world with ``clock`` as the store's clock (what is due in the outbox, and when), and
``unreachable_slack_world(…)`` one whose Slack refuses every connection until
``world.fake.come_up()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
from starlette.applications import Starlette

from bot.assistant.base import Answerer, Reply, ReplyEvent
from bot.config import Settings, SlackSettings
from bot.connectors.slack import SlackConnector
from bot.models import Answer, Citation, CitationAdded, Exchange, Source, TextDelta
from bot.runtime import Services
from bot.store import Store
from tests.fakes.slack_api import FakeSlackAPI, slack_signature_headers

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
PUBLIC = "C0PUBLIC"
PRIVATE = "G0PRIVATE"
DM = "D0DM"
ASKER = "U0ASKER"
_event_ids = itertools.count(1)
Json = dict[str, Any]


@dataclass
class SlackWorld:
    """Everything a Slack connector test touches."""

    fake: FakeSlackAPI
    connector: SlackConnector
    store: Store
    http: httpx.AsyncClient
    sleeps: list[float] = field(default_factory=list)

    async def post_event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        timestamp: int | None = None,
        secret: str = SECRET,
        wait: bool = True,
    ) -> httpx.Response:
        """Deliver an Events API callback as Slack would (signed), then wait for the answer."""
        self.fake.keep_reply_of(event)  # Slack has the message an event is about
        body = json.dumps(event_body(event, event_id or f"Ev{next(_event_ids):08d}")).encode()
        headers = {"Content-Type": "application/json"}
        headers.update(slack_signature_headers(secret, body, timestamp, retry_num))
        response = await self.http.post("/slack/events", content=body, headers=headers)
        if wait:
            await settle(self.connector)
        return response

    def snapshot(self, into: Path) -> dict[str, list[dict[str, Any]]]:
        """What a stop or a kill at this moment leaves: the store file (copied into ``into``,
        as ``citecast.db``) and Slack's messages."""
        into.mkdir()
        source = sqlite3.connect(self.store.path)
        target = sqlite3.connect(str(into / "citecast.db"))
        with target:
            source.backup(target)
        source.close()
        target.close()
        return copy.deepcopy(dict(self.fake.state.messages))

    async def click(
        self, action_id: str, value: str, *, user: str = ASKER, channel: str = PUBLIC
    ) -> httpx.Response:
        """Press a button in a message (a signed block_actions interactivity payload)."""
        payload = {
            "type": "block_actions",
            "team": {"id": self.fake.team_id},
            "user": {"id": user},
            "api_app_id": "A0APP",
            "container": {"type": "message", "channel_id": channel, "thread_ts": "1.0"},
            "channel": {"id": channel},
            "message": {"ts": "2.0", "thread_ts": "1.0"},
            "actions": [
                {"type": "button", "action_id": action_id, "block_id": "b", "value": value}
            ],
            "trigger_id": "1.2.3",
            "response_url": self.fake.response_url("click"),
        }
        body = urlencode({"payload": json.dumps(payload)}).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        headers.update(slack_signature_headers(SECRET, body))
        response = await self.http.post("/slack/interactions", content=body, headers=headers)
        await settle(self.connector)
        return response


async def settle(connector: SlackConnector) -> None:
    """Wait for every admitted event to be answered (a safety bound, not a timing check)."""
    await asyncio.wait_for(connector.drain(), timeout=120)


def event_body(event: dict[str, Any], event_id: str, team: str = "T0TEAM") -> dict[str, Any]:
    """The Events API envelope around ``event``."""
    return {
        "token": "legacy",
        "team_id": team,
        "api_app_id": "A0APP",
        "event": event,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "authorizations": [{"team_id": team, "user_id": "U0BOT", "is_bot": True}],
    }


def mention(text: str, *, channel: str = PUBLIC, ts: str | None = None, **extra: Any) -> Json:
    """An ``app_mention`` event from the asker."""
    return {
        "type": "app_mention",
        "user": ASKER,
        "text": f"<@U0BOT> {text}",
        "channel": channel,
        "ts": ts or _fresh_ts(),
        "team": "T0TEAM",
        **extra,
    }


def direct_message(text: str, *, channel: str = DM, ts: str | None = None, **extra: Any) -> Json:
    """A ``message`` event in a DM with the bot."""
    return {
        "type": "message",
        "channel_type": "im",
        "user": ASKER,
        "text": text,
        "channel": channel,
        "ts": ts or _fresh_ts(),
        "team": "T0TEAM",
        **extra,
    }


_ts_counter = itertools.count(1)


def _fresh_ts() -> str:
    return f"1600000000.{next(_ts_counter):06d}"


def long_thread(fake: FakeSlackAPI, replies: int, *, channel: str = PUBLIC) -> str:
    """A question with ``replies`` replies from people, all written an hour ago (so before
    anything the bot posts); returns the question's ts."""
    hour_ago = time.time_ns() // 1000 - 3_600_000_000
    stamps = [_slack_ts(hour_ago + step) for step in range(replies + 1)]
    root = fake.add_message(channel, "<@U0BOT> deploy?", ASKER, ts=stamps[0])
    for n, ts in enumerate(stamps[1:], start=1):
        fake.add_message(channel, f"reply {n}", "U0OTHER", thread_ts=root, ts=ts)
    return root


def _slack_ts(micros: int) -> str:
    """A Slack ts for a moment given in microseconds since the epoch."""
    return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"


def standard_workspace(fake: FakeSlackAPI) -> None:
    """A public channel, a private channel, a DM and the asker with a staff email."""
    fake.add_channel(PUBLIC, "public", "general")
    fake.add_channel(PRIVATE, "private", "staff-only")
    fake.add_channel(DM, "im")
    fake.add_user(ASKER, "ada@staff.example")


def slack_world(
    tmp_path: Path, answerer: Answerer, **slack: Any
) -> contextlib.AbstractAsyncContextManager[SlackWorld]:
    """The fake Slack, the real connector and a real store, wired together."""
    return slack_world_at(time.time, tmp_path, answerer, **slack)


def unreachable_slack_world(
    tmp_path: Path, answerer: Answerer, **slack: Any
) -> contextlib.AbstractAsyncContextManager[SlackWorld]:
    """:func:`slack_world` with a Slack that refuses every connection until
    ``world.fake.come_up()``."""
    return _world(time.time, tmp_path, answerer, slack, reachable=False)


def slack_world_at(
    clock: Callable[[], float], tmp_path: Path, answerer: Answerer, **slack: Any
) -> contextlib.AbstractAsyncContextManager[SlackWorld]:
    """:func:`slack_world` with ``clock`` as the store's clock."""
    return _world(clock, tmp_path, answerer, slack)


@asynccontextmanager
async def _world(
    clock: Callable[[], float],
    tmp_path: Path,
    answerer: Answerer,
    slack: dict[str, Any],
    *,
    reachable: bool = True,
) -> AsyncIterator[SlackWorld]:
    async with FakeSlackAPI(reachable=reachable) as fake:
        standard_workspace(fake)
        options: dict[str, Any] = {
            "enabled": True,
            "bot_token": fake.bot_token,
            "app_token": fake.app_token,
            "signing_secret": SECRET,
            "api_base_url": fake.base_url,
            "streaming": "none",
            "edit_interval_seconds": 0.0,
            "retry_backoff_seconds": 0.25,
            # a hang fails fast instead of stalling the suite
            "request_timeout_seconds": 10.0,
            "shutdown_grace_seconds": 5.0,
        }
        options.update(slack)
        settings = Settings(slack=SlackSettings(**options))
        store = Store(tmp_path / "citecast.db", clock=clock)
        services = Services(settings=settings, store=store, assistant=answerer)
        sleeps: list[float] = []

        async def record_sleep(seconds: float) -> None:
            sleeps.append(seconds)
            await asyncio.sleep(0)

        connector = SlackConnector(services, sleep=record_sleep)
        app = Starlette(routes=connector.routes())
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://slack.test") as http:
            world = SlackWorld(
                fake=fake, connector=connector, store=store, http=http, sleeps=sleeps
            )
            try:
                yield world
            finally:
                await connector.stop()
                store.close()


def all_blocks(messages: Sequence[Json]) -> list[Json]:
    """Every block of the given messages."""
    return [block for message in messages for block in message.get("blocks") or []]


def context_texts(messages: Sequence[Json]) -> list[str]:
    """The text of every context element (the source list) in the messages."""
    return [
        element.get("text", "")
        for block in all_blocks(messages)
        if block.get("type") == "context"
        for element in block.get("elements") or []
    ]


class CannedAnswerer:
    """Answers every question with one prepared Answer (streamed ``chunk`` characters at a time).

    Citations are announced before the text, as the StreamResolver does. Records its calls.
    """

    def __init__(self, answer: Answer, *, chunk: int = 40, registry: Json | None = None) -> None:
        self.answer = answer
        self.chunk = chunk
        self.registry = registry or {"sources": []}
        self.calls: list[tuple[str, frozenset[str], tuple[Exchange, ...]]] = []

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.calls.append((question, audience, tuple(history)))
        return Reply(self.answer, self.registry)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.calls.append((question, audience, tuple(history)))
        for citation in self.answer.citations:
            yield CitationAdded(citation)
        text = self.answer.text
        for start in range(0, len(text), self.chunk):
            yield TextDelta(text[start : start + self.chunk])
            await asyncio.sleep(0)
        yield Reply(self.answer, self.registry)


def source(n: int, **fields: Any) -> Source:
    """A public web source numbered ``n``."""
    values: dict[str, Any] = {
        "id": f"doc-{n}",
        "title": f"Guide {n}",
        "url": f"https://docs.example.com/guide-{n}",
    }
    values.update(fields)
    return Source(**values)


def answer_citing(count: int, text: str | None = None, **fields: Any) -> Answer:
    """An answer citing ``count`` sources, one sentence per citation unless ``text`` is given."""
    citations = tuple(
        Citation(n=n, source=source(n, **fields), source_number=n) for n in range(1, count + 1)
    )
    body = text if text is not None else " ".join(f"Fact {n}.[^{n}]" for n in range(1, count + 1))
    return Answer(text=body, citations=citations)


async def slash(
    world: SlackWorld,
    text: str,
    *,
    channel: str = PUBLIC,
    user: str = ASKER,
    response_url: str | None = None,
) -> int:
    """Run ``/citecast text`` (a signed slash-command request); returns the HTTP status."""
    response = await slash_response(
        world, text, channel=channel, user=user, response_url=response_url
    )
    return response.status_code


async def slash_response(
    world: SlackWorld,
    text: str,
    *,
    channel: str = PUBLIC,
    user: str = ASKER,
    response_url: str | None = None,
) -> httpx.Response:
    """Run ``/citecast text``; returns Slack's view of the acknowledgement (the HTTP response)."""
    form = {
        "command": "/citecast",
        "text": text,
        "user_id": user,
        "channel_id": channel,
        "team_id": "T0TEAM",
        "response_url": response_url or world.fake.response_url("command"),
        "trigger_id": "1.2.3",
    }
    body = urlencode(form).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    headers.update(slack_signature_headers(SECRET, body))
    response = await world.http.post("/slack/events", content=body, headers=headers)
    await settle(world.connector)
    return response
