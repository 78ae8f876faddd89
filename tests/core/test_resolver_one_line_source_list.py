"""A trailing source list the model wrote on one line (bot.marker_source_line).

``Sources: [5], [4]`` repeats, like a list of lines, sources the answer's own list shows: it
goes when it ends the answer and every item is a source of this turn (one no marker cited is
then cited after the text before it: bot.resolver_listed); anything else stays, its markers
read as anywhere else. Checked with ``resolve()`` and the stream fed in several splits.
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

CASES = [
    ("Fact [1] [2].\n\nSources: [1], [2]", "Fact [^1][^2]."),
    ("Fact [2].\n\n**Source:** [2]\n", "Fact [^1]."),
    ("Fact [1], [2].\n\n**Sources**: [2] and [1].", "Fact [^1], [^2]."),
    ("Fact [2].\n\n## References: [^2]", "Fact [^1]."),
    ("Fact [1].\n\nSources: [2]\n- [1] Install guide\n", "Fact [^1].[^2]"),
    # a number no source has, text after it, other words, no colon, not a line of its own
    ("Fact [1].\n\nSources: [1], [9]", "Fact [^1].\n\nSources: [^1]"),
    ("Fact [1].\n\nSources: [2]\n\nMore text.", "Fact [^1].\n\nSources: [^2]\n\nMore text."),
    ("Fact [1].\n\nSources: [2] and the manual", "Fact [^1].\n\nSources: [^2] and the manual"),
    ("Fact [1].\n\nSources [2]", "Fact [^1].\n\nSources [^2]"),
    ("Fact [1]. Sources: [2]", "Fact [^1]. Sources: [^2]"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_a_one_line_source_list_at_the_end(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
