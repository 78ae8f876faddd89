"""``citecast serve`` as a real process: starts, answers over loopback, stops on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import yaml

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
    env = {k: v for k, v in os.environ.items() if k != "CITECAST_FILE_SECRET"}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--config", str(tmp_path / "config.yaml"), "serve"],
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
            found = re.search(r"Uvicorn running on (http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) if found else None
        assert url, "".join(lines)
        response = httpx.post(
            f"{url}/api/ask", json={"question": "How do I install citecast on Linux?"}, timeout=30
        )
        assert response.status_code == 200
        assert response.json()["answer"]["citations"]
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
