"""``citecast serve`` before any ``citecast ingest`` says why every answer will be "not found"."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_serve_without_an_index_warns_at_start(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("web:\n  port: 0\n", encoding="utf-8")  # 0: any free loopback port
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
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    warning = [line for line in lines if "WARNING" in line and "knowledge index" in line]
    assert warning, "".join(lines)
    assert (
        warning[0]
        .rstrip()
        .endswith(
            f"no knowledge index at {tmp_path / '.citecast' / 'index.db'} yet: answers will find "
            "nothing until `citecast ingest PATH` builds one"
        )
    )
