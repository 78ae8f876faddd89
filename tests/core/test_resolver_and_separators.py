""" "and" and "&" between markers go with a removed marker, like "," and ";" do.

``Fact [1] and [9].`` with [9] removed used to read ``Fact [^1] and.``; it reads ``Fact [^1].``.
The word stays when it is the writer's (text follows it, or it only begins like "and").
Checked with ``resolve()`` and the stream fed in several splits.
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

CASES = [
    ("Fact [1] and [9].", "Fact [^1]."),
    ("Fact [9] and [1].", "Fact [^1]."),
    ("Fact [1] & [9].", "Fact [^1]."),
    ("Fact [1], and [9].", "Fact [^1]."),
    ("Fact [9] and [10].", "Fact."),
    ("Fact [1], [9] and [2].", "Fact [^1], [^2]."),
    # inside parentheses, as "," is
    ("Fact ([9] and [1]).", "Fact ([^1])."),
    ("Fact (see [9] and [10]).", "Fact."),
    ("Fact ([9] andrew).", "Fact (andrew)."),
    # kept: between two citations, before the writer's words, or not (yet) the word
    ("Fact [1] and [2].", "Fact [^1] and [^2]."),
    ("Fact [1] and more.", "Fact [^1] and more."),
    ("Fact [1] an [9].", "Fact [^1] an."),
    ("Fact [9] an [1].", "Fact an [^1]."),
    ("Fact [1] andrew [9].", "Fact [^1] andrew."),
    ("Fact [1] and", "Fact [^1] and"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_and_between_markers_is_a_separator(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
