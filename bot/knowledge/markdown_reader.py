"""Markdown and plain-text readers: heading paths, fenced code kept whole, hidden text left out.

Front matter is split off first (``front_matter``) and gives the title and the audience.

Headings inside fenced code blocks are code, not headings. Setext headings (a line underlined
with ``===`` or ``---``) count as headings too. What a rendered page does not show is not
text: HTML comments and ``<script>`` / ``<style>`` elements (outside code) and thematic breaks
(``---``, ``***``). A raw ``<pre>`` block is code, read as an HTML page's is
(:mod:`bot.knowledge.markdown_pre`).
"""

from __future__ import annotations

import re

from bot.knowledge.document import (
    Block,
    Document,
    HeadingPath,
    clean_heading,
)
from bot.knowledge.front_matter import split_front_matter
from bot.knowledge.front_matter_audience import front_matter_audience
from bot.knowledge.markdown_markup import (
    MAX_TAG_LINES,
    admonition_title,
    container_title,
    expression_lines,
    is_esm_start,
    is_link_definition,
    link_labels,
    shown_text,
    tag_lines,
    without_expressions,
    without_jsx_comments,
)
from bot.knowledge.markdown_pre import opens_pre, pre_blocks, pre_lines
from bot.knowledge.markdown_script_style import (
    CommentsAcrossLines,
    begins_element,
    closing_end,
    unclosed_warning,
    without_comments,
    without_elements,
)

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_COMMENT_BLOCK = re.compile(r"^ {0,3}<!--")


def _ends_paragraph(line: str) -> bool:
    """``line`` begins a block that ends a paragraph before it: a heading, a fence, a rule."""
    return bool(_ATX.match(line) or _FENCE.match(line) or _THEMATIC_BREAK.match(line))


def read_markdown(text: str, filename: str, *, mdx: bool = False) -> Document:
    """Parse Markdown into blocks under their heading paths.

    With ``mdx`` (``.mdx`` pages of Docusaurus, Nextra, Astro), as MDX reads it: top-level
    ``import`` / ``export`` statements, ``{expressions}`` (block-level, and simple inline ones
    outside code) and ``{/* comments */}`` are not text, indentation (a component's children)
    makes no code block, and JSX tags are left out like HTML tags, the text inside a component
    kept.
    """
    meta, body = split_front_matter(text)
    headings = HeadingPath()
    blocks: list[Block] = []
    title = str(meta["title"]).strip() if isinstance(meta.get("title"), str | int) else None
    paragraph: list[str] = []
    fence: str | None = None
    code: list[str] = []
    in_comment = False
    labels = link_labels(body)  # a definition may come after the links that use it
    in_admonition = False  # inside the indented body of a ``!!! note``
    indented_code = False  # the paragraph is an indented code block: its text as written

    def flush() -> None:
        nonlocal indented_code
        joined = "\n".join(paragraph).strip()
        paragraph.clear()
        indented_code = False
        if joined:
            blocks.append(Block(joined, headings.path))

    first_line = text[: len(text) - len(body)].count("\n") + 1  # the body's, in the file
    opened_line = 0  # where the comment or element left open (if any) began
    hidden_by: str | None = None  # a <script> or <style> left open: only its end tag ends it
    # Walked by index: no line's read copies the lines after it (that made a file's read time
    # grow with the square of its length: 16 MB took 16 s).
    lines = body.split("\n")
    comments = CommentsAcrossLines(lines, _ends_paragraph, jsx=mdx)
    skip_to = 0  # lines before it were read with an earlier one (a tag, a statement)
    for index, line in enumerate(lines):
        number = first_line + index
        if index < skip_to:
            continue
        if fence is not None:
            code.append(line)
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                blocks.append(Block("\n".join(code), headings.path, kind="code"))
                code, fence = [], None
            continue
        if hidden_by is not None:
            end = closing_end(line, hidden_by)
            if end < 0:
                continue
            hidden_by, line = None, line[end:]  # the text after its end tag is shown
            if not line.strip():
                continue
        # HTML comments are not shown on the rendered page, and they hold what was never meant
        # for readers ("TODO: price rises in May, do not publish"): like hidden HTML, not text.
        if in_comment or _COMMENT_BLOCK.match(line):
            if not in_comment:
                flush()  # a comment block interrupts a paragraph
                line = line.split("<!--", 1)[1]
                opened_line = number
            end = line.find("-->")
            in_comment = end < 0
            if in_comment or not line[end + 3 :].strip():
                continue
            line = line[end + 3 :]  # text after the comment on its closing line is shown
        if not mdx and opens_pre(line):
            # code as a browser shows it, like an HTML page's <pre> (see markdown_pre): read
            # as a paragraph, its reference-like "[1]" was left out of what a model is shown
            flush()
            skip_to = index + pre_lines(lines, index)
            blocks.extend(pre_blocks("\n".join([line, *lines[index + 1 : skip_to]]), headings.path))
            continue
        opened = _FENCE.match(line.lstrip() if mdx else line)
        if opened:
            flush()
            fence, code = opened.group(1), [line]
            continue
        if mdx and not paragraph and is_esm_start(line):
            flush()  # `import Tabs from '@theme/Tabs';` is code for the build, not text
            skip_to = index + 1
            while skip_to < len(lines) and lines[skip_to].strip():
                skip_to += 1
            continue
        expression = expression_lines(lines, index) if mdx and line.lstrip()[:1] == "{" else 0
        if expression:
            flush()  # `{/* a note for writers */}`, `{props.version}`: not read as text
            skip_to = index + expression
            continue
        uncommented = without_comments(without_jsx_comments(line) if mdx else line, jsx=mdx)
        if line.strip() and not uncommented.strip():
            continue  # only a comment: not a blank line, so the paragraph goes on
        indented = uncommented.startswith(("    ", "\t"))
        if uncommented.strip() and not indented:
            in_admonition = False
        if not paragraph and indented and not in_admonition and not mdx:
            indented_code = True  # `<div>` in an indented example is code, not a tag
        # a tag written over several lines (`<Tabs` / `  groupId="os">`) is read as one line
        spanned = (
            0 if indented_code else tag_lines(uncommented, lines[index + 1 : index + MAX_TAG_LINES])
        )
        if spanned:
            following = lines[index + 1 : index + 1 + spanned]
            uncommented = " ".join([uncommented.rstrip(), *(part.strip() for part in following)])
            skip_to = index + 1 + spanned
        if not indented_code:  # a comment the line leaves open may close further down
            across = comments.joined(uncommented, max(skip_to, index + 1))
            if across is not None:
                uncommented = across[0]
                skip_to = max(skip_to, index + 1) + across[1]
        if not indented_code:  # CSS and JavaScript are not text (README "Reading files")
            shown = without_elements(uncommented, jsx=mdx)
            if begins_element(uncommented):
                flush()  # an HTML block interrupts a paragraph
            if shown.left_open:
                hidden_by, opened_line = shown.left_open, number
            if uncommented.strip() and not shown.text.strip():
                continue  # only an element: not a blank line either
            uncommented = shown.text
        if mdx:
            uncommented = uncommented.lstrip(" \t")  # a component's children are indented
        marker = admonition_title(uncommented)
        in_admonition = in_admonition or marker is not None
        marker = container_title(uncommented) if marker is None else marker
        if marker is not None or (not paragraph and is_link_definition(uncommented)):
            flush()  # an admonition's marker is drawn as a box, not read
            if marker:
                blocks.append(Block(marker, headings.path))  # its title is shown
            continue
        line = uncommented if indented_code else shown_text(uncommented, labels)
        if mdx:
            line = without_expressions(line)  # "Version {props.version} is out"
        if uncommented.strip() and not line.strip():
            continue  # only tags (`<div class="note">`): not a blank line either
        atx = _ATX.match(line)
        if atx:
            flush()
            heading = clean_heading(atx.group(2) or "")
            title = title or heading or None
            headings.enter(len(atx.group(1)), heading)
            continue
        setext = _SETEXT.match(line)
        if setext and len(paragraph) == 1 and not paragraph[0].lstrip().startswith(("-", "*")):
            heading = clean_heading(paragraph.pop())
            title = title or heading or None
            headings.enter(1 if setext.group(1)[0] == "=" else 2, heading)
            continue
        if (setext and paragraph) or _THEMATIC_BREAK.match(line):
            # a rule (or an underline under more than one line) is drawn, not read: "---" in a
            # passage or a quote is noise
            flush()
            continue
        if not line.strip():
            flush()
            continue
        paragraph.append(line.rstrip())
    flush()
    if code:  # an unclosed fence runs to the end of the file
        blocks.append(Block("\n".join(code), headings.path, kind="code"))
    url = meta.get("url") if isinstance(meta.get("url"), str) else None
    # a renderer hides the rest of the page too, but a forgotten "-->" deserves a word
    left_open = "comment" if in_comment else hidden_by
    return Document(
        title=title or filename,
        media_type="text/markdown",
        blocks=blocks,
        audience=front_matter_audience(meta),
        url=url,
        warnings=(unclosed_warning(left_open, opened_line),) if left_open else (),
    )


def read_text(text: str, filename: str) -> Document:
    """Plain text: paragraphs separated by blank lines or form feeds (a page break, as ``man``
    pages and printed reports write it); the title is the file name."""
    blocks = [Block(p.strip()) for p in re.split(r"\n[ \t]*\n|\f", text) if p.strip()]
    return Document(title=filename, media_type="text/plain", blocks=blocks)
