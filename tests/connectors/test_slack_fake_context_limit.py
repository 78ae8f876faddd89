"""The fake Slack holds a context element's text to Slack's 2,000 characters (README: "10 context
elements of 2,000"), the limit the renderer keeps (``SLACK_MAX_CONTEXT_TEXT``)."""

from __future__ import annotations

from renderers.limits import SLACK_MAX_CONTEXT_TEXT
from tests.fakes.slack_blocks import validate_blocks


def context_block(chars: int) -> dict[str, object]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": "x" * chars}]}


def test_a_context_element_of_2000_characters_is_taken() -> None:
    assert validate_blocks([context_block(SLACK_MAX_CONTEXT_TEXT)]) == []


def test_a_context_element_one_character_longer_is_refused_where_it_is() -> None:
    problems = validate_blocks([context_block(SLACK_MAX_CONTEXT_TEXT + 1)])
    assert problems == [
        "must be less than 2001 characters [json-pointer:/blocks/0/elements/0/text]"
    ]
