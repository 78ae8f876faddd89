"""``citecast serve`` opens the store with the periods of ``store.retention``."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]


def test_serve_keeps_claims_forever_when_claim_days_is_zero(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    store = Store(db, retention=None)
    assert store.claim_once("slack-event", "Ev1")
    store.close()
    with sqlite3.connect(db) as raw:  # answered a year ago
        raw.execute("UPDATE dedupe SET created_at = created_at - 365 * 86400")
    config = tmp_path / "config.yaml"
    config.write_text(
        "web:\n  port: 0\nstore:\n  path: store.db\n  retention:\n    claim_days: 0\n",
        encoding="utf-8",
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "--config", str(config), "serve"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    lines: list[str] = []
    try:
        assert server.stderr is not None
        for line in server.stderr:
            lines.append(line)
            if "listening on" in line or len(lines) > 50:
                break
        found = re.search(r"listening on (http://\S+)", "".join(lines))
        assert found, "".join(lines)
        request = urllib.request.Request(
            f"{found.group(1).rstrip('/')}/api/ask",
            data=json.dumps({"question": "How do I install it?"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 200  # a stored turn: a write, after which pruning runs
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    with sqlite3.connect(db) as raw:
        (claims,) = raw.execute("SELECT COUNT(*) FROM dedupe").fetchone()
    assert claims == 1
