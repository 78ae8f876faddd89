"""The dependency rule of DESIGN §2: the core and the renderers load no SDK and no web framework."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = [
    "bot.models",
    "bot.registry",
    "bot.reference_marks",
    "bot.code_span_bounds",
    "bot.markers",
    "bot.marker_line_starts",
    "bot.marker_parse",
    "bot.marker_types",
    "bot.marker_lines",
    "bot.marker_groups",
    "bot.marker_keys",
    "bot.source_mentions",
    "bot.resolver",
    "bot.resolver_policy",
    "bot.resolver_citations",
    "bot.resolver_gaps",
    "bot.markdown",
    "bot.deeplinks",
    "renderers",
]
FORBIDDEN = [
    "slack_bolt",
    "slack_sdk",
    "discord",
    "aiosmtplib",
    "aiosmtpd",
    "starlette",
    "uvicorn",
    "httpx",
    "openai",
    "aiohttp",
]

PROBE = """
import importlib, json, sys
loaded = []
for name in {core!r}:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        continue
    loaded.append(name)
print(json.dumps({{"loaded": loaded, "modules": sorted(sys.modules)}}))
"""


def test_core_and_renderers_import_no_sdk_or_web_framework() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(core=CORE)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    report = json.loads(done.stdout)
    for required in ("bot.models", "bot.registry", "bot.markers", "bot.resolver"):
        assert required in report["loaded"]
    assert "bot.deeplinks" in report["loaded"]
    top_level = {name.split(".")[0] for name in report["modules"]}
    assert sorted(top_level & set(FORBIDDEN)) == []


def test_probe_detects_a_forbidden_import() -> None:
    """The probe itself works: importing an SDK on purpose shows up in sys.modules."""
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys, httpx; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert "httpx" in json.loads(done.stdout)
