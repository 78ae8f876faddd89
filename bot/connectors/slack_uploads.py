"""Uploading an answer's cited files into its thread, and finding those the thread has already.

Each file goes with slack-sdk's ``files_upload_v2`` (``files.getUploadURLExternal``, the bytes,
``files.completeUploadExternal``), titled with its citation numbers (``slack_files``). A file
that is not readable or is over ``slack.max_file_bytes`` is logged and skipped for good (the
citation still names it), as is every file once Slack refuses uploads to the token. A file
whose upload failed otherwise (a 5xx, a timeout, a lost connection) is handed back, for the
outbox to try again: Slack may have completed it all the same, so before trying again the
outbox reads the thread, and :func:`shared_titles` says which files it holds already.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.config import SlackSettings
from bot.connectors.slack_client import (
    SLACK_CALL_ERRORS,
    UndeliverableError,
    as_channel_error,
    error_code,
)
from bot.connectors.slack_files import REFUSED_UPLOADS, UploadPermission, upload_title

log = logging.getLogger(__name__)

FileEntry = dict[str, Any]


def file_name(entry: Mapping[str, Any]) -> str:
    """The name a file entry is uploaded under (its ``filename``, else its path's last part)."""
    path, name = str(entry.get("path") or ""), str(entry.get("filename") or "")
    return name or os.path.basename(path)


def entry_title(entry: Mapping[str, Any]) -> str:
    """The title a file entry is uploaded with (``[1][2] name``)."""
    return upload_title(entry, file_name(entry))


def shared_titles(messages: Sequence[Mapping[str, Any]]) -> set[str]:
    """The titles of the files shared by the messages (a thread's replies)."""
    return {
        str(shared.get("title"))
        for message in messages
        for shared in message.get("files") or []
        if isinstance(shared, dict) and shared.get("title")
    }


async def upload_into_thread(
    client: AsyncWebClient,
    settings: SlackSettings,
    permission: UploadPermission,
    channel: str,
    thread_ts: str,
    files: Sequence[FileEntry],
) -> list[FileEntry]:
    """Upload the file entries into the thread, in order; returns those whose upload failed
    in a way a later try may not (a file skipped for good is not among them)."""
    left: list[FileEntry] = []
    for entry in files:
        if not permission.allowed:
            break
        path, name = str(entry.get("path") or ""), file_name(entry)
        try:
            size = os.path.getsize(path)
        except OSError:
            log.warning("not uploading [%s] %s: the file is not readable", entry.get("n"), name)
            continue
        if size > settings.max_file_bytes:
            log.warning("not uploading %s: %d bytes is over slack.max_file_bytes", name, size)
            continue
        try:
            await client.files_upload_v2(
                channel=channel,
                thread_ts=thread_ts,
                file=path,
                filename=name,
                title=upload_title(entry, name),
            )
        except SLACK_CALL_ERRORS as exc:
            code = error_code(exc)
            if code in REFUSED_UPLOADS:
                needed = exc.response.get("needed") if isinstance(exc, SlackApiError) else None
                permission.refuse(code, needed if isinstance(needed, str) else None)
                break
            log.warning("uploading %s failed: %s", name, code)
            if not isinstance(as_channel_error(exc, "files.upload"), UndeliverableError):
                left.append(entry)
    return left
