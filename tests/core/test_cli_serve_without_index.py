"""``citecast serve`` before any ``citecast ingest`` says why every answer will be "not found"."""

from __future__ import annotations

from pathlib import Path

from tests.core.serve_process import serving


def test_serve_without_an_index_warns_at_start(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("web:\n  port: 0\n", encoding="utf-8")  # 0: any free loopback port
    with serving(config, tmp_path) as lines:
        pass
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


def test_serve_started_away_from_its_config_says_no_config_was_read(tmp_path: Path) -> None:
    # `citecast serve` run in another folder reads the defaults: the warning says why there is
    # no index there, rather than inviting an ingest that builds a second one
    with serving(None, tmp_path) as lines:
        pass
    warning = [line for line in lines if "WARNING" in line and "knowledge index" in line]
    assert warning, "".join(lines)
    assert (
        warning[0]
        .rstrip()
        .endswith(
            "no knowledge index at .citecast/index.db yet: answers will find nothing until "
            "`citecast ingest PATH` builds one (no config.yaml in this folder, so that is the "
            "default path; run citecast where its config.yaml is, or name it with --config)"
        )
    )
