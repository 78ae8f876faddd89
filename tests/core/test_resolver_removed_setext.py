"""A setext underline never stays under nothing when the line above it was removed.

``[9]`` then ``===`` is a heading whose text is only a dropped marker. The resolver removed that
line with its line break, and left the underline alone: ``===`` then read as text (``---`` as a
rule), and the indented code that the heading ended became that text's continuation, so every
channel showed ``===`` and the raw ``[1]`` of the code. Now an underline of removed lines goes
with them, or, when code follows it (blank lines between or not), becomes an empty ATX heading
(``#``; ``##`` for ``---``), which shows nothing in any channel and keeps the code code, in a
list too. An underline of a paragraph that keeps a line stays.

Each case is resolved whole and streamed in several splits (one character at a time among
them); mistune's HTML of the result shows no bracketed number outside code, and the citations
mistune reads are the ones the resolver kept.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mistune.core import BlockState
from mistune.renderers.html import HTMLRenderer

from bot.markdown import citations_in, parse
from bot.models import Source
from bot.resolver import ResolvePolicy, StreamResolver, resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

_RAW_MARKER = re.compile(r"\[\^?\d+\]")
_CODE = re.compile(r"<pre>.*?</pre>|<code>.*?</code>", re.DOTALL)


def html(text: str) -> str:
    """``text`` as mistune renders it to HTML, a citation as ``<sup>n</sup>``."""
    renderer = HTMLRenderer(escape=True)
    renderer.register("citation", lambda _renderer, n: f"<sup>{n}</sup>")
    out = renderer(parse(text), BlockState())
    assert isinstance(out, str)
    return out


def shown_outside_code(text: str) -> str:
    return _CODE.sub("", html(text))


# (raw, resolved text, the citations mistune reads in it)
CASES = [
    # "===" with indented code after it, at the top, after a list, after blank lines, in CRLF
    ("[9]\n===\n    code [1]", "#\n    code [1]", []),
    ("[9] [9]\n===\n    code [1]", "#\n    code [1]", []),
    ("[9]\n[9]\n===\n    code [1]", "#\n    code [1]", []),
    ("  [9]\n  ==\n      code [1]", "#\n      code [1]", []),
    ("[9]\r\n===\r\n    code [1]", "#\r\n    code [1]", []),
    ("- item\n\n[9]\n===\n    code [1]", "- item\n\n#\n    code [1]", []),
    ("- item\n\n[9]\n===\n\n    code [1]", "- item\n\n#\n\n    code [1]", []),
    ("> [9]\n===\n    code [1]", "#\n    code [1]", []),
    ("# H\n[9]\n===\n    code [1]", "# H\n#\n    code [1]", []),
    ("    code [1]\n[9]\n===\n      code [1]", "    code [1]\n#\n      code [1]", []),
    # "---": an empty level-2 heading where code follows, no rule either way
    ("[9]\n---\n    code [1]", "##\n    code [1]", []),
    ("- item\n\n[9]\n---\n    code [1]", "- item\n\n##\n    code [1]", []),
    ("[9]\n===\n[9]\n---\n    code [1]", "##\n    code [1]", []),
    # no code after it: the underline goes with the line it underlined
    ("[9]\n===\ntext [1]", "text [^1]", [1]),
    ("[9]\n---\ntext [1]", "text [^1]", [1]),
    ("[9]\n===", "", []),
    ("Fact [1]\n\n[9]\n---\n\nmore [2]", "Fact [^1]\n\n\nmore [^2]", [1, 2]),
    # a heading that keeps a line keeps its underline
    ("Text\n[9]\n===\n    code [1]", "Text\n===\n    code [1]", []),
    ("Text\n[9]\n---\ntext [1]", "Text\n---\ntext [^1]", [1]),
    # a removed ATX heading keeps its hashes for code after blank lines too
    ("- item\n# [9]\n\n    code [1]", "- item\n\n#\n\n    code [1]", []),
]

# Right after a list item's line the scanner reads no underline (mistune reads a heading in the
# item): the indented line is the item's text, its marker cited, as before.
LIST_CASES = [
    ("- [9]\n===\n    code [1]", "===\n    code [^1]", [1]),
    ("- item\n[9]\n===\n    code [1]", "- item\n===\n    code [^1]", [1]),
]


@pytest.mark.parametrize(("raw", "expected", "cited"), CASES)
def test_an_underline_of_removed_lines_leaves_no_raw_marker(
    raw: str, expected: str, cited: list[int]
) -> None:
    text = resolved_everywhere(raw)
    assert text == expected
    shown = shown_outside_code(text)
    assert _RAW_MARKER.search(shown) is None, shown
    assert "===" not in shown and "<hr" not in shown
    assert citations_in(parse(text)) == cited
    assert [c.n for c in resolve(raw, two_sources()).citations] == sorted(set(cited))
    if "    code [1]" in raw:
        assert "<pre><code>" in html(text)  # the code stays code, its [1] as written


@pytest.mark.parametrize(("raw", "expected", "cited"), LIST_CASES)
def test_an_underline_in_a_list_item_is_its_text(raw: str, expected: str, cited: list[int]) -> None:
    text = resolved_everywhere(raw)
    assert text == expected
    assert _RAW_MARKER.search(shown_outside_code(text)) is None
    assert citations_in(parse(text)) == cited


# lines before the removed ones, the removed ones, the underline, and the lines after it
# (no "> q": mistune reads the lines after a quote's lazy line as the quote's, a heading too)
BEFORE = ["- item", "Text", "Text [1]", "# H", "", "    code [1]", "1. item", "<!-- c -->"]
REMOVED = ["[9]", "[9] [9]", "> [9]", "  [9]", "[9], [9]"]
UNDERLINES = ["===", "---", "  ==", "-", "=== "]
AFTER = [
    "    code [1]",
    "      code [1]",
    "",
    "text [1]",
    "    - [9]",
    "- item",
    "\t[1] tab",
    "[1]",
]


@given(
    st.lists(st.sampled_from(BEFORE), max_size=2),
    st.lists(st.sampled_from(REMOVED), min_size=1, max_size=2),
    st.sampled_from(UNDERLINES),
    st.lists(st.sampled_from(AFTER), min_size=1, max_size=3),
    st.booleans(),
)
def test_no_removal_above_an_underline_shows_a_raw_marker(
    before: list[str], removed: list[str], underline: str, after: list[str], crlf: bool
) -> None:
    raw = "\n".join([*before, *removed, underline, *after])
    raw = raw.replace("\n", "\r\n") if crlf else raw
    text = resolved_everywhere(raw)
    # where nothing is removed ("[9]" a source), the text may still read differently in mistune
    # and the scanner (a lazy quote line): only what a removal does is judged here
    kept = resolve(raw.replace("[9]", "[2]"), two_sources()).text
    if _RAW_MARKER.search(shown_outside_code(kept)) is None:
        assert _RAW_MARKER.search(shown_outside_code(text)) is None, text


@pytest.mark.parametrize(
    "raw", ["[9]\n===\n    code [1]\nWidget Pro", "Widget Pro\n[9]\n===\n    x"]
)
def test_an_underline_reads_the_same_when_mentions_are_inferred(raw: str) -> None:
    registry = two_sources()
    registry.register_all([Source("r", kind="record", label="Widget Pro", columns={"p": "5"})])
    policy = ResolvePolicy(infer_from_mentions=True)
    answer = resolve(raw, registry, policy)
    assert answer.text.startswith("#\n" if raw.startswith("[9]") else "Widget Pro[^1]\n===\n")
    for size in (1, 2, 3):
        stream = StreamResolver(registry, policy, coalesce=0)
        for at in range(0, len(raw), size):
            stream.feed(raw[at : at + size])
        assert stream.finish()[1] == answer


# A heading removed earlier in the answer ("# [9]", or "# H" kept) no longer makes a later
# removed line keep the tab of the line after it: whole and streamed, "[^1] tab", not code.
@pytest.mark.parametrize("raw", ["# [9]\n> q\n[9]\n\t[1] tab", "<div>\n# H\n\n  [9]\n\t[1] tab"])
def test_a_line_after_a_later_removed_line_loses_its_code_indent(raw: str) -> None:
    text = resolved_everywhere(raw)
    assert text.endswith("\n[^1] tab") or text.endswith("  [^1] tab")
    assert "\t" not in text
