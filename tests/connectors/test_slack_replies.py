"""The bot's replies recorded under the question they were posted for (``slack_replies``)."""

from __future__ import annotations

from pathlib import Path

from bot.connectors.slack_replies import ReplyLog
from bot.connectors.slack_thread import SlackThread
from bot.store import Store


def test_replies_are_recorded_under_their_question_once_each(tmp_path: Path) -> None:
    log = ReplyLog(Store(tmp_path / "citecast.db"))
    first = SlackThread("C0PUBLIC", "1.0", question_ts="1.0")
    second = SlackThread("C0PUBLIC", "1.0", question_ts="2.0")
    log.record(first, "3.0")
    log.record(second, "4.0")
    log.record(first, "5.0")
    log.record(first, "3.0")  # a stream recorded again when it stops
    log.record(SlackThread("C0PUBLIC", "1.0"), "6.0")  # names no question: not recorded
    assert log.replies("C0PUBLIC", "1.0") == ["3.0", "5.0"]
    assert log.replies("C0PUBLIC", "2.0") == ["4.0"]
    assert log.replies("C0OTHER", "1.0") == []
    log.keep_only("C0PUBLIC", "1.0", ["5.0"])
    assert log.replies("C0PUBLIC", "1.0") == ["5.0"]


def test_a_queued_answer_keeps_its_question_through_the_outbox() -> None:
    thread = SlackThread("C0PUBLIC", "1.0", "U0ASKER", "T0TEAM", question_ts="2.0")
    again = SlackThread.from_json(thread.to_json())
    assert again.question_ts == "2.0"
    # where the answer goes does not depend on it (an item queued before it was kept)
    older = {k: v for k, v in thread.to_json().items() if k != "question_ts"}
    assert SlackThread.from_json(older) == thread
    assert SlackThread.from_json(older).question_ts is None
