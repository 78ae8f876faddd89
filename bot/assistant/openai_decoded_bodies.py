"""A compressed response body decompressed before the client sees it, so that a whole JSON
completion answered where a stream was asked for is recognised in it
(:mod:`bot.assistant.openai_bodies`).

A proxy that ignores ``stream: true`` may also compress its JSON (nginx's ``gzip_types
application/json``); the client would decompress it only after the stream reader had found no
events in the compressed bytes. ``gzip`` and ``deflate`` (the two the standard library reads)
are decompressed here and the response then says ``identity``; any other encoding (``br``,
``zstd``, a chain of them) is left to the client, and a whole completion in it still reads as
"not a chat completion stream".
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator
from typing import Any

import httpx2

from bot.errors import BackendError

_GZIP = zlib.MAX_WBITS | 16
_ZLIB_OR_GZIP = zlib.MAX_WBITS | 32  # "deflate" as servers send it: zlib-wrapped, usually
_RAW_DEFLATE = -zlib.MAX_WBITS  # ... and as some send it: bare


def decodable(response: httpx2.Response) -> bool:
    """Whether ``response``'s body is compressed in a way :func:`decode_here` reads."""
    return _encoding(response) in ("gzip", "x-gzip", "deflate")


def decode_here(response: httpx2.Response) -> None:
    """Decompress ``response``'s body as it is read, and label it ``identity`` so the client
    does not decompress it again. Only for a :func:`decodable` response."""
    response.stream = _Decompressed(response.stream, _encoding(response))
    response.headers["content-encoding"] = "identity"


def _encoding(response: httpx2.Response) -> str:
    return response.headers.get("content-encoding", "identity").strip().lower()


class _Decompressed(httpx2.AsyncByteStream):
    """A gzip or deflate body, decompressed part by part."""

    def __init__(self, stream: Any, encoding: str) -> None:
        self._stream = stream
        self._encoding = encoding

    async def __aiter__(self) -> AsyncIterator[bytes]:
        gzip = self._encoding != "deflate"
        decoder = zlib.decompressobj(_GZIP if gzip else _ZLIB_OR_GZIP)
        first = True
        async for part in self._stream:
            try:
                data = decoder.decompress(part)
            except zlib.error:
                if gzip or not first:
                    raise self._broken() from None
                # not zlib-wrapped: a bare deflate stream, from its first byte
                decoder = zlib.decompressobj(_RAW_DEFLATE)
                try:
                    data = decoder.decompress(part)
                except zlib.error:
                    raise self._broken() from None
            first = first and not part
            if data:
                yield data
        try:
            rest = decoder.flush()
        except zlib.error:
            raise self._broken() from None
        if rest:
            yield rest

    def _broken(self) -> BackendError:
        return BackendError(
            f"the model endpoint's answer could not be decompressed ({self._encoding})"
        )

    async def aclose(self) -> None:
        await self._stream.aclose()
