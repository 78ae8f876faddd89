"""``citecast serve`` opens the store with the periods of ``store.retention``."""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request
from pathlib import Path

from bot.store import Store
from tests.core.serve_process import serving


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
    with serving(config, tmp_path) as lines:
        found = re.search(r"listening on (http://\S+)", "".join(lines))
        assert found, "".join(lines)
        request = urllib.request.Request(
            f"{found.group(1).rstrip('/')}/api/ask",
            # a greeting: answered (and stored) without a knowledge index
            data=json.dumps({"question": "Hello!"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 200  # a stored turn: a write, after which pruning runs
    with sqlite3.connect(db) as raw:
        (claims,) = raw.execute("SELECT COUNT(*) FROM dedupe").fetchone()
    assert claims == 1
