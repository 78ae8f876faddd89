"""An event the store could not fully record is answered when Slack delivers it again.

Admission claims two keys: the event id and the message (channel + ts). When the store fails
between the two, the event was not acknowledged (503), so Slack redelivers it with the same
``event_id``; that redelivery must not be taken for a duplicate of an answered event.
"""

from __future__ import annotations

from pathlib import Path

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

# The store fails on the second claim only (as a transient "database is locked" would).
FAIL_MESSAGE_CLAIMS = """
CREATE TRIGGER fail_message_claims BEFORE INSERT ON dedupe
WHEN NEW.scope = 'slack-message'
BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END
"""


async def test_an_event_half_recorded_is_answered_on_redelivery(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        event = mention("store hiccup", ts="1600000000.730000")
        world.store._db.execute(FAIL_MESSAGE_CLAIMS)
        first = await world.post_event(event, event_id="EvHALF")
        assert first.status_code == 503
        assert answerer.calls == []
        world.store._db.execute("DROP TRIGGER fail_message_claims")
        again = await world.post_event(event, event_id="EvHALF", retry_num=1)
        assert again.status_code == 200
        assert len(answerer.calls) == 1
        assert len(world.fake.bot_messages(PUBLIC, thread_ts="1600000000.730000")) == 1
        # and it is still answered only once
        await world.post_event(event, event_id="EvHALF", retry_num=2)
        assert len(answerer.calls) == 1
