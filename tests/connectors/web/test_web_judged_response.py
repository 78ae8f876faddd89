"""A download of a file of many blocks stops where its bytes stop being the judged ones.

Its first block is checked before the answer starts; a write into a later block while it is
sent stops the send there, short of its declared length, having sent only judged bytes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from starlette.responses import JSONResponse

from bot.connectors.web_judged_response import JudgedFileResponse
from bot.knowledge.judged_file import BLOCK, JudgedFile, block_digest

DATA = bytes(range(256)) * (BLOCK * 5 // 2 // 256)  # two and a half blocks
SCOPE = {
    "type": "http",
    "asgi": {"version": "3.0", "spec_version": "2.4"},
    "http_version": "1.1",
    "method": "GET",
    "scheme": "http",
    "path": "/files/x",
    "raw_path": b"/files/x",
    "query_string": b"",
    "headers": [],
    "client": ("127.0.0.1", 1234),
    "server": ("127.0.0.1", 80),
}


def _response(file: Path) -> JudgedFileResponse:
    fd = os.open(file, os.O_RDONLY)
    blocks = tuple(block_digest(DATA[i : i + BLOCK]) for i in range(0, len(DATA), BLOCK))
    return JudgedFileResponse(
        JudgedFile(fd, os.fstat(fd), blocks),
        file,
        shown="big.bin",
        media_type="application/octet-stream",
        filename="big.bin",
        content_disposition_type="attachment",
        headers={"X-Content-Type-Options": "nosniff"},
        refusal=JSONResponse({"error": "not found"}, status_code=404),
    )


async def _sent(response: JudgedFileResponse, on_body: Any) -> list[MutableMapping[str, Any]]:
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body":
            on_body()

    await response(SCOPE, receive, send)
    return sent


async def test_a_write_into_a_later_block_while_sending_stops_the_send_there(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    file = tmp_path / "big.bin"
    file.write_bytes(DATA)
    response = _response(file)

    def write_into_the_second_block() -> None:
        with file.open("r+b") as handle:
            handle.seek(BLOCK + 10)
            handle.write(b"Board only")

    with caplog.at_level(logging.WARNING):
        sent = await _sent(response, write_into_the_second_block)
    assert sent[0]["status"] == 200
    assert dict(sent[0]["headers"])[b"content-length"] == str(len(DATA)).encode()
    body = b"".join(message["body"] for message in sent[1:])
    assert body == DATA[: len(body)] and len(body) <= BLOCK  # the judged first block, no more
    assert b"Board only" not in body
    assert all(message["more_body"] for message in sent[1:])  # never completed
    assert "stopped sending big.bin" in caplog.text
    assert response.judged.fd == -1


async def test_an_unwritten_file_is_sent_whole_and_closed(tmp_path: Path) -> None:
    file = tmp_path / "big.bin"
    file.write_bytes(DATA)
    response = _response(file)
    sent = await _sent(response, lambda: None)
    assert b"".join(message["body"] for message in sent[1:]) == DATA
    assert sent[-1]["more_body"] is False
    assert response.judged.fd == -1


async def test_a_first_block_written_into_before_the_send_is_the_refusal(tmp_path: Path) -> None:
    file = tmp_path / "big.bin"
    file.write_bytes(DATA)
    response = _response(file)
    with file.open("r+b") as handle:
        handle.write(b"Board only")
    sent = await _sent(response, lambda: None)
    assert sent[0]["status"] == 404
    assert b"Board only" not in b"".join(message.get("body", b"") for message in sent[1:])
