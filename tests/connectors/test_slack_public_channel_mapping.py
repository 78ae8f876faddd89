"""A public channel that ``slack.audience_by_channel`` maps anyway (say, a mapped private channel
made public) gets only ``public_audience``: citecast says so once per channel in the log, so the
admin who mapped it is not left wondering why its answers never cite those groups.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import CannedAnswerer, answer_citing, mention, slack_world

OPEN = "C0OPEN"
QUIET = "C0QUIET"


async def test_a_mapped_public_channel_is_one_warning_and_no_wider_audience(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    mapping = {OPEN: ["staff"], QUIET: ["public"]}
    async with slack_world(tmp_path, answerer, audience_by_channel=mapping) as world:
        world.fake.add_channel(OPEN, "public", "was-private")
        world.fake.add_channel(QUIET, "public", "mapped-to-public")
        with caplog.at_level(logging.WARNING, logger="bot.connectors.slack_audience"):
            await world.post_event(mention("pay?", channel=OPEN))
            await world.post_event(mention("pay again?", channel=OPEN))
            await world.post_event(mention("pay?", channel=QUIET))  # maps nothing more: quiet
        warnings = [r.getMessage() for r in caplog.records if "is public" in r.getMessage()]
        assert len(warnings) == 1
        assert OPEN in warnings[0] and "staff" in warnings[0]
        assert {audience for _, audience, _ in answerer.calls} == {frozenset({"public"})}
