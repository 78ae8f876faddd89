"""The share rule's count of earlier answers follows a turn answered after it was counted.

``ConversationHistory`` keeps a count of each conversation's earlier answers between calls. A
security review found it treating a counted turn that was not pending as settled for good, while
a restart marks a Slack or Discord question failed that the connector answers later under the
same turn (``slack_unanswered``, ``discord_answer``), and the share page serves those channels
too: a staff answer stored that way did not hide the later answers' share pages, though the
page rule (every earlier answer judged again) hides them. Over a real store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.connectors.web_turn_page import load_answer, shareable_answer
from tests.connectors.web.conftest import cited_answer, passage
from tests.connectors.web.test_web_long_conversation import STAFF, web_turns

NO_SOURCES: dict[str, Any] = {"sources": []}


def test_a_failed_turn_recorded_answered_later_hides_the_answers_after_it(
    tmp_path: Path,
) -> None:
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    thread = store.new_conversation_id()
    staff = cited_answer(STAFF, text="Staff only.[^1]").to_json()
    public = cited_answer(passage(1), text="Public.[^1]").to_json()
    # a Slack answer posted whole by the earlier run, marked failed by the restart ...
    first = store.add_turn(thread, "slack", "Q1?", staff, NO_SOURCES, status="failed")
    later = store.add_turn(thread, "slack", "Q2?", public, NO_SOURCES)
    loaded = load_answer(store, later)
    assert loaded is not None
    assert turns.shared_answer(loaded) is not None  # its share page opened once: Q1 counted
    # ... then recorded as answered (slack_unanswered.KeptQuestions._answered)
    store.finish_turn(first, staff, NO_SOURCES)
    assert shareable_answer(loaded, turns.audience, store.turns(thread), turns.files) is None
    assert turns.shared_answer(loaded) is None
    store.close()


def test_a_question_answered_again_after_a_restart_hides_the_answers_after_it(
    tmp_path: Path,
) -> None:
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    thread = store.new_conversation_id()
    staff = cited_answer(STAFF, text="Staff only.[^1]").to_json()
    public = cited_answer(passage(1), text="Public.[^1]").to_json()
    left = store.add_turn(thread, "discord", "Q1?", status="failed")  # the restart marked it
    asked = store.add_turn(thread, "discord", "Q2?", public, NO_SOURCES)
    first_page = load_answer(store, asked)
    assert first_page is not None and turns.shared_answer(first_page) is not None
    store.finish_turn(left, staff, NO_SOURCES)  # discord_answer._turn answers it, from staff
    later = store.add_turn(thread, "discord", "Q3?", public, NO_SOURCES)
    loaded = load_answer(store, later)
    assert loaded is not None
    assert shareable_answer(loaded, turns.audience, store.turns(thread), turns.files) is None
    assert turns.shared_answer(loaded) is None
    # Q2's own page: Q1 is before it too, and was answered from staff
    assert turns.shared_answer(first_page) is None
    store.close()


def test_a_turn_still_failed_is_read_again_but_changes_nothing(tmp_path: Path) -> None:
    turns, _ = web_turns(tmp_path)
    store = turns.services.store
    thread = store.new_conversation_id()
    public = cited_answer(passage(1), text="Public.[^1]").to_json()
    store.add_turn(thread, "slack", "Q1?", status="failed")
    asked = store.add_turn(thread, "slack", "Q2?", public, NO_SOURCES)
    loaded = load_answer(store, asked)
    assert loaded is not None
    assert turns.shared_answer(loaded) is not None
    reads = turns.conversations.reads.rows
    assert turns.shared_answer(loaded) is not None
    # the count holds: only the one turn not answered is read again
    assert turns.conversations.reads.rows - reads == 1
    store.close()
