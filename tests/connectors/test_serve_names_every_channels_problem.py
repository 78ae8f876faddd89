"""One start of ``citecast serve`` names every enabled channel's problem, a line each.

Found running every channel in one deployment: with ``SLACK_SIGNING_SECRET``,
``DISCORD_BOT_TOKEN`` and ``IMAP_PASSWORD`` unset, each start stopped at the first channel's
problem, so it took three starts to learn of all three. Each line still starts with the command
and the config file, as one problem's does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.test_serve_refuses_bad_config import assert_refused, serve

UNSET = ("CITECAST_TEST_SIGNING", "CITECAST_TEST_DISCORD", "CITECAST_TEST_IMAP")


def test_three_channels_missing_secrets_are_named_at_one_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in UNSET:
        monkeypatch.delenv(name, raising=False)
    config = {
        "slack": {"enabled": True, "bot_token": "xoxb-1", "signing_secret": f"${{{UNSET[0]}}}"},
        "discord": {"enabled": True, "token": f"${{{UNSET[1]}}}"},
        "email": {"enabled": True},
    }
    done = serve(tmp_path, config)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    origin = f"citecast serve: {tmp_path / 'config.yaml'}: "
    assert [line.startswith(origin) for line in lines] == [True, True, True], lines
    assert [line.removeprefix(origin).split(":")[0] for line in lines] == [
        "slack.signing_secret",
        "discord.token",
        "email.address",
    ]
    assert f"${{{UNSET[1]}}} is not set in the environment" in lines[1]


def test_one_channels_problem_is_still_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(UNSET[1], raising=False)
    config = {"discord": {"enabled": True, "token": f"${{{UNSET[1]}}}"}}
    assert_refused(
        serve(tmp_path, config),
        f"discord.token: empty: ${{{UNSET[1]}}} is not set in the environment\n",
    )
