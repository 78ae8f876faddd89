"""A ``/files/`` download sent from the descriptor its check opened, never from the path again.

:class:`JudgedFileResponse` is Starlette's ``FileResponse`` (its headers, ``HEAD``, ``Range``
and ``If-Range``, which Chrome's PDF viewer uses) with the file's bytes read from a
:class:`bot.knowledge.judged_file.JudgedFile`: those of the inode that was checked, block by
block as they were judged. A save that replaces the file after the check is not what is sent
(the old, judged inode is, whole); one that writes into the file stops the send at the first
block whose bytes no longer match, having sent only judged bytes. Its first block is read
before anything is sent, so a file of one block (1 MiB: most Markdown, text and HTML) is sent
whole or refused with ``refusal`` (the uniform 404). A larger one written into during its send
ends without its declared length, so the browser keeps no file; the log says why in one line
(and the server that the response was not completed), with no traceback.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from starlette.responses import FileResponse, Response
from starlette.types import Receive, Scope, Send

from bot.knowledge.judged_file import BLOCK, JudgedFile

log = logging.getLogger(__name__)

_PATHSEND = "http.response.pathsend"  # a server sending a file by its path: not this one


class JudgedReader:
    """The async file ``FileResponse`` reads (``seek``, ``read``), over a judged file."""

    def __init__(self, judged: JudgedFile) -> None:
        self.judged = judged
        self.position = 0

    async def seek(self, position: int) -> int:
        """Read from ``position`` on."""
        self.position = position
        return position

    async def read(self, size: int) -> bytes:
        """The next ``size`` judged bytes (fewer at the judged end); OSError when the file
        no longer holds them."""
        data = await anyio.to_thread.run_sync(self.judged.read_at, self.position, size)
        self.position += len(data)
        return data


class JudgedFileResponse(FileResponse):
    """``FileResponse`` of ``judged`` (the file at ``path``), which it closes once sent (or
    not: see ``close``); ``shown`` names it in the log."""

    chunk_size = BLOCK // 4

    def __init__(
        self,
        judged: JudgedFile,
        path: Path,
        *,
        shown: str,
        media_type: str,
        filename: str,
        content_disposition_type: str,
        headers: Mapping[str, str],
        refusal: Response,
    ) -> None:
        super().__init__(
            path,
            headers=headers,
            media_type=media_type,
            filename=filename,
            stat_result=judged.found,
            content_disposition_type=content_disposition_type,
        )
        self.judged = judged
        self.shown = shown
        self.refusal = refusal

    @asynccontextmanager
    async def _open_file(self) -> AsyncIterator[JudgedReader]:  # type: ignore[override]
        yield JudgedReader(self.judged)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        extensions = {k: v for k, v in scope.get("extensions", {}).items() if k != _PATHSEND}
        try:
            if not await self._first_block_holds():
                await self.refusal(scope, receive, send)
                return
            await super().__call__({**scope, "extensions": extensions}, receive, send)
        except OSError as exc:
            # written to after its check: what was sent was judged, the rest is not sent
            log.warning("stopped sending %s: %s", self.shown, exc.strerror or exc)
        finally:
            self.close()

    async def _first_block_holds(self) -> bool:
        """Whether the file's first block is as judged, checked before anything is sent; it
        is kept, so what is sent of it is what was checked (``JudgedFile`` keeps its last)."""
        try:
            await anyio.to_thread.run_sync(self.judged.read_at, 0, 1)
        except OSError as exc:
            log.info("refused %s: %s", self.shown, exc.strerror or exc)
            return False
        return True

    def close(self) -> None:
        """Close the judged file (a response never sent must still let it go)."""
        self.judged.close()
