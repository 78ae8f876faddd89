"""``citecast serve`` refuses a config it could not serve with, in one line, before it starts.

Each case is a real process: what matters is what an operator sees (one ``citecast serve:
<config file>: <key>: <reason>`` line, exit status 2, no traceback) and that it exits instead
of serving a server whose every question, webhook or mail would then fail.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml


def serve(tmp_path: Path, config: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """Run ``citecast serve --port 0`` on ``config``; a server that starts anyway times out."""
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"store": {"path": str(tmp_path / "store.db")}, **config}))
    command = [sys.executable, "-m", "bot", "--config", str(path), "serve", "--port", "0"]
    return subprocess.run(command, capture_output=True, text=True, timeout=30, cwd=tmp_path)


def assert_refused(done: subprocess.CompletedProcess[str], message: str) -> None:
    """One line naming the config file first, whether it was refused while reading the file or
    by a channel's start-up check, then ``message``."""
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    config = done.args[done.args.index("--config") + 1]
    assert done.stderr.startswith(f"citecast serve: {config}: {message}"), done.stderr


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            {"capabilities": {"web": {"max_files": -1}}},
            "capabilities.web.max_files: must be a non-negative integer",
        ),
        ({"discord": {"enabled": True}}, "discord.token: empty"),
        (
            {"email": {"enabled": True}},
            "email.address: required when email is enabled (the bot's own address, such as "
            "help@docs.example.com)",
        ),
        (
            {"discourse": {"enabled": True, "api_key": "k"}},
            "discourse.base_url, discourse.webhook_secret: required when discourse is enabled",
        ),
        (
            {"index": {"records": [{"name": "plans", "csv": "missing.csv"}]}},
            "index.records.0.csv: cannot read",
        ),
    ],
    ids=["capabilities", "discord", "email", "discourse", "records"],
)
def test_serve_refuses_in_one_line(tmp_path: Path, config: dict[str, Any], message: str) -> None:
    assert_refused(serve(tmp_path, config), message)


def test_serve_refuses_a_record_table_without_a_configured_column(tmp_path: Path) -> None:
    (tmp_path / "plans.csv").write_text("sku,name\nP1,Team\n")
    table = {"name": "plans", "csv": str(tmp_path / "plans.csv"), "columns": ["price"]}
    done = serve(tmp_path, {"index": {"records": [table]}})
    assert_refused(done, "index.records.0.columns: no column 'price' in table 'plans'")


def test_serve_refuses_an_email_listen_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        email = {"enabled": True, "address": "help@example.org", "listen_port": port}
        done = serve(tmp_path, {"email": email})
    assert_refused(
        done, f"email.listen_port: cannot listen on 127.0.0.1:{port}: the port is in use"
    )
