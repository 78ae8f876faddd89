"""``citecast ask`` shows an answer left empty once its markers are resolved as every channel
shows it, not as a blank line."""

from __future__ import annotations

from bot.commands.ask import plain_text
from bot.models import Answer, Dropped
from renderers.base import EMPTY_ANSWER


def test_an_answer_of_only_dropped_markers_reads_as_every_channel_s() -> None:
    answer = Answer(text=" \n", dropped=(Dropped(marker="[1]", reason="out_of_range", offset=0),))
    assert plain_text(answer) == EMPTY_ANSWER


def test_an_answer_with_text_is_shown_as_written() -> None:
    assert plain_text(Answer(text="Retries back off.\n")) == "Retries back off."
