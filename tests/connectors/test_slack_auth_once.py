"""``auth.test`` is asked once: the answer at start also tells the audience lookups which
workspace (and organisation) citecast is in.

Found in a QA pass: ``citecast serve`` called ``auth.test`` at start and again on the first
direct message's audience lookup, while the README says citecast asks it once.
"""

from __future__ import annotations

from pathlib import Path

from tests.connectors.slack_harness import (
    CannedAnswerer,
    answer_citing,
    direct_message,
    slack_world,
)

STAFF = {"staff.example": ["staff"]}


async def test_the_audience_uses_the_identity_learned_at_start(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, audience_by_email_domain=STAFF) as world:
        await world.connector.start()
        assert len(world.fake.calls_to("auth.test")) == 1
        await world.post_event(direct_message("pay?"))
        await world.post_event(direct_message("pay now?"))
        # the asker is one of this workspace's people: their own groups are granted
        assert [call[1] for call in answerer.calls] == [frozenset({"public", "staff"})] * 2
        assert len(world.fake.calls_to("auth.test")) == 1
