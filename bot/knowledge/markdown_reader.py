"""Markdown and plain-text readers: front matter, heading paths, fenced code kept whole.

Headings inside fenced code blocks are code, not headings. Setext headings (a line underlined
with ``===`` or ``---``) count as headings too. What a rendered page does not show is not
text: HTML comments and ``<script>`` / ``<style>`` elements (outside code) and thematic breaks
(``---``, ``***``).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Hashable
from typing import Any

import yaml

from bot.knowledge.document import (
    Block,
    Document,
    HeadingPath,
    Unreadable,
    clean_heading,
)
from bot.knowledge.front_matter_audience import front_matter_audience, names_audience
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
from bot.knowledge.markdown_script_style import (
    begins_element,
    closing_end,
    comment_across_lines,
    unclosed_warning,
    without_comments,
    without_elements,
)

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_COMMENT_BLOCK = re.compile(r"^ {0,3}<!--")
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
# A block after blank lines, or a JSON object, that cannot be parsed: does a key name an
# audience (or look meant to: "Audiance =", "audiences:")? A sentence ("Our audience: all")
# does not.
_AUDIENCE_KEY_LINE = re.compile(r"""^[ \t]*["']?[\w.:-]*audi[\w.:-]*["']?[ \t]*[:=]""", re.I | re.M)
_AUDIENCE_KEY_JSON = re.compile(r'"[^"\n]*audi[^"\n]*"\s*:', re.I)
_JSON_CHECKED_CHARS = 20_000  # how far that check reads in a JSON object never closed


class _FrontMatterLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key written twice.

    PyYAML keeps the last of two equal keys, so ``audience: [staff]`` followed by a stray
    ``audience: public`` would quietly publish the file.
    """

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # ``<<: *defaults`` may be overridden on purpose
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, Hashable):
                continue  # the base class refuses it with its own message
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is written twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def split_front_matter(text: str, *, scalar_is_body: bool = False) -> tuple[dict[str, Any], str]:
    """Split a leading front-matter block from the body: YAML between ``---`` lines (closed
    by ``---`` or ``...``), or TOML between ``+++`` lines (Hugo's default).

    A file without a closed block is all body. A closed block that is not valid YAML or TOML,
    not a mapping, or repeats a key makes the file Unreadable: the block may hold
    ``audience:``, so guessing (indexing it as body text, and the file as public) could
    publish a private file. An empty block is no front matter. With ``scalar_is_body`` (plain
    text, where ``---`` / ``FAQ`` / ``---`` is a reStructuredText title), a YAML block that is
    a plain string is body text: it cannot name an audience.

    A block after blank lines (Hugo reads it as front matter; a Markdown renderer shows a rule
    and a heading) and a JSON object opening the file (Hugo's JSON front matter) are front
    matter when they name an audience (:func:`names_audience`), as their author meant: read as
    text, they left a private file public. Any other such file reads as before, and one that
    cannot be parsed but names ``audience`` is Unreadable.
    """
    lines = text.split("\n")
    start = 0  # the first line that is not blank
    while start < len(lines) - 1 and not lines[start].strip():
        start += 1
    first = lines[start]
    opener = first.strip() if first.startswith(("---", "+++")) else ""
    end = _closing(lines, start) if opener in ("---", "+++") else None
    if end is None:
        if first.startswith("{"):
            return _json_front_matter(text, sum(len(line) + 1 for line in lines[:start]))
        return {}, text
    block = lines[start + 1 : end]
    if scalar_is_body and opener == "---" and _plain_string(block):
        return {}, text
    parse = _front_matter if opener == "---" else _toml_front_matter
    if start == 0:
        return parse(block, start + 2), "\n".join(lines[end + 1 :])
    try:
        meta = parse(block, start + 2)
    except Unreadable:
        if _AUDIENCE_KEY_LINE.search("\n".join(block)):
            raise
        return {}, text  # a rule, a paragraph and a rule (or a heading's underline)
    if not names_audience(meta):
        return {}, text
    return meta, "\n".join(lines[end + 1 :])


def _closing(lines: list[str], start: int) -> int | None:
    """The line that closes the front matter opened on ``lines[start]`` (None: never)."""
    closers = ("---", "...") if lines[start].strip() == "---" else ("+++",)
    return next(
        (end for end in range(start + 1, len(lines)) if lines[end].strip() in closers), None
    )


def _json_front_matter(text: str, offset: int) -> tuple[dict[str, Any], str]:
    """Hugo's JSON front matter, the object opening ``text`` at ``offset``, and the body after
    its line, when it names an audience; else no front matter and ``text`` the body."""
    try:
        data, end = _JSON.raw_decode(text, offset)
    except ValueError as exc:  # json.JSONDecodeError, or a key written twice
        opening = text[offset:]
        closing = re.search(r"^\}[ \t\r]*$", opening, re.M)
        opening = opening[: closing.end() if closing else _JSON_CHECKED_CHARS]
        if not _AUDIENCE_KEY_JSON.search(opening):
            return {}, text  # an MDX expression, or text in braces
        reason = str(exc)
        if isinstance(exc, json.JSONDecodeError):
            reason = f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
        raise Unreadable(f"front matter is not valid JSON: {reason}") from None
    rest_of_line, _, body = text[end:].partition("\n")
    if not isinstance(data, dict) or rest_of_line.strip() or not names_audience(data):
        return {}, text
    return data, body


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key written twice (``json`` keeps the last one, as PyYAML
    does: ``"audience": "public"`` after ``"audience": "staff"`` would publish the file)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"key {key!r} is written twice")
        found[key] = value
    return found


_JSON = json.JSONDecoder(object_pairs_hook=_unique_keys)


def _plain_string(lines: list[str]) -> bool:
    try:
        data = yaml.load("\n".join(lines), Loader=_FrontMatterLoader)  # noqa: S506 - safe loader
    except (yaml.YAMLError, ValueError):
        return False  # an invalid block may have meant to name an audience
    return isinstance(data, str)


def _toml_front_matter(lines: list[str], first_line: int = 2) -> dict[str, Any]:
    try:
        return tomllib.loads("\n".join(lines))  # TOML itself refuses a key written twice
    except tomllib.TOMLDecodeError as exc:
        # The block starts on the file's ``first_line``; tomllib counts lines from 1 within it.
        shift = first_line - 1
        reason = _TOML_AT.sub(lambda m: f"(line {int(m[1]) + shift}, column {m[2]})", str(exc))
        raise Unreadable(f"front matter is not valid TOML: {reason}") from None


def _front_matter(lines: list[str], first_line: int = 2) -> dict[str, Any]:
    try:
        data = yaml.load("\n".join(lines), Loader=_FrontMatterLoader)  # noqa: S506 - safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).split("\n", 1)[0]
        # The block starts on the file's ``first_line``; marks count from 0 within it.
        where = f" (line {mark.line + first_line}, column {mark.column + 1})" if mark else ""
        raise Unreadable(f"front matter is not valid YAML: {problem}{where}") from None
    except ValueError as exc:  # a well-formed but impossible value, e.g. date 2001-02-30
        raise Unreadable(f"front matter is not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise Unreadable(
            f"front matter is not a mapping of keys (it is a YAML {type(data).__name__}); "
            "write `key: value` lines between the `---` lines"
        )
    return data


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
    lines = body.split("\n")
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
            across = comment_across_lines(
                uncommented, lines[max(skip_to, index + 1) :], _ends_paragraph, jsx=mdx
            )
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
