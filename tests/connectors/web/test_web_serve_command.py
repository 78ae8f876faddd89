"""``citecast serve`` as a real process: starts, answers over loopback, stops on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import yaml

from bot.commands.serve import listen
from bot.config_file import parse_settings
from bot.knowledge.ingest import ingest
from bot.store import Store

REPO = Path(__file__).resolve().parents[3]


def test_serve_answers_then_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    config = {
        "index": {"path": str(tmp_path / "index.db")},
        "store": {"path": str(tmp_path / "store.db")},
        "web": {"host": "127.0.0.1", "port": 0, "shutdown_grace": 1},
    }
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    ingest([REPO / "examples"], parse_settings(config).index)
    crashed = Store(str(tmp_path / "store.db"))  # a run that died mid-answer left this
    left_pending = crashed.add_turn("c-old", "web", "half answered?", status="pending")
    crashed.close()
    env = {k: v for k, v in os.environ.items() if k != "CITECAST_FILE_SECRET"}
    serve = [sys.executable, "-m", "bot", "--config", str(tmp_path / "config.yaml"), "serve"]
    process = subprocess.Popen(
        serve,
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        url = None
        deadline = time.monotonic() + 60
        lines: list[str] = []
        while url is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            lines.append(line)
            found = re.search(r"citecast listening on (http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) if found else None
        assert url, "".join(lines)
        response = httpx.post(
            f"{url}/api/ask", json={"question": "How do I install citecast on Linux?"}, timeout=30
        )
        assert response.status_code == 200
        assert response.json()["answer"]["citations"]
        # a second server on the same store is refused in one line, and the first keeps going
        second = subprocess.run(serve, cwd=tmp_path, env=env, capture_output=True, text=True)
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1
        assert f"another citecast serve (pid {process.pid}) is using the store" in second.stderr
        assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200
        # at start (not only at shutdown) the crashed run's turn was marked failed
        running = Store(str(tmp_path / "store.db"))
        old = running.turn(left_pending)
        running.close()
        assert old is not None and old.status == "failed"
        process.send_signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then re-raises SIGTERM so the exit status says why.
        assert process.wait(timeout=30) in (0, -signal.SIGTERM)
        rest = process.stderr.read()
        assert "Application shutdown complete" in rest, rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    store = Store(str(tmp_path / "store.db"))
    try:
        [turn] = store.turns(response.json()["conversation_id"])
        assert turn.status == "done" and turn.channel == "web"
    finally:
        store.close()
    secret = tmp_path / "file_secret"
    assert secret.exists() and (secret.stat().st_mode & 0o777) == 0o600


def test_a_port_in_use_or_a_bad_host_is_one_line_before_anything_starts(tmp_path: Path) -> None:
    config = {"store": {"path": str(tmp_path / "store.db")}, "web": {"host": "127.0.0.1"}}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    serve = [sys.executable, "-m", "bot", "--config", str(tmp_path / "config.yaml"), "serve"]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run([*serve, "--port", str(port)], capture_output=True, text=True)
    assert busy.returncode == 2 and busy.stderr.count("\n") == 1, busy.stderr
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in busy.stderr
    assert "--port or web.port" in busy.stderr
    bad = subprocess.run([*serve, "--host", "999.1.1.1"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr
    assert "cannot listen on 999.1.1.1:8000" in bad.stderr and "web.host" in bad.stderr


async def test_connections_to_the_served_socket_send_small_responses_at_once() -> None:
    # Nagle's algorithm must be off on every accepted connection (asyncio sets TCP_NODELAY only
    # on sockets that say IPPROTO_TCP): with it on, each small response waited ~40 ms for an ACK
    listener = listen("127.0.0.1", 0)
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
    try:
        _, writer = await asyncio.open_connection(*listener.getsockname())
        assert await asyncio.wait_for(accepted, 10) != 0
        writer.close()
    finally:
        server.close()
        await server.wait_closed()
