"""Raw HTML ``<script>`` and ``<style>`` in a Markdown page are not text.

Found by QA: the Markdown reader indexed the CSS and JavaScript of a page's ``<style>`` and
``<script>`` elements, which a rendered page never shows, and they reached search results,
quotes and section names ("Install alert(1) now").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from bot.knowledge.markdown_reader import read_markdown
from bot.knowledge.readers import read_document

UNCLOSED = (
    "is never closed (</{name}>): the text after it is left out, as a Markdown renderer hides it"
)


def _read(text: str, *, mdx: bool = False) -> list[tuple[str | None, str]]:
    doc = read_markdown(text, "a.mdx" if mdx else "a.md", mdx=mdx)
    return [(block.section, block.text) for block in doc.blocks]


@pytest.mark.parametrize("mdx", [False, True])
def test_script_and_style_blocks_are_not_text(mdx: bool) -> None:
    text = (
        "# Install\n\n<script>\nalert(1)\n</script>\n\n<style>\np { color: red }\n</style>\n\n"
        "Text here.\n"
    )
    assert _read(text, mdx=mdx) == [("Install", "Text here.")]


@pytest.mark.parametrize("mdx", [False, True])
def test_inline_script_and_style_are_not_text_in_headings_or_paragraphs(mdx: bool) -> None:
    text = (
        "# Install <script>alert(1)</script> now\n\n"
        "Body <style>p{}</style> text <script>x()</script>here.\n"
    )
    doc = read_markdown(text, "a.md", mdx=mdx)
    assert doc.title == "Install now"
    assert [(block.section, block.text) for block in doc.blocks] == [
        ("Install now", "Body  text here.")
    ]


def test_any_case_attributes_and_end_tags_with_spaces_are_elements() -> None:
    text = (
        '<SCRIPT type="module" src="a.js">\nimport x from "y";\n</Script >\n\n'
        '<style media="print">p { margin: 0 }</STYLE>\n\n'
        "Printed <Style\tmedia=print>b{}</style  > pages.\n"
    )
    assert _read(text) == [(None, "Printed  pages.")]


def test_an_element_opened_in_a_paragraph_hides_its_lines_up_to_its_end_tag() -> None:
    text = "# Chart\n\nThe chart <script>\ndraw({\n  bars: 3\n});\n</script> shows sales.\n"
    assert _read(text) == [("Chart", "The chart\n shows sales.")]


def test_an_element_beginning_its_line_ends_the_paragraph_and_text_after_it_is_shown() -> None:
    text = "One.\n<style>\np {}\n</style> Two.\n"
    assert _read(text) == [(None, "One."), (None, "Two.")]


def test_an_element_indented_in_a_paragraph_leaves_the_paragraph_whole() -> None:
    # indented four spaces it is inline HTML in the paragraph, not an HTML block
    assert _read("First half\n    <style>p {}</style> \nsecond half.\n") == [
        (None, "First half\nsecond half.")
    ]


def test_other_tag_names_are_not_scripts() -> None:
    text = "A <scripts>list</scripts> and a <style-guide>guide</style-guide>.\n"
    assert _read(text) == [(None, "A list and a guide.")]


def test_code_keeps_its_script_and_style_tags() -> None:
    text = (
        "Write `<style>p { color: red }</style>` in the head.\n\n"
        '```html\n<script src="a.js"></script>\n<style>\n```\n\n'
        "Indented:\n\n    <script>alert(1)</script>\n"
    )
    doc = read_markdown(text, "a.md")
    assert [block.text for block in doc.blocks] == [
        "Write `<style>p { color: red }</style>` in the head.",
        '```html\n<script src="a.js"></script>\n<style>\n```',
        "Indented:",
        "<script>alert(1)</script>",
    ]
    assert doc.warnings == ()


def test_an_end_tag_in_a_code_span_closes_nothing() -> None:
    # rendered, "`</script>`" is escaped text inside the script: the script goes on
    text = "Run <script>go(`</script>`)\n</script> it.\n"
    assert _read(text) == [(None, "Run\n it.")]


def test_a_commented_out_script_is_only_a_comment() -> None:
    text = "<!-- <script> analytics, later -->\nShown <!-- <style> --> text.\n"
    doc = read_markdown(text, "a.md")
    assert [block.text for block in doc.blocks] == ["Shown  text."]
    assert doc.warnings == ()


def test_a_comment_opener_inside_an_element_is_its_text() -> None:
    # whichever opens first holds the other: in the <style> "<!--" is CSS, not a comment
    text = "a <style><!--</style> b <script>--></script> c\n<script>\nX = 1\n</script>\n"
    doc = read_markdown(text, "a.md")
    assert [block.text for block in doc.blocks] == ["a  b  c"]
    assert doc.warnings == ()


@pytest.mark.parametrize(("name", "mdx"), [("script", False), ("style", False), ("style", True)])
def test_an_unclosed_element_hides_the_rest_and_names_its_line(name: str, mdx: bool) -> None:
    text = f"# Guide\n\nKept.\n\nAlso kept <{name} async>\nx = 1\n\n# Later\n\nLost.\n"
    doc = read_markdown(text, "a.md", mdx=mdx)
    assert [(block.section, block.text) for block in doc.blocks] == [
        ("Guide", "Kept."),
        ("Guide", "Also kept"),
    ]
    assert doc.warnings == (f"the <{name}> element opened on line 5 " + UNCLOSED.format(name=name),)


def test_the_unclosed_element_warning_counts_front_matter_lines() -> None:
    doc = read_markdown("---\ntitle: T\n---\nText.\n\n<script>\n", "a.md")
    assert doc.warnings == (
        "the <script> element opened on line 6 " + UNCLOSED.format(name="script"),
    )


def test_mdx_self_closing_script_is_a_whole_element() -> None:
    text = (
        'import Chart from "./chart";\n\n<script async src="https://a.example/s.js" />\n\n'
        "# Sales\n\n<script\n  defer\n  src={props.src}\n/>\n"
        "Read <script defer src={props.src} /> the chart.\n"
    )
    doc = read_markdown(text, "a.mdx", mdx=True)
    assert [(block.section, block.text) for block in doc.blocks] == [("Sales", "Read  the chart.")]
    assert doc.warnings == ()


def test_mdx_style_with_a_template_literal_inside_a_component() -> None:
    text = "<Tabs>\n  <style>{`\n    .tab { color: red }\n  `}</style>\n  Pick one.\n</Tabs>\n"
    assert _read(text, mdx=True) == [(None, "Pick one.")]


def test_markdown_self_closing_script_opens_as_a_browser_reads_it() -> None:
    # HTML has no self-closing <script/>: a browser reads on to a </script>
    doc = read_markdown('Before.\n\n<script src="a.js" />\n\nAfter.\n', "a.md")
    assert [block.text for block in doc.blocks] == ["Before."]
    assert doc.warnings == (
        "the <script> element opened on line 3 " + UNCLOSED.format(name="script"),
    )


@pytest.mark.parametrize("name", ["notes.txt", "notes.rst"])
def test_text_files_keep_script_and_style_as_text(name: str) -> None:
    data = b"Notes\n=====\n\nWrite <script>alert(1)</script> and <style>p{}</style> here.\n"
    doc = read_document(Path(name), data)
    assert any("alert(1)" in block.text and "p{}" in block.text for block in doc.blocks)
    assert doc.warnings == ()


@pytest.mark.parametrize("mdx", [False, True])
def test_ten_thousand_unclosed_openers_are_read(mdx: bool) -> None:
    # each search goes forward from the last: a line or a file of openers is read once
    one_line = read_markdown("Kept.\n\n" + "a <script>" * 10_000, "a.md", mdx=mdx)
    assert [block.text for block in one_line.blocks] == ["Kept.", "a"]
    many_lines = read_markdown("Kept.\n\n" + "<script>\n" * 10_000, "a.md", mdx=mdx)
    assert [block.text for block in many_lines.blocks] == ["Kept."]
    assert many_lines.warnings == (
        "the <script> element opened on line 3 " + UNCLOSED.format(name="script"),
    )
    pairs = read_markdown("Kept " + "<style>p{}</style>x" * 10_000 + "\n", "a.md", mdx=mdx)
    assert [block.text for block in pairs.blocks] == ["Kept " + "x" * 10_000]


def test_ingest_indexes_no_css_or_javascript_and_warns_of_an_unclosed_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "install.md").write_text(
        "# Install <script>trackInstall()</script>\n\n<style>\n.banner { color: red }\n</style>\n\n"
        "Run the installer.\n",
        encoding="utf-8",
    )
    (docs / "draft.md").write_text("Ready.\n\n<script>\nwindow.draft = 1\n", encoding="utf-8")
    (docs / "blank.md").write_text("<style>\nbody {}\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'i.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert (
        "  indexed kb/draft.md in part: the <script> element opened on line 3 "
        + UNCLOSED.format(name="script")
    ) in out
    assert (
        "  skipped kb/blank.md: no text: the <style> element opened on line 1 "
        + UNCLOSED.format(name="style")
    ) in out
    index = KnowledgeIndex(tmp_path / "i.db")
    for word in ("banner", "trackInstall", "color", "window"):
        assert index.search(word) == [], word
    [installer] = index.search("installer")
    assert (installer.section, installer.text) == ("Install", "Run the installer.")
