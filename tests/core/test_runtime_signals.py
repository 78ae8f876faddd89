"""``citecast serve`` under real signals, as systemd, Docker or a terminal send them.

A first SIGINT/SIGTERM stops every channel from taking questions, lets the answer being written
finish and exits with status 0; a second one exits at once. Each case is a real process on a
free loopback port, answering through a model on loopback that holds its reply until the test
releases it, so "in flight" never depends on timing.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
REPLY = "Install it with pip."
STOPPED_AT_ONCE = "citecast serve: stopped at once (second signal)"


@dataclass
class HeldModel:
    """An OpenAI-compatible endpoint whose every reply waits for ``release``."""

    asked: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    port: int = 0


def _completion_handler(model: HeldModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            model.asked.set()
            model.release.wait()
            message = {"role": "assistant", "content": REPLY}
            if body.get("stream"):
                chunks = [
                    {"choices": [{"index": 0, "delta": message, "finish_reason": None}]},
                    {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                ]
                events = [
                    {
                        "id": "c",
                        "object": "chat.completion.chunk",
                        "created": 0,
                        "model": "m",
                        **chunk,
                    }
                    for chunk in chunks
                ]
                payload = "".join(f"data: {json.dumps(e)}\n\n" for e in events)
                data = (payload + "data: [DONE]\n\n").encode()
                kind = "text/event-stream"
            else:
                choice = {"index": 0, "message": message, "finish_reason": "stop"}
                data = json.dumps(
                    {
                        "id": "c",
                        "object": "chat.completion",
                        "created": 0,
                        "model": "m",
                        "choices": [choice],
                    }
                ).encode()
                kind = "application/json"
            try:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # citecast stopped at once and hung up

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def model() -> Iterator[HeldModel]:
    held = HeldModel()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _completion_handler(held))
    held.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield held
    held.release.set()
    server.shutdown()
    server.server_close()


class Serve:
    """A ``citecast serve`` process whose stderr lines are collected as they come."""

    def __init__(self, tmp_path: Path, model: HeldModel, extra: dict[str, Any]) -> None:
        config = {
            "store": {"path": str(tmp_path / "store.db")},
            "index": {"path": str(tmp_path / "index.db")},
            "web": {"port": 0, "shutdown_grace": 600},
            "assistant": {
                "backend": "openai",
                "openai": {"base_url": f"http://127.0.0.1:{model.port}/v1", "api_key": "k"},
            },
            **extra,
        }
        path = tmp_path / "config.yaml"
        path.write_text(yaml.safe_dump(config), encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "--config", str(path), "serve"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        self.lines: list[str] = []
        self._seen = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            self.wait_for("listening on http://")  # said once it listens with its handlers
        except BaseException:
            self.process.kill()  # a server that never said it listens must not outlive the test
            self.process.wait()
            raise
        address = next(line for line in self.lines if "listening on http://" in line)
        self.url = address.split("listening on ")[1].split()[0]

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._seen:
                self.lines.append(line)
                self._seen.notify_all()
        with self._seen:
            self.lines.append("<exited>")
            self._seen.notify_all()

    def wait_for(self, text: str) -> None:
        with self._seen:
            found = self._seen.wait_for(
                lambda: any(text in line or line == "<exited>" for line in self.lines), 60
            )
        assert found and any(text in line for line in self.lines), "".join(self.lines)

    @property
    def stderr(self) -> str:
        self._reader.join(60)
        return "".join(self.lines)

    def ask_in_background(self, result: dict[str, Any]) -> threading.Thread:
        def ask() -> None:
            request = urllib.request.Request(
                f"{self.url}/api/ask",
                data=json.dumps({"question": "How do I install it?"}).encode(),
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=120) as response:
                    result["status"] = response.status
                    result["body"] = json.loads(response.read())
            except OSError as exc:  # a server stopped at once cuts the answer off
                result["error"] = exc

        thread = threading.Thread(target=ask, daemon=True)
        thread.start()
        return thread

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)


@pytest.fixture
def serve(tmp_path: Path, model: HeldModel) -> Iterator[Any]:
    started: list[Serve] = []

    def start(**extra: Any) -> Serve:
        started.append(Serve(tmp_path, model, extra))
        return started[-1]

    yield start
    for server in started:
        server.kill()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_lets_the_answer_in_flight_finish_then_exits_0(
    serve: Any, model: HeldModel, sig: signal.Signals
) -> None:
    server = serve()
    result: dict[str, Any] = {}
    asking = server.ask_in_background(result)
    assert model.asked.wait(60)
    server.process.send_signal(sig)
    server.wait_for("Shutting down")
    model.release.set()
    asking.join(120)
    assert result["status"] == 200
    assert result["body"]["answer"]["text"] == REPLY
    assert server.process.wait(60) == 0, server.stderr
    assert "Traceback" not in server.stderr


@pytest.mark.parametrize(
    ("first", "second"),
    [(signal.SIGTERM, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT)],
    ids=["SIGTERM-SIGTERM", "SIGTERM-SIGINT"],
)
def test_a_second_signal_stops_at_once_in_one_line(
    serve: Any, model: HeldModel, first: signal.Signals, second: signal.Signals
) -> None:
    server = serve()
    server.ask_in_background({})
    assert model.asked.wait(60)
    server.process.send_signal(first)
    server.wait_for("Shutting down")
    server.process.send_signal(second)
    # web.shutdown_grace is 600 s and the model never answers: only stopping at once ends it
    try:
        status = server.process.wait(60)
    except subprocess.TimeoutExpired:
        server.kill()
        raise AssertionError(server.stderr) from None
    assert status == 128 + second, server.stderr
    stderr = server.stderr
    assert "Traceback" not in stderr, stderr
    assert [line for line in stderr.splitlines() if "stopped at once" in line] == [
        STOPPED_AT_ONCE + "; answers still being written are recorded as failed at the next start"
    ]


def _refuses_connections(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return False
    except (ConnectionRefusedError, ConnectionResetError):  # reset: closed mid-connect
        return True


def test_other_channels_stop_taking_questions_while_a_web_answer_finishes(
    serve: Any, model: HeldModel
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    email = {"enabled": True, "address": "help@example.org", "listen_port": port}
    server = serve(email=email)
    assert not _refuses_connections(port)
    result: dict[str, Any] = {}
    asking = server.ask_in_background(result)
    assert model.asked.wait(60)
    server.process.send_signal(signal.SIGTERM)
    server.wait_for("Shutting down")
    # the SMTP listener closes while the web answer is still held (it would otherwise take
    # mail, and start answers, for as long as the web answer's grace period lasts)
    for _ in range(200):
        if _refuses_connections(port):
            break
        threading.Event().wait(0.05)
    assert _refuses_connections(port), server.stderr
    assert not result
    model.release.set()
    asking.join(120)
    assert result["status"] == 200
    assert server.process.wait(60) == 0, server.stderr
