"""An HTTP client of the web app answering with one canned answer, under given settings."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from bot.config_file import parse_settings
from bot.connectors.app import build_app
from bot.models import Answer
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import CannedAnswerer


@asynccontextmanager
async def canned_client(
    tmp_path: Path, answer: Answer, **sections: Mapping[str, object]
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app whose assistant answers ``answer``; ``sections`` are config.yaml
    sections besides the store, index and web ones every such test needs."""
    data: dict[str, object] = {
        "store": {"path": str(tmp_path / "store.db")},
        "index": {"path": str(tmp_path / "index.db")},
        "web": {"file_secret": "test-secret-0123456789abcdef"},
        **sections,
    }
    settings = parse_settings(data)
    assistant = CannedAnswerer(answer)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=assistant)
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(
            transport=transport, base_url="http://citecast.test"
        ) as client:
            yield client
    finally:
        services.store.close()
