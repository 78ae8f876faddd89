"""Emphasis that wraps only a marker goes with it (bot.markers): ``_[9]_`` and ``**[9]**``
removed leave no ``__`` or ``****``; ``**[1]**`` reads ``[^1]``. Emphasis around other words, a
run inside a word and a run that does not close right after the marker stay the writer's.
Checked with ``resolve()`` and the stream fed in several splits (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

CASES = [
    ("Fact _[9]_ here.", "Fact here."),
    ("Fact **[9]**.", "Fact."),
    ("Fact *[9]*, then.", "Fact, then."),
    ("Fact __[9]__ and ***[9]*** end.", "Fact end."),
    ("Fact **[1]**.", "Fact [^1]."),
    ("Fact *[1]* _[2]_.", "Fact [^1][^2]."),
    ("_[9]_ Fact.", "Fact."),
    ("Fact **[9]**\n", "Fact"),
    # the writer's emphasis stays
    ("Fact **bold [1]**.", "Fact **bold [^1]**."),
    ("snake_[1]_ x", "snake_[^1]_ x"),
    ("__init__[1] x", "__init__[^1] x"),
    ("Fact _[1]__ x", "Fact _[^1]__ x"),
    ("Fact *[1]*b", "Fact *[^1]*b"),
    ("Fact **[1]* x", "Fact **[^1]* x"),
    ("* [1] item", "* [^1] item"),
    ("a_b_c and x_", "a_b_c and x_"),
    ("**bold** text*", "**bold** text*"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_emphasis_around_a_marker_alone_goes_with_it(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
