"""A private channel mapped to a non-public group that becomes shared with another organisation
(Slack Connect) keeps getting that group's sources: citecast says so once in the log.

Found in a QA pass: a channel mapped to ``[staff]`` in ``slack.audience_by_channel`` went on
getting staff files silently after it was shared outside.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    PRIVATE,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

SHARED = "G0SHARED"


async def test_a_shared_channel_mapped_to_staff_is_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    mapping = {SHARED: ["staff"], PRIVATE: ["staff"]}
    async with slack_world(tmp_path, answerer, audience_by_channel=mapping) as world:
        world.fake.add_channel(SHARED, "private", "with-partner", shared="external")
        with caplog.at_level(logging.WARNING, logger="bot.connectors.slack_audience"):
            await world.post_event(mention("pay?", channel=SHARED))
            await world.post_event(mention("pay again?", channel=SHARED))
            await world.post_event(mention("pay?", channel=PRIVATE))  # not shared: no warning
        warnings = [r.getMessage() for r in caplog.records if "Slack Connect" in r.getMessage()]
        assert len(warnings) == 1
        assert SHARED in warnings[0] and "staff" in warnings[0]
        assert answerer.calls[0][1] == frozenset({"public", "staff"})  # a warning, no change
