"""The fake Slack server's Web API methods, their checks and responses, and its workspace state."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.slack_blocks import (
    MAX_MESSAGE_TEXT,
    MAX_STREAM_TEXT,
    MAX_UPDATE_TEXT,
    TOO_MUCH_TEXT,
    validate_blocks,
)
from tests.fakes.slack_threads import cursor_for, cursor_ts, flag, parent_gone, since_oldest

Json = dict[str, Any]


@dataclass
class FakeSlackState:
    """The workspace the fake pretends to be: channels, users, user groups and messages."""

    channels: dict[str, Json] = field(default_factory=dict)
    users: dict[str, Json] = field(default_factory=dict)
    usergroups: dict[str, list[str]] = field(default_factory=dict)
    usergroup_teams: dict[str, str] = field(default_factory=dict)  # the workspace of each
    messages: dict[str, list[Json]] = field(default_factory=dict)
    uploads: dict[str, Json] = field(default_factory=dict)
    # The assistant status shown under each thread, keyed (channel, thread_ts); "" is none.
    statuses: dict[tuple[str, str], str] = field(default_factory=dict)
    # Messages people deleted, (channel, ts): a reply to one left without replies has no thread.
    deleted: set[tuple[str, str]] = field(default_factory=set)


class SlackWebMethods:
    """The Web API methods; ``FakeSlackAPI`` sets these attributes and serves the calls."""

    state: FakeSlackState
    bot_token: str
    app_token: str
    team_id: str
    org_install: bool
    bot_user_id: str
    bot_id: str
    streaming_error: str | None
    close_stream_after: int | None
    echo_thread_ts: bool
    port: int
    _last_ts: int
    _file_ids: itertools.count[int]

    def _next_ts(self) -> str:
        """Slack stamps a message with the time it took it (microseconds, unique per workspace
        here), so a client can compare a ts with its own clock (``oldest`` reads rely on it)."""
        micros = max(time.time_ns() // 1000, self._last_ts + 1)
        self._last_ts = micros
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _dispatch(self, method: str, args: Json, token: str | None) -> Json:
        if method == "apps.connections.open":
            if token != self.app_token:
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "url": f"ws://127.0.0.1:{self.port}/socket?ticket=fake"}
        if token != self.bot_token:
            return {"ok": False, "error": "invalid_auth"}
        handler = getattr(self, "_m_" + method.replace(".", "_"), None)
        if handler is None:
            return {"ok": False, "error": "unknown_method"}
        result: Json = handler(args)
        return result

    def _check_message(self, args: Json, text_limit: int) -> Json | None:
        channel = args.get("channel")
        if not channel or channel not in self.state.channels:
            return {"ok": False, "error": "channel_not_found"}
        text, blocks = args.get("text"), args.get("blocks")
        if not text and not blocks:
            return {"ok": False, "error": "no_text"}
        if isinstance(text, str) and len(text) > text_limit:
            return {"ok": False, "error": "msg_too_long"}
        if blocks is not None:
            problems = validate_blocks(blocks)
            if problems:
                return invalid_blocks_error(problems)
        return None

    def _m_chat_postMessage(self, args: Json) -> Json:
        refused = self._check_message(args, MAX_MESSAGE_TEXT)
        if refused:
            return refused
        message = {
            "type": "message",
            "ts": self._next_ts(),
            "user": self.bot_user_id,
            "bot_id": self.bot_id,
            "text": args.get("text") or "",
            "blocks": args.get("blocks") or [],
        }
        thread_ts = str(args.get("thread_ts") or "")
        if thread_ts and not self._parent_gone(str(args["channel"]), thread_ts):
            message["thread_ts"] = thread_ts
            self._clear_status(str(args["channel"]), thread_ts)
        metadata = args.get("metadata")
        if metadata is not None:
            if not isinstance(metadata, dict) or not metadata.get("event_type"):
                return {"ok": False, "error": "invalid_metadata_format"}
            message["metadata"] = metadata
        self.state.messages.setdefault(args["channel"], []).append(message)
        echoed = (
            message
            if self.echo_thread_ts
            else {k: v for k, v in message.items() if k != "thread_ts"}
        )
        return {"ok": True, "channel": args["channel"], "ts": message["ts"], "message": echoed}

    def _m_chat_postEphemeral(self, args: Json) -> Json:
        refused = self._check_message(args, MAX_MESSAGE_TEXT)
        if refused:
            return refused
        if not args.get("user"):
            return {"ok": False, "error": "user_not_in_channel"}
        return {"ok": True, "message_ts": self._next_ts()}

    def _parent_gone(self, channel: str, thread_ts: str) -> bool:
        messages = self.state.messages.get(channel, [])
        return parent_gone(messages, self.state.deleted, channel, thread_ts)

    def _find(self, channel: str, ts: str) -> Json | None:
        for message in self.state.messages.get(channel, []):
            if message["ts"] == ts:
                return message
        return None

    def _m_chat_update(self, args: Json) -> Json:
        refused = self._check_message(args, MAX_UPDATE_TEXT)
        if refused:
            return refused
        message = self._find(args["channel"], str(args.get("ts")))
        if message is None or message.get("bot_id") != self.bot_id:
            return {"ok": False, "error": "message_not_found" if message is None else "cant_update"}
        message["text"] = args.get("text") or ""
        message["blocks"] = args.get("blocks") or []
        message["streaming"] = False
        message["edits"] = message.get("edits", 0) + 1
        return {
            "ok": True,
            "channel": args["channel"],
            "ts": message["ts"],
            "text": message["text"],
        }

    def _m_chat_delete(self, args: Json) -> Json:
        channel = str(args.get("channel"))
        message = self._find(channel, str(args.get("ts")))
        if message is None:
            return {"ok": False, "error": "message_not_found"}
        if message.get("bot_id") != self.bot_id:
            return {"ok": False, "error": "cant_delete_message"}
        self.state.messages[channel].remove(message)
        return {"ok": True, "channel": channel, "ts": message["ts"]}

    def _stream_text(self, args: Json) -> tuple[str, Json | None]:
        text = args.get("markdown_text") or ""
        for chunk in args.get("chunks") or []:
            if isinstance(chunk, dict) and chunk.get("type") == "markdown_text":
                text += str(chunk.get("text") or "")
        if len(text) > MAX_STREAM_TEXT:
            return text, {"ok": False, "error": "msg_too_long"}
        return text, None

    def _m_chat_startStream(self, args: Json) -> Json:
        if self.streaming_error:
            return {"ok": False, "error": self.streaming_error}
        channel = args.get("channel")
        info = self.state.channels.get(str(channel))
        if info is None:
            return {"ok": False, "error": "channel_not_found"}
        if not args.get("thread_ts"):
            return {"ok": False, "error": "invalid_arguments"}
        if self._parent_gone(str(channel), str(args["thread_ts"])):
            return {"ok": False, "error": "invalid_thread_ts"}
        if not info["is_im"] and not (
            args.get("recipient_user_id") and args.get("recipient_team_id")
        ):
            return {"ok": False, "error": "missing_recipient_user_id"}
        text, refused = self._stream_text(args)
        if refused:
            return refused
        message = {
            "type": "message",
            "ts": self._next_ts(),
            "user": self.bot_user_id,
            "bot_id": self.bot_id,
            "thread_ts": args["thread_ts"],
            "text": text,
            "blocks": [],
            "streaming": True,
            "appends": 0,
        }
        self.state.messages.setdefault(str(channel), []).append(message)
        self._clear_status(str(channel), str(args["thread_ts"]))
        return {"ok": True, "channel": channel, "ts": message["ts"]}

    def _streaming_message(self, args: Json) -> tuple[Json | None, Json | None]:
        message = self._find(str(args.get("channel")), str(args.get("ts")))
        if message is None:
            return None, {"ok": False, "error": "message_not_found"}
        if message.get("bot_id") != self.bot_id:
            # another app's stream (or a person's message): Slack lets only its app go on
            return None, {"ok": False, "error": "message_not_owned_by_app"}
        if not message.get("streaming"):
            return None, {"ok": False, "error": "message_not_in_streaming_state"}
        return message, None

    def _m_chat_appendStream(self, args: Json) -> Json:
        message, refused = self._streaming_message(args)
        if message is None:
            return refused or {"ok": False}
        if self.close_stream_after is not None and message["appends"] >= self.close_stream_after:
            message["streaming"] = False
            return {"ok": False, "error": "message_not_in_streaming_state"}
        text, too_long = self._stream_text(args)
        if too_long:
            return too_long
        message["text"] += text
        message["appends"] += 1
        return {"ok": True, "channel": args["channel"], "ts": message["ts"]}

    def _m_chat_stopStream(self, args: Json) -> Json:
        message, refused = self._streaming_message(args)
        if message is None:
            return refused or {"ok": False}
        text, too_long = self._stream_text(args)
        if too_long:
            return too_long
        blocks = args.get("blocks")
        if blocks is not None:
            problems = validate_blocks(blocks)
            if problems:
                return invalid_blocks_error(problems)
            message["blocks"] = blocks
        message["text"] += text
        message["streaming"] = False
        return {"ok": True, "channel": args["channel"], "ts": message["ts"], "message": message}

    def _m_conversations_replies(self, args: Json) -> Json:
        channel, ts = str(args.get("channel")), str(args.get("ts"))
        if channel not in self.state.channels:
            return {"ok": False, "error": "channel_not_found"}
        thread = [
            m
            for m in self.state.messages.get(channel, [])
            if m["ts"] == ts or m.get("thread_ts") == ts
        ]
        if not thread:
            return {"ok": False, "error": "thread_not_found"}
        # Slack answers in pages, oldest first: at most ``limit`` (1..1000, default 1000)
        # messages, and a ``next_cursor`` naming where the next page starts.
        thread.sort(key=lambda m: float(m["ts"]))
        try:
            limit = min(1000, max(1, int(str(args.get("limit") or 1000))))
        except ValueError:
            return {"ok": False, "error": "invalid_limit"}
        thread, refused = since_oldest(thread, ts, args)
        if refused:
            return refused
        start = 0
        if args.get("cursor"):
            after = cursor_ts(str(args["cursor"]))
            if after is None:
                return {"ok": False, "error": "invalid_cursor"}
            start = next((i for i, m in enumerate(thread) if float(m["ts"]) >= after), len(thread))
        page = thread[start : start + limit]
        # Slack leaves message metadata out unless it is asked for
        if not flag(args.get("include_all_metadata")):
            page = [{k: v for k, v in m.items() if k != "metadata"} for m in page]
        body: Json = {"ok": True, "messages": page, "has_more": start + limit < len(thread)}
        if body["has_more"]:
            next_ts = thread[start + limit]["ts"]
            body["response_metadata"] = {"next_cursor": cursor_for(next_ts)}
        return body

    def _m_conversations_info(self, args: Json) -> Json:
        info = self.state.channels.get(str(args.get("channel")))
        if info is None:
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "channel": info}

    def _m_users_info(self, args: Json) -> Json:
        user = self.state.users.get(str(args.get("user")))
        if user is None:
            return {"ok": False, "error": "user_not_found"}
        return {"ok": True, "user": user}

    def _m_usergroups_users_list(self, args: Json) -> Json:
        group = str(args.get("usergroup"))
        users = self.state.usergroups.get(group)
        if self.org_install:
            # an org-wide token must say which workspace the group is in
            if not args.get("team_id"):
                return {"ok": False, "error": "missing_argument", "arg": "team_id"}
            if args["team_id"] != self.state.usergroup_teams.get(group, self.team_id):
                users = None
        if users is None:
            return {"ok": False, "error": "no_such_subteam"}
        return {"ok": True, "users": users}

    def _m_assistant_threads_setStatus(self, args: Json) -> Json:
        if not args.get("channel_id") or not args.get("thread_ts") or "status" not in args:
            return {"ok": False, "error": "invalid_arguments"}
        if str(args["channel_id"]) not in self.state.channels:
            return {"ok": False, "error": "channel_not_found"}
        self.state.statuses[(str(args["channel_id"]), str(args["thread_ts"]))] = str(args["status"])
        return {"ok": True}

    def _clear_status(self, channel: str, thread_ts: str) -> None:
        """Slack removes a thread's assistant status once the app replies in the thread."""
        if self.state.statuses.get((channel, thread_ts)):
            self.state.statuses[(channel, thread_ts)] = ""

    def _m_assistant_threads_setSuggestedPrompts(self, args: Json) -> Json:
        prompts = args.get("prompts")
        if not isinstance(prompts, list) or not 1 <= len(prompts) <= 4:
            return {"ok": False, "error": "invalid_arguments"}
        for prompt in prompts:
            if not isinstance(prompt, dict) or not prompt.get("title") or not prompt.get("message"):
                return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _m_files_getUploadURLExternal(self, args: Json) -> Json:
        filename, length = args.get("filename"), args.get("length")
        if not filename or not str(length or "").isdigit():
            return {"ok": False, "error": "invalid_arguments"}
        file_id = f"F{next(self._file_ids):06d}"
        self.state.uploads[file_id] = {"filename": filename, "length": int(str(length))}
        return {
            "ok": True,
            "upload_url": f"http://127.0.0.1:{self.port}/upload/{file_id}",
            "file_id": file_id,
        }

    def _m_files_completeUploadExternal(self, args: Json) -> Json:
        files = args.get("files")
        if not isinstance(files, list) or not files:
            return {"ok": False, "error": "invalid_arguments"}
        channel = args.get("channel_id")
        if channel and channel not in self.state.channels:
            return {"ok": False, "error": "channel_not_found"}
        done: list[Json] = []
        for item in files:
            upload = self.state.uploads.get(str(item.get("id")))
            if upload is None or "data" not in upload:
                return {"ok": False, "error": "file_not_found"}
            upload.update(channel=channel, thread_ts=args.get("thread_ts"), title=item.get("title"))
            done.append({"id": item["id"], "name": upload["filename"], "title": item.get("title")})
        if channel:
            self._share_files(str(channel), str(args.get("thread_ts") or ""), done)
        return {"ok": True, "files": done}

    def _share_files(self, channel: str, thread_ts: str, files: list[Json]) -> None:
        """Slack shares completed uploads as a message of the uploader's, carrying the files
        (no ``bot_id`` here, so ``bot_messages`` still lists only the bot's posts)."""
        message: Json = {
            "type": "message",
            "ts": self._next_ts(),
            "user": self.bot_user_id,
            "text": "",
            "upload": True,
            "files": [dict(f) for f in files],
        }
        if thread_ts:
            message["thread_ts"] = thread_ts
        self.state.messages.setdefault(channel, []).append(message)


def invalid_blocks_error(problems: list[str]) -> Json:
    """Slack's answer to blocks it refuses for ``problems``."""
    # Slack names the summed-text refusal on its own; every other block problem is invalid_blocks
    too_long = any(p.startswith(TOO_MUCH_TEXT) for p in problems)
    return {
        "ok": False,
        "error": TOO_MUCH_TEXT if too_long else "invalid_blocks",
        "errors": problems,
        "response_metadata": {"messages": [f"[ERROR] {p}" for p in problems]},
    }
