"""The scanner reads where a block ends, and so where indented code may start, as mistune does.

Indented code cannot interrupt a paragraph, so the scanner took a 4-space indented line for
code only after a blank line. But a block that ends on its own line (an ATX heading, a closed
fence, a thematic break, a setext heading's underline) leaves no paragraph behind: mistune (the
renderers' parser, the oracle here) starts indented code right after it. And a line that looks
like a list item is not always one: ``text`` then ``-`` is a setext heading, an empty item or an
ordered one not numbered 1 cannot interrupt a paragraph, ``- - -`` is a rule, and an item that
begins empty ends at a blank line (so the list does, and an indented line after it is code).

Each case goes through ``resolve()`` (and the stream in several splits): a marker in code must
stay as written and cite nothing, a marker outside code must be cited, exactly as mistune reads
the raw text.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import citations_in, parse
from bot.marker_parse import Grammar, Marker
from bot.markers import MarkerScanner, Token, find_markers
from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

# (raw answer, whether its "[^1]" is a citation in mistune's reading)
CASES = [
    # indented code right after a one-line block
    ("# Heading\n    code [^1]", False),
    ("  ## Heading\n    code [^1]", False),
    ("```\nx = 1\n```\n    code [^1]", False),
    ("~~~\nx = 1\n~~~\n    code [^1]", False),
    ("***\n    code [^1]", False),
    ("Text\n===\n    code [^1]", False),
    ("Text\n---\n    code [^1]", False),
    ("- item\n# Heading\n    code [^1]", False),
    # "text" then "-" is a setext heading, not an empty list item
    ("Text\n-\n    code [^1]", False),
    ("Text\n-\n\n    code [^1]", False),
    ("Text\n-\nmore\n\n    code [^1]", False),
    # items that cannot interrupt a paragraph are its text; "- - -" is a rule
    ("Text\n*\n\n    code [^1]", False),
    ("Text\n1.\n\n    code [^1]", False),
    ("Text\n2. two\n\n    code [^1]", False),
    ("- - -\n\n    code [^1]", False),
    ("Text\n- - -\n    code [^1]", False),
    # an item that begins empty ends at a blank line, and its list with it
    ("-\n\n    code [^1]", False),
    ("- item\n-\n\n    code [^1]", False),
    # where the list goes on, or the heading is inside an item, nothing is code
    ("Text\n1. one\n\n    nested [^1]", True),
    ("Text\n- one\n\n    nested [^1]", True),
    ("- item\n  -\n\n    nested [^1]", True),
    ("-\nlazy\n\n    nested [^1]", True),
    ("-\n\n- item\n\n    nested [^1]", True),
    ("- item\n\n  # Heading\n    nested [^1]", True),
    ("# Heading\n-\nlazy\n\n    nested [^1]", True),
    ("# Heading\n  text [^1]", True),
    # a fence indented in a list item leaves the item open after it
    ("- item\n  ```\n  x\n  ```\n\n    nested [^1]", True),
    ("- item\n  ```\n  x\n  ```\n    nested [^1]", True),
    ("Text\n\n    code [^1]", False),
    ("Text\n    more [^1]", True),
]

# A fence in a list item: on the item's line or indented as its content (a nested item's too),
# closed as indented there, and ended with the item (by a later item, or an outdented line after
# a blank line); a line indented less without a blank line before it is a lazy line of the code.
FENCES_IN_ITEMS = [
    ("- ```\n  code\n\n  more [^1]\n  ```\n- b", False),
    ("1. Run:\n   ```bash\n   pip [^1]\n   ```\n2. Then", False),
    ("- a\n  - b\n    ```\n    c\n\n    d [^1]\n    ```\n  e", False),
    ("- a\n  - b\n    ```\n    c\n    ```\n\n    d [^1]", True),
    ("- ```\n  code\nlazy [^1]", False),
    ("- a\n  ```\n  code\n- b [^1]", True),
    ("- a\n\n  ```\n  code\n\nText [^1]", True),
    ("- ```\n  code\n  ```\n- b [^1]", True),
]

# An HTML block runs to a blank line: a fence, rule or heading in it is its text, and no code
# starts after them; a comment closed on its line ends there.
HTML_BLOCKS = [
    ("<div>\n```\nx [^1]", True),
    ("Text\n<div>\n```\nx [^1]", True),
    ("<div>\n</div>\n***\n      six [^1]", True),
    ("<div>\n# Heading\n    x [^1]", True),
    ("- a\n  <div>\n  ```\n  x [^1]", True),
    ("<span>\n```\nx [^1]", True),
    ("<div>\n\n```\nx [^1]", False),
    ("<!-- note -->\n    code [^1]", False),
    ("<b>Bold</b> text\n```\nx [^1]", False),
]


@pytest.mark.parametrize(("raw", "cited"), CASES + FENCES_IN_ITEMS + HTML_BLOCKS)
def test_resolve_cites_exactly_what_mistune_reads_outside_code(raw: str, cited: bool) -> None:
    assert citations_in(parse(raw)) == ([1] if cited else [])
    answer = resolve(raw.replace("[^1]", "[1]"), two_sources())
    assert [c.n for c in answer.citations] == ([1] if cited else [])
    # the text reads the same way: a citation where mistune sees one, the raw marker in code
    assert citations_in(parse(answer.text)) == ([1] if cited else [])
    assert ("[1]" in answer.text) is not cited
    assert resolved_everywhere(raw.replace("[^1]", "[1]")) == answer.text


LINES = [
    "Text [^1]",
    "lazy text",
    "- item [^1]",
    "-",
    "1. one [^1]",
    "2. two [^1]",
    "1.",
    "*",
    "- - -",
    "***",
    "---",
    "===",
    "# Heading [^1]",
    "  # Heading",
    "  text [^1]",
    "    indented [^1]",
    "~~~\nx [^1]\n~~~",
    "  ~~~\n  y [^1]\n  ~~~",
    "- ~~~",
    "  code [^1]",
    "  ~~~",
    "<div>",
    "</div>",
    "<!-- note -->",
    "- ~~~\n  a [^1]\n\n  b [^1]\n  ~~~",
    "lazy `x` [^1]",
    "",
    "",
]


# (Tilde fences only: in an HTML block mistune reads no code span, which the scanner does not
# know, a difference of its own.)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=8))
def test_the_scanner_finds_the_citations_mistune_renders(lines: list[str]) -> None:
    counter = iter(range(1, 100))
    text = re.sub(r"\[\^1\]", lambda _: f"[^{next(counter)}]", "\n".join(lines))
    scanned = [m.numbers[0] for m in find_markers(text) if m.family == "footnote"]
    assert scanned == citations_in(parse(text))
    for size in (1, 3):  # a stream decides each line as the whole text does
        scanner = MarkerScanner(Grammar())
        tokens: list[Token] = []
        for at in range(0, len(text), size):
            tokens += scanner.feed(text[at : at + size])
        tokens += scanner.finish()
        streamed = [
            t.numbers[0] for t in tokens if isinstance(t, Marker) and t.family == "footnote"
        ]
        assert streamed == scanned, size
