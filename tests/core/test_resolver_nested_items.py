"""A removed marker that was a nested list item's only content leaves no empty item behind.

Nested ordered items (``    1. [9]``, indented 4 columns under a parent item) and quoted ones
(``> 1. [9]``) go whole like top-level ones, and the item after a removed nested item keeps its
indentation, so it stays nested instead of moving up a level (numbered down, like a top-level
list's items; see test_resolver_list_numbers.py).
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

CASES = [
    ("- Parent\n    1. [9]\n    2. Child\n", "- Parent\n    1. Child"),
    ("1. Parent\n    1. [9]\n    2. Child\n2. Next\n", "1. Parent\n    1. Child\n2. Next"),
    ("- Parent\n    1. [9]", "- Parent"),
    ("- Parent\n\t1) [9]\n\t2) Child", "- Parent\n\t1) Child"),
    ("> 1. [9]\n> 2. Quoted", "> 2. Quoted"),
    # a nested bullet after a removed nested bullet stays nested
    ("- Parent\n    - [9]\n    - Child\n- Next", "- Parent\n    - Child\n- Next"),
    ("- Parent\n    - Child\n    - [9]\n    - Other", "- Parent\n    - Child\n    - Other"),
    # a number that begins no item is the writer's text
    ("- Parent\n    12 [9] apples", "- Parent\n    12 apples"),
    ("2023\n[9] was a year", "2023\nwas a year"),
    # outside a list, a removed line still does not turn the next one into code
    ("Intro\n\n- [9]\n    more", "Intro\n\nmore"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_a_nested_item_of_only_removed_markers_goes_whole(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
