"""A bracket group followed by parentheses that no link can be is a marker, not a link's text.

``[2](source 1)`` is no CommonMark link (``1`` starts no title), so ``[2]`` is a bracket group
like any other and ``(source 1)`` the reader's parentheses (here a parenthesised source word).
Real links, with or without a title, stay links. Checked with ``resolve()`` and the stream fed
in several splits (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

CASES = [
    ("Fact [2](source 1).", "Fact [^1][^2]."),
    ("Fact [2](see 1).", "Fact [^1](see 1)."),
    ("Fact [2]( x y ) z.", "Fact [^1]( x y ) z."),
    ("Fact [2](source 1", "Fact [2](source 1"),  # not closed: text, as "[2](" is
    # links stay: a destination, one with a title, an empty one, a label of words
    ('Fact [1](https://x.test "title").', 'Fact [1](https://x.test "title").'),
    ("Fact [1](https://x.test).", "Fact [1](https://x.test)."),
    ("Fact [1]().", "Fact [1]()."),
    ("Fact [the guide](x y).", "Fact [the guide](x y)."),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_a_group_before_parentheses_that_are_no_link(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
