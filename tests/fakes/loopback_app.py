"""An aiohttp application served on 127.0.0.1 at a free port, for tests that script a server's
replies by hand (a trickled body, a page where JSON was expected)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from aiohttp import web


@contextlib.asynccontextmanager
async def loopback_app(app: web.Application) -> AsyncIterator[str]:
    """Serve ``app`` while the block runs; yields its root URL, ``http://127.0.0.1:PORT``."""
    runner = web.AppRunner(app, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    sockets = getattr(site._server, "sockets", None) or []
    try:
        yield f"http://127.0.0.1:{sockets[0].getsockname()[1]}"
    finally:
        await runner.cleanup()
