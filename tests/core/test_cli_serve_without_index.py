"""``citecast serve`` before any ``citecast ingest`` says why every answer will be "not set up"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.serve_process import serving

NOT_SET_UP = 'yet: questions are answered "not set up" until `citecast ingest PATH` builds one'
NO_CONFIG = (
    " (no config.yaml in this folder, so that is the default path; run citecast where its "
    "config.yaml is, or name it with --config)"
)


@pytest.mark.parametrize("with_config", [True, False], ids=["config", "away from its config"])
def test_serve_without_an_index_warns_at_start(tmp_path: Path, with_config: bool) -> None:
    # run in another folder, `citecast serve` reads the defaults: the warning says why there is
    # no index there, rather than inviting an ingest that builds a second one
    config = tmp_path / "config.yaml" if with_config else None
    if config is not None:
        config.write_text("web:\n  port: 0\n", encoding="utf-8")  # 0: any free loopback port
    with serving(config, tmp_path) as lines:
        pass
    warning = [line for line in lines if "WARNING" in line and "knowledge index" in line]
    assert warning, "".join(lines)
    index = tmp_path / ".citecast" / "index.db" if with_config else ".citecast/index.db"
    ending = f"no knowledge index at {index} {NOT_SET_UP}" + ("" if with_config else NO_CONFIG)
    assert warning[0].rstrip().endswith(ending)
