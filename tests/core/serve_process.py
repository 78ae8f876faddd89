"""``citecast serve`` as a child process, for tests of what the real command does at start."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def serving(
    config: Path | None, cwd: Path, env: Mapping[str, str] | None = None
) -> Iterator[list[str]]:
    """Run ``citecast --config CONFIG serve`` in ``cwd``; yield its stderr lines up to the
    "listening on" line (at most 50), then stop it with Ctrl-C and wait for it to end.

    Without ``config``: ``citecast serve --port 0`` with whatever ``cwd`` holds (the defaults
    when it holds no config.yaml), on any free loopback port. ``env``: more environment
    variables for the child."""
    command = ["--config", str(config), "serve"] if config else ["serve", "--port", "0"]
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", **(env or {})},
    )
    lines: list[str] = []
    try:
        assert server.stderr is not None
        for line in server.stderr:
            lines.append(line)
            if "listening on" in line or len(lines) > 50:
                break
        yield lines
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
