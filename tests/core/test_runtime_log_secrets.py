"""``citecast serve`` never writes the credentials a URL carries into its log."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from bot.url_secrets import redact_urls
from tests.core.test_runtime_signals import HeldModel, Serve, _completion_handler

PASSWORD = "s3cret-pw-4711"


@pytest.fixture
def answering_model() -> Iterator[HeldModel]:
    held = HeldModel()
    held.release.set()  # answers at once
    server = ThreadingHTTPServer(("127.0.0.1", 0), _completion_handler(held))
    held.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield held
    server.shutdown()
    server.server_close()


def test_a_model_endpoint_password_stays_out_of_the_log(
    tmp_path: Path, answering_model: HeldModel
) -> None:
    base_url = f"http://citecast:{PASSWORD}@127.0.0.1:{answering_model.port}/v1"
    # no api_key: with one, a base_url holding user:password is refused at start
    openai = {"base_url": base_url}
    server = Serve(
        tmp_path, answering_model, {"assistant": {"backend": "openai", "openai": openai}}
    )
    try:
        result: dict[str, object] = {}
        server.ask_in_background(result).join(120)
        assert result.get("status") == 200, server.stderr
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(60) == 0
    finally:
        server.kill()
    log = server.stderr
    assert "HTTP Request: POST http://…@127.0.0.1" in log, log
    assert PASSWORD not in log


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("POST https://u:pw@llm.internal/v1/chat", "POST https://…@llm.internal/v1/chat"),
        ("GET https://x.example/v1?api_key=abc&n=1", "GET https://x.example/v1?api_key=…&n=1"),
        ("https://x.example/hook?x=1&token=zz", "https://x.example/hook?x=1&token=…"),
        ("mail from ann@example.org", "mail from ann@example.org"),
        ("http://127.0.0.1:8000/api/ask", "http://127.0.0.1:8000/api/ask"),
    ],
)
def test_urls_lose_their_credentials_only(text: str, shown: str) -> None:
    assert redact_urls(text) == shown
