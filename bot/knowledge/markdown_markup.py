"""Markdown markup a rendered page does not show as text, for the Markdown reader.

Raw HTML and JSX tags (``<div class="x">``, ``<Callout type="warning">``), footnote marks
(``[^1]``), link targets and reference definitions (``[cfg]: https://…``) and the marker lines of
admonitions (MkDocs ``!!! note "Title"``, Docusaurus ``:::tip`` … ``:::``) are drawn or
hidden by a renderer, never read. Left in a chunk they reach quotes as noise (``\\<p>Restart
the \\<b>service\\</b>``, ``note "Heads up" The daemon…``). Code spans keep their text.
"""

from __future__ import annotations

import re

from bot.knowledge.document import code_spans

# An open or closing tag as CommonMark defines raw HTML: a name, attributes, an optional "/".
# An autolink (<https://x>, <a@b.c>) is no tag: a name is followed by space, "/" or ">".
_TAG = re.compile(
    r"</?[A-Za-z][A-Za-z0-9.:-]*"
    r"""(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*"""
    r"\s*/?>"
)
_BREAK_TAG = re.compile(r"^<br\b", re.IGNORECASE)
# A link or image as its text: ``[notes](https://…)``, ``![diagram](a.png)``. Left as written, a
# quote shows "\\[notes\\](https://…)": quotes escape brackets so a document cannot make links.
# The target stops at a bracket or parenthesis, so that a line of "[a](" is read in linear time.
_INLINE_LINK = re.compile(r"!?\[([^\]\[]*)\]\([^()\[\]\s]*(?:\s+(?:\"[^\"]*\"|'[^']*'))?\)")
# ``[notes][ref]`` and ``[notes][]``: a link only when ``ref`` is defined in the file
_REFERENCE_LINK = re.compile(r"!?\[([^\]\[]+)\]\[([^\]\[]*)\]")
_LABEL_DEF = re.compile(r"^ {0,3}\[(?!\^)([^\]]+)\]:", re.MULTILINE)
_FOOTNOTE_REF = re.compile(r"\[\^[^\]\[\s]+\]")
_FOOTNOTE_DEF = re.compile(r"^ {0,3}\[\^[^\]\s]+\]:[ \t]*")
_LINK_DEF = re.compile(
    r"""^ {0,3}\[(?!\^)[^\]]+\]:[ \t]*<?\S+>?(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$"""
)
# MkDocs / Python-Markdown admonitions and collapsible details: ``!!! kind "Title"``.
_ADMONITION = re.compile(
    r"""^ {0,3}(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+"(.*)")?[ \t]*$"""
)
# Docusaurus / VitePress containers: ``:::tip``, ``:::tip[Title]``, ``::: warning Title``, ``:::``.
_CONTAINER = re.compile(r"^ {0,3}:{3,}[ \t]*(?:[\w-]+)?(?:\[(.*)\]|[ \t]+(.*?))?[ \t]*$")


def admonition_title(line: str) -> str | None:
    """For an admonition's marker line (``!!! note "Title"``), its title (maybe empty); its
    body is the indented lines after it. ``None`` for any other line."""
    found = _ADMONITION.match(line)
    return (found.group(1) or "").strip() if found else None


def container_title(line: str) -> str | None:
    """For a container's marker line (``:::tip[Title]``, or a closing ``:::``), its title
    (maybe empty); ``None`` for any other line."""
    found = _CONTAINER.match(line)
    return next((group.strip() for group in found.groups() if group), "") if found else None


def is_link_definition(line: str) -> bool:
    """``[label]: https://…``: where a reference link points, not shown on the page."""
    return _LINK_DEF.match(line) is not None


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def link_labels(text: str) -> frozenset[str]:
    """The labels that ``text``'s link reference definitions (``[ref]: https://…``) define."""
    return frozenset(_label(found) for found in _LABEL_DEF.findall(text))


def shown_text(line: str, labels: frozenset[str] = frozenset()) -> str:
    """``line`` as a rendered page shows it: without tags, footnote marks or the label of a
    footnote definition, a link as its text (a reference link when ``labels``, from
    :func:`link_labels`, defines its label); a ``<br>`` is a space. Code spans are kept as
    written."""
    line = _FOOTNOTE_DEF.sub("", line, count=1)
    if "<" not in line and "[" not in line:
        return line

    def reference(link: re.Match[str]) -> str:
        defined = _label(link[2] or link[1]) in labels
        return link[1] if defined else link[0]

    out: list[str] = []
    for is_code, piece in code_spans(line):
        if not is_code:
            piece = _TAG.sub(lambda tag: " " if _BREAK_TAG.match(tag[0]) else "", piece)
            piece = _FOOTNOTE_REF.sub("", piece)
            piece = _REFERENCE_LINK.sub(reference, _INLINE_LINK.sub(r"\1", piece))
        out.append(piece)
    return "".join(out)
