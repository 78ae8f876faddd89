"""An ordered list that loses an item to removed markers stays numbered 1, 2, 3…

``1. [9]`` / ``2. Real item`` used to leave ``2. Real item`` first: a list starting at 2 in
markdown, and a gap in every plain-text channel. The later items of the same list (same
indentation and delimiter) are numbered down by the items removed before them; a list
numbered ``1.`` throughout keeps its numbers, and text after the list is never touched.
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

CASES = [
    ("1. [9]\n2. Real item\n3. Other", "1. Real item\n2. Other"),
    ("1. [9]\n2. [10]\n3. Real\n4. Other", "1. Real\n2. Other"),
    ("1. First [1]\n2. [9]\n3. Third\n4. Fourth", "1. First [^1]\n2. Third\n3. Fourth"),
    ("Steps:\n\n1) [9]\n2) Install\n3) Run", "Steps:\n\n1) Install\n2) Run"),
    ("3. [9]\n4. Real", "3. Real"),
    ("   1. [9]\n   2. Indented", "   1. Indented"),
    # a loose list, and an item's own indented lines
    ("1. [9]\n2. A\n\n3. B\n   more of B\n4. C", "1. A\n\n2. B\n   more of B\n3. C"),
    # numbers of another list, of text after the list, or of code are left alone
    ("1. [9]\n2. A\n\nText\n\n3. Another list", "1. A\n\nText\n\n3. Another list"),
    ("1. [9]\n2. A\n- bullet\n3. B", "1. A\n- bullet\n3. B"),
    ("1. [9]\n2. A\n```\n3. code\n```", "1. A\n```\n3. code\n```"),
    ("1. [9]\n2) A\n3. B", "2) A\n3. B"),
    ("1. Parent\n    1. [9]\n    2. Child\n2. Next", "1. Parent\n    1. Child\n2. Next"),
    # a list numbered "1." throughout keeps its numbers
    ("1. A\n1. [9]\n1. B", "1. A\n1. B"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_the_items_after_a_removed_item_are_numbered_down(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
