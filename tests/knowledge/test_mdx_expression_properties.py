"""Property tests for MDX inline expressions (bot/knowledge/markdown_markup.py
``without_expressions``, ``expression_lines``) and the MDX reader around them.

Any line: no exception; a code span's text is never touched; text outside braces is kept;
a page of any text is read without an exception.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.document import code_spans
from bot.knowledge.markdown_markup import expression_lines, without_expressions
from bot.knowledge.markdown_reader import read_markdown

_PIECES = st.sampled_from(
    ["{", "}", "`", "``", "\\", "'", '"', " ", "{props.v}", "{' '}", '{"Note"}', "{/* c */}",
     "x", ".", "\n", "<Tip>", "import x", "#", "- ", "{a{b}c}"]
)  # fmt: skip
_LINE = st.one_of(st.text(max_size=60), st.lists(_PIECES, max_size=20).map("".join))


@given(_LINE)
def test_code_spans_are_kept_as_written(line: str) -> None:
    code = [piece for is_code, piece in code_spans(line) if is_code]
    out = without_expressions(line)
    position = 0
    for piece in code:  # each code span is in the output, in order
        found = out.find(piece, position)
        assert found >= 0, (line, out)
        position = found + len(piece)


@given(_LINE)
def test_a_line_without_braces_is_unchanged(line: str) -> None:
    plain = line.replace("{", "").replace("}", "")
    assert without_expressions(plain) == plain


@given(_LINE)
def test_only_characters_of_the_line_are_left(line: str) -> None:
    out = without_expressions(line)
    rest = iter(line)
    assert all(ch in rest for ch in out)  # a subsequence of the line


@given(st.lists(_LINE, min_size=1, max_size=8))
def test_expression_lines_stay_in_the_page(lines: list[str]) -> None:
    for start, line in enumerate(lines):
        if line.lstrip()[:1] == "{":
            assert 0 <= expression_lines(lines, start) <= len(lines) - start


@given(st.lists(_LINE, max_size=10).map("\n".join))
def test_any_mdx_page_is_read(text: str) -> None:
    for block in read_markdown(text, "page.mdx", mdx=True).blocks:
        assert block.text.strip()
