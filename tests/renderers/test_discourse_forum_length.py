"""``forum_length`` and the fake forum's ``counted_length`` count a post as Discourse's
StrippedLengthValidator does (lib/validators/stripped_length_validator.rb): HTML comments
removed, an :emoji:, a run of dots or a run of commas one character, then String#strip."""

from __future__ import annotations

import pytest

from bot.models import Answer
from renderers import render
from renderers.discourse import forum_length
from tests.fakes.discourse_api import counted_length


@pytest.mark.parametrize(
    ("raw", "counted"),
    [
        ("Yes,,,,,, no", len("Yes, no")),
        ("a,b,,c,,,d", len("a,b,c,d")),
        ("Wait...,,,, ok :smile:", len("Wait…, ok X")),
        ("<!-- hidden --> shown", len("shown")),
        # Ruby's "." stops at a line break: a comment over two lines is counted
        ("<!--\nnote\n--> shown", len("<!--\nnote\n--> shown")),
        # Ruby's \w is ASCII: ":café:" is no emoji shortcode
        (":café: ok", len(":café: ok")),
        # String#strip takes ASCII whitespace only, not a no-break space
        ("\u00a0ok\u00a0", 4),
    ],
)
def test_a_post_is_counted_as_discourse_counts_it(raw: str, counted: int) -> None:
    assert forum_length(raw) == counted
    assert counted_length(raw) == counted


def test_a_run_of_commas_does_not_make_a_short_answer_long_enough() -> None:
    # Discourse counts "Sure," here: 5 characters, below the default minimum of 20
    raw = render("discourse", Answer(text="Sure" + "," * 30))["raw"]
    assert "short answer" in raw
    assert counted_length(raw) >= 20
