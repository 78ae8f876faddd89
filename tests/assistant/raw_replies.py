"""A server that answers the openai client with bytes written by hand: a reply no HTTP library
would send (a body shorter than its Content-Length, a chunk cut in half), then it closes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


@contextlib.asynccontextmanager
async def raw_reply_server(reply: bytes) -> AsyncIterator[str]:
    """While the block runs, every request (read whole) gets ``reply`` as it is and the
    connection closed; yields the ``base_url`` to give the client."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        writer.write(reply)
        await writer.drain()
        writer.close()
        await writer.wait_closed()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"http://127.0.0.1:{port}/v1"
