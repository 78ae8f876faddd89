"""``citecast serve`` itself honours ``X-Forwarded-Prefix`` from a trusted proxy
(``$FORWARDED_ALLOW_IPS``, loopback by default), and only from one."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from bot.config_file import parse_settings
from bot.knowledge.ingest import ingest
from tests.core.serve_process import ROOT, serving


def share_path(tmp_path: Path, env: dict[str, str]) -> str:
    """Start ``citecast serve`` (examples/ ingested), ask one question with
    ``X-Forwarded-Prefix: /help`` over loopback, and return the answer's share_url's path."""
    index, store = tmp_path / "index.db", tmp_path / "store.db"
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  path: {index}\nstore:\n  path: {store}\nweb:\n  port: 0\n", encoding="utf-8"
    )
    ingest([ROOT / "examples"], parse_settings({"index": {"path": str(index)}}).index)
    with serving(config, tmp_path, env) as lines:
        found = re.search(r"listening on (http://\S+)", lines[-1])
        assert found is not None, "citecast serve did not say where it listens"
        where = found.group(1)
        asked = httpx.post(
            f"{where}/api/ask",
            json={"question": "How do I install citecast?"},
            headers={"x-forwarded-prefix": "/help"},
            timeout=30,
        )
        assert asked.status_code == 200, asked.text
        share_url: str = asked.json()["share_url"]
        return share_url.removeprefix(where)


@pytest.mark.parametrize(
    ("env", "path"),
    [({}, "/help/turns/"), ({"FORWARDED_ALLOW_IPS": "10.0.0.1"}, "/turns/")],
)
def test_serve_takes_the_prefix_from_a_trusted_proxy_only(
    tmp_path: Path, env: dict[str, str], path: str
) -> None:
    assert share_path(tmp_path, env).startswith(path)
