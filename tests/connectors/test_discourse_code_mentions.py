"""A mention inside a code span is not a mention, with code spans as Discourse (CommonMark)
reads them: a backtick escaped with a backslash opens none, so it cannot hide a mention."""

from __future__ import annotations

from bot.config import DiscourseSettings
from bot.connectors.discourse_webhook import PostEvent, strip_code, trigger_for

SETTINGS = DiscourseSettings(enabled=True, categories=[5], api_username="citecast")


def _event(raw: str) -> PostEvent:
    return PostEvent(
        post_id=11, topic_id=3, post_number=4, username="alice", raw=raw, category_id=5
    )


def test_a_mention_after_an_escaped_backtick_is_a_mention() -> None:
    raw = r"A backtick is typed \` and @citecast, why is `x` code?"
    assert trigger_for(_event(raw), SETTINGS) == "mention"


def test_a_backslash_inside_a_code_span_is_literal_so_the_mention_is_code() -> None:
    raw = r"Ask `@citecast\` and wait"
    assert trigger_for(_event(raw), SETTINGS) is None


def test_strip_code_pairs_backtick_runs_of_one_length_only() -> None:
    assert strip_code(r"\`a `b` ``c`` ```d") == r"\`a     ```d"
    assert strip_code("`` `@citecast` ``") == " "
