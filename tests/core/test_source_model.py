"""The Source side of the model in its own module, still imported from bot.models as before."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

import bot.models
import bot.source_model

ROOT = Path(__file__).resolve().parents[2]
MOVED = (
    "SAFE_URL_SCHEMES",
    "SOURCE_KINDS",
    "SourceKind",
    "RecordAction",
    "Source",
    "is_safe_url",
)


@pytest.mark.parametrize("name", MOVED)
def test_bot_models_still_gives_every_moved_name(name: str) -> None:
    # `from bot.models import Source` (and the rest) keeps naming the very same object
    assert getattr(bot.models, name) is getattr(bot.source_model, name)


def test_source_model_loads_without_bot_models() -> None:
    """bot.models imports bot.source_model, never the other way round (no import cycle)."""
    probe = "import json, sys, bot.source_model; print(json.dumps('bot.models' in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert json.loads(done.stdout) is False


def test_unsafe_url_warning_keeps_its_logger_name(caplog: pytest.LogCaptureFixture) -> None:
    # logging set up for "bot.models" before the split still sees the warning
    with caplog.at_level(logging.WARNING, logger="bot.models"):
        source = bot.models.Source("x", url="javascript:alert(1)")
    assert source.url is None
    assert [record.name for record in caplog.records] == ["bot.models"]
