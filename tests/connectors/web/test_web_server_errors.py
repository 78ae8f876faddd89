"""An unexpected failure answers as every other API error does: JSON, naming nothing of it."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bot.connectors.app import build_app
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, make_settings, passage


async def test_an_unexpected_failure_is_a_json_500_without_its_details(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(tmp_path)
    store = Store(settings.store.path)
    services = Services(
        settings=settings, store=store, assistant=CannedAnswerer(cited_answer(passage(1)))
    )

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("disk image at /srv/secret/citecast.db is malformed")

    monkeypatch.setattr(store, "channel_turns", broken)
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://citecast.test") as client:
        response = await client.get("/api/conversations/" + "0" * 32)
    store.close()
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {"error": "internal error"}
    assert "/srv/secret" not in response.text
