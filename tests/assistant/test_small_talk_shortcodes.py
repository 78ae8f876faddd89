"""Emoji as Slack and Discourse deliver them, ``:shortcode:``, count as the emoji they name:
"Thanks! :+1:" thanks as "thanks 👍" does (bot/pleasantries.py)."""

from __future__ import annotations

import pytest

from bot.connectors.discourse_thanks import liked_instead
from bot.connectors.small_talk import is_small_talk_reply
from bot.models import Answer
from bot.pleasantries import SmallTalk, small_talk


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Thanks! :+1:", "thanks"),
        ("thanks :pray:", "thanks"),
        ("thank you :slightly_smiling_face:", "thanks"),
        ("ok :thumbsup:", "acknowledgement"),
        ("Thanks! :smile:", "thanks"),
        ("thanks :+1::skin-tone-2:", "thanks"),
        ("great :tada: :tada:", "acknowledgement"),
        (":wave: hi there", "greeting"),
        ("Thanks :heart: :heart_eyes:, Anna", "thanks"),
        ("thanks 👍", "thanks"),
    ],
)
def test_a_shortcode_counts_as_the_emoji_it_names(text: str, kind: SmallTalk) -> None:
    assert small_talk(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "thanks :) how do I X?",
        "thanks :) how do I X",
        "thanks :pray: how do I install it",
        "ok :thumbsup: and Windows",
        "thanks:pray:",  # glued to a word: no shortcode of Slack or Discourse
        ":+1:",  # an emoji alone says nothing more than "👍" alone does
        "see config:key:value",
    ],
)
def test_a_shortcode_does_not_hide_a_question(text: str) -> None:
    assert small_talk(text) is None


def test_the_channels_take_a_shortcode_thank_you_for_small_talk() -> None:
    # Discourse likes "Thanks! :+1:" instead of posting; Slack shows no feedback buttons
    assert liked_instead("Thanks! :+1:")
    assert liked_instead("ok :thumbsup::skin-tone-3:")
    assert is_small_talk_reply("thanks :pray:", Answer(text="You're welcome!"))
    assert not liked_instead("thanks :pray: and what about Windows")
