"""A list item's own indented code is code, as mistune reads it.

The scanner took a 4-space indented line for code only outside a list, but mistune reads a line
indented 4 columns past an item's content as the item's code block where no paragraph goes on
(after a blank line, or right after an item that began empty or with a closed comment). A
``[1]`` there was resolved to ``[^1]``, which mistune then showed raw inside the code block
(``1. Run:`` / blank / ``       pip install [1]``). And the resolver, removing a line after a
blank line in a list, kept the next line's deep indentation, which made it the item's code and
showed its ``[^1]`` raw.

Each case goes through ``resolve()`` (and the stream in several splits) and ``mask_code``.
"""

from __future__ import annotations

import pytest

from bot.claims import CITATION_RE, mask_code
from bot.markdown import citations_in, parse
from tests.core.resolver_splits import reads_as_mistune, resolved_everywhere

# (raw answer, whether its "[^1]" is a citation in mistune's reading)
CASES = [
    ("1. Run:\n\n       pip install [^1]\n", False),
    ("- a\n\n      code [^1]", False),
    ("-\n      code [^1]", False),
    ("- <!-- note -->\n      code [^1]", False),
    ("- a\n  - b\n\n        code [^1]", False),
    ("- a\n\n      code\n    text [^1]", True),
    ("- a\n\n      code\n  text [^1]", True),
    # a paragraph goes on, or the line is not indented past the item's content by 4
    ("- a\n      more [^1]", True),
    ("- a\n  - b\n\n      more [^1]", True),
    ("- a\n\n    more [^1]", True),
]


@pytest.mark.parametrize(("raw", "cited"), CASES)
def test_an_items_indented_code_is_code(raw: str, cited: bool) -> None:
    assert ("[1]" in reads_as_mistune(raw, cited)) is not cited
    assert [int(m.group(1)) for m in CITATION_RE.finditer(mask_code(raw))] == ([1] if cited else [])


@pytest.mark.parametrize("removed", ["[9]", "  [9]", "- [9]", "> [9]"])
def test_a_line_after_a_removed_one_does_not_become_an_items_code(removed: str) -> None:
    text = resolved_everywhere(f"- item\n\n{removed}\n      more [1] here.")
    assert "more [^1] here." in text
    assert citations_in(parse(text)) == [1]
