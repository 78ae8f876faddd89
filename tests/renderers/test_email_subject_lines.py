"""The subject of an answer mail: the first line of the answer that has words.

It showed a quote's "> " ("> Quoted first"), and an answer opening with a rule or a heading made
only of citation markers got the bare "Your answer" although words followed.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render

GUIDE = Citation(1, Source(id="g", title="Guide", url="https://docs.example/g"), 1)


def subject(text: str) -> str:
    return str(render("email", Answer(text=text, citations=(GUIDE,)))["subject"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("> The handbook says leave is paid [^1].\n\nSo yes.", "The handbook says leave is paid."),
        ("> > Nested quote [^1]", "Nested quote"),
        ("---\n\nAfter a rule [^1].", "After a rule."),
        ("# [^1]\n\nThe words [^1].", "The words."),
        # unchanged: the first line with words, a code line as written
        ("# Install it [^1]\n\nBody.", "Install it"),
        ("```\n>>> import citecast\n```\n\nThen [^1].", ">>> import citecast"),
        ("[^1]", "Your answer"),
    ],
)
def test_the_subject_is_the_first_line_with_words(text: str, expected: str) -> None:
    assert subject(text) == expected
