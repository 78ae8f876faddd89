"""Property tests for ``<script>`` and ``<style>`` in Markdown and MDX pages
(bot/knowledge/markdown_script_style.py and the Markdown reader around it).

Pages are built of lower-case prose and elements whose content is upper case, placed where a
writer puts them: a block of lines, inline in a paragraph or a heading (two in a line, maybe),
or opened in a line and closed on a later one. Whatever the content (backticks, fences,
comments, other tags), no upper-case letter, so no text inside a closed element, reaches a
block, a section or the title.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.markdown_reader import read_markdown
from bot.knowledge.markdown_script_style import without_elements

_PROSE = st.lists(
    st.sampled_from(["alpha", "beta", "gamma", "run", "the", "42", "a.b", "(x)", "now,"]),
    min_size=1,
    max_size=5,
).map(" ".join)
# Content fragments: markup that means something elsewhere in Markdown, and no lower case
_FRAGMENTS = st.sampled_from(
    ["A", "B C", "`", "``", "```", "{", "}", "<!--", "-->", "<B>", "</B>", "<style>",
     "</style>", "<script>", "</script>", "<SCRIPT", "/>", "# H", "    ", "\\", "'", '"', ";",
     "</SCRIPTX>", ">", "<", "[X](Y)", "* ", "==="]
)  # fmt: skip
_OPENERS = st.sampled_from(
    ["<{name}>", "<{NAME}>", '<{name} type="X">', "<{name}\tdata-x='Y>Z'>", "<{name} async>"]
)
_CLOSERS = st.sampled_from(["</{name}>", "</{NAME}>", "</{name} >"])


@st.composite
def _element(draw: st.DrawFn, *, lines: bool) -> str:
    """A script or style element with upper-case content (over several lines, if ``lines``)."""
    name = draw(st.sampled_from(["script", "style"]))
    fragments = st.lists(_FRAGMENTS, max_size=6).map("".join)
    parts = draw(st.lists(fragments, min_size=1, max_size=4 if lines else 1))
    content = "\n".join(parts)
    if f"</{name}" in content.lower():
        content = "X"  # its own end tag would end it: the rest is not its content
    opener = draw(_OPENERS).format(name=name, NAME=name.upper())
    closer = draw(_CLOSERS).format(name=name, NAME=name.upper())
    return f"{opener}{content}{closer}"


@st.composite
def _page(draw: st.DrawFn) -> str:
    """A page of prose paragraphs and headings with elements among them."""
    chunks: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["prose", "block", "inline", "heading", "spanning"]))
        prose = draw(_PROSE)
        if kind == "prose":
            chunks.append(prose)
        elif kind == "block":
            after = draw(st.sampled_from(["", " " + prose]))
            chunks.append(draw(_element(lines=True)) + after)
        elif kind == "inline":  # one or two elements in a line
            second = draw(st.sampled_from(["", f" {draw(_element(lines=False))} {draw(_PROSE)}"]))
            chunks.append(f"{prose} {draw(_element(lines=False))} {draw(_PROSE)}{second}")
        elif kind == "heading":
            chunks.append(f"## {prose} {draw(_element(lines=False))} {draw(_PROSE)}")
        else:  # opened in a paragraph's line and closed on a later one
            chunks.append(f"{prose} {draw(_element(lines=True))} {draw(_PROSE)}")
    joiners = st.sampled_from(["\n", "\n\n"])
    return "".join(chunk + draw(joiners) for chunk in chunks)


@given(_page(), st.booleans())
def test_no_text_inside_a_closed_element_reaches_a_block_or_section(text: str, mdx: bool) -> None:
    doc = read_markdown(text, "page.mdx" if mdx else "page.md", mdx=mdx)
    shown = [doc.title or ""]
    for block in doc.blocks:
        shown += [block.text, block.section or ""]
    assert not any(char.isupper() for part in shown for char in part), (text, shown)


@given(st.lists(st.one_of(_PROSE, _FRAGMENTS), max_size=12).map(" ".join), st.booleans())
def test_what_is_left_of_a_line_is_a_piece_of_it(line: str, jsx: bool) -> None:
    shown = without_elements(line, jsx=jsx)
    rest = iter(line)
    assert all(char in rest for char in shown.text)  # a subsequence of the line
    if "<script" not in line.lower() and "<style" not in line.lower():
        assert shown.text == line and shown.left_open is None
