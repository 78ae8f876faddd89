"""Links in the markdown Slack's native stream shows: the model's made safe, the markers linked.

``chat.appendStream`` takes standard markdown, where ``[label](url)`` is a link. The rendered
messages decide where a link the model wrote may lead by one rule (``renderers.link_urls``): only
http, https and mailto; a label that reads as a citation marker (``[1]``, ``[2-4]``) only to
one of the answer's cited sources; a label that reads as an address the link does not open is
shown as text followed by the address it really opens. The streamed text must follow it too, or
a link to ``javascript:alert(1)``, or a second "[1]" opening a page no source is, reaches the
asker through the stream alone. :func:`safe_links` asks the renderers' own functions
(``link_url``, ``label_hides_target``) of each inline link, shows one they refuse as its label
and one whose label hides its target as that label then ``[url](url)``, and moves citations out
of a link's label (a link inside a link is no link, and the renderers put them after it too).
Since the pairing of brackets is CommonMark's to decide, the last word is
:func:`no_unsafe_links`, which reads only what follows each ``]``: a ``](`` not followed by a safe
destination gets a zero-width space after its ``]``, so it ends nothing, and so does every
``]:``. A link reference definition can be used by a ``[label]`` anywhere, earlier text already
shown included, so the stream cannot judge each use by its label as the renderers do once the
whole answer is parsed: no definition defines anything in the stream (it shows as its text).
:func:`open_link_start` says where a streamed piece may still become a link when more text
comes, so that it is held back until it is whole.

:func:`marker_links` gives the URL each citation marker links to, exactly as the Slack renderer
links its ``[n]`` (a source's public or deep link, or a signed download link), so that a marker
streamed as ``[[1]](url)`` reads as the final message's linked ``[1]``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.markdown import CITATION_MARK, Token, parse
from bot.models import Answer
from renderers.base import CitationForm, RenderContext
from renderers.document import decide_forms
from renderers.escaping import md_url, safe_url
from renderers.limits import SLACK_MAX_LINK
from renderers.link_urls import label_hides_target, link_url

# The scanner's verdicts besides a position: the construct can never be a link (a blank line
# came first), or whether it is one depends on text that has not arrived yet.
_NEVER = -1
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# a "]" that may end a link or a link reference definition
_CLOSER = re.compile(r"\](?=[(:])")
ZWSP = "\u200b"
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_CITED_LABEL_PART = re.compile(r"[ \t]*\[\^\d+\]")


def _escaped(text: str, i: int) -> bool:
    """True when the character at ``i`` follows an odd run of backslashes."""
    run = 0
    while i - run > 0 and text[i - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _close_bracket(text: str, start: int) -> int | None:
    """The ``]`` matching the ``[`` at ``start``; :data:`_NEVER` when a blank line comes first,
    None when the text ends first."""
    depth = 0
    i = start
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i
        elif char == "\n" and _BLANK_LINE.match(text, i):
            return _NEVER
        i += 1
    return None


def _skip_space(text: str, i: int) -> int:
    """``i`` after spaces and tabs and at most one line end."""
    while i < len(text) and text[i] in " \t":
        i += 1
    if i < len(text) and text[i] == "\n":
        i += 1
        while i < len(text) and text[i] in " \t":
            i += 1
    return i


def _destination_end(text: str, i: int) -> int | None:
    """Where the destination starting at ``i`` ends; :data:`_NEVER` if there is none, None
    when the text ends first."""
    if text[i] == "<":
        for j in range(i + 1, len(text)):
            if text[j] == ">" and not _escaped(text, j):
                return j + 1
            if text[j] in "<\n":
                return _NEVER
        return None
    depth = 0
    j = i
    while j < len(text):
        char = text[j]
        if char == "\\" and text[j + 1 : j + 2] in _ASCII_PUNCTUATION:
            j += 2  # an escape (CommonMark escapes only ASCII punctuation)
            continue
        if char == " " or ord(char) < 0x20 or char == "\x7f":
            return j
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return j
            depth -= 1
        j += 1
    return None


def _title_end(text: str, i: int) -> int | None:
    """Where the link title opening at ``i`` ends; :data:`_NEVER` or None as above."""
    closer = ")" if text[i] == "(" else text[i]
    for j in range(i + 1, len(text)):
        if text[j] == closer and not _escaped(text, j):
            return j + 1
        if text[j] == "\n" and _BLANK_LINE.match(text, j):
            return _NEVER
    return None


def _inline_link(text: str, paren: int) -> tuple[int, str] | int | None:
    """The end of the inline link whose ``(`` is at ``paren`` and its destination;
    :data:`_NEVER` when it is no link, None when the text ends before that is known."""
    i = _skip_space(text, paren + 1)
    if i >= len(text):
        return None
    end = _destination_end(text, i) if text[i] != ")" else i
    if end is None or end == _NEVER:
        return end
    destination = text[i + 1 : end - 1] if text[i] == "<" else text[i:end]
    j = _skip_space(text, end)
    if j < len(text) and text[j] in "\"'(":
        title = _title_end(text, j)
        if title is None or title == _NEVER:
            return title
        j = _skip_space(text, title)
    if j >= len(text):
        return None
    return (j + 1, destination) if text[j] == ")" else _NEVER


def open_link_start(text: str) -> int | None:
    """Where the trailing part of ``text`` that more text may still make a link begins (an
    unclosed ``[``, a ``]`` or citation whose next character has not come, a link whose
    destination is not whole); None when there is none."""
    held = [i for i in (_open_bracket(text), _open_closer(text)) if i is not None]
    return min(held) if held else None


def _open_bracket(text: str) -> int | None:
    """The first ``[`` that may still open a link (for :func:`safe_links`)."""
    i = text.find("[")
    while i != -1:
        if not _escaped(text, i):
            close = _close_bracket(text, i)
            if close is None or close == len(text) - 1:
                return i
            if close != _NEVER and text[close + 1] == "(" and _inline_link(text, close + 1) is None:
                return i
        i = text.find("[", i + 1)
    return None


def _open_closer(text: str) -> int | None:
    """The first ``]`` whose next character, or inline link destination, has not come yet
    (for :func:`no_unsafe_links`)."""
    i = text.find("]")
    while i != -1:
        if i == len(text) - 1:
            return i
        after = text[i + 1]
        if after == "(" and _inline_link(text, i + 1) is None:
            return i
        i = text.find("]", i + 1)
    return None


def no_unsafe_links(text: str) -> str:
    """``text`` where no ``](`` ends a link unless a safe destination (``safe_url``) follows
    it, and no ``]:`` ends a link reference definition: the others get a zero-width space after
    their ``]``. Whatever brackets CommonMark pairs, a link's destination is what follows its
    ``]`` (a definition's uses are not known when it is shown: see the module docstring)."""
    out: list[str] = []
    last = 0
    for m in _CLOSER.finditer(text):
        i = m.start()
        if _escaped(text, i):
            continue
        if text[i + 1] == "(":
            found = _inline_link(text, i + 1)
            if isinstance(found, tuple) and safe_url(found[1]) is not None:
                continue
        out += (text[last : i + 1], ZWSP)
        last = i + 1
    out.append(text[last:])
    return "".join(out)


def safe_links(text: str, forms: Mapping[int, CitationForm] | None = None) -> str:
    """``text`` with every inline link the model wrote shown as the renderers show it (given
    ``forms``, the citation forms known so far), and the citations in a link's label after it:
    one they would not draw as its label, one whose label hides its target as that label then
    its address (see the module docstring)."""
    out: list[str] = []
    last = 0
    i = text.find("[")
    while i != -1:
        skip = _escaped(text, i) or CITATION_MARK.match(text, i)
        close = None if skip else _close_bracket(text, i)
        found = None
        if close is not None and close != _NEVER and text[close + 1 : close + 2] == "(":
            found = _inline_link(text, close + 1)
        if not isinstance(found, tuple) or close is None:
            i = text.find("[", i + 1)
            continue
        end, destination = found
        image = i > 0 and text[i - 1] == "!" and not _escaped(text, i - 1)
        start = i - 1 if image else i
        out.append(text[last:start])
        label, rest = text[i + 1 : close], text[close + 1 : end]
        out.append(_safe_link(label, rest, destination, image, forms))
        last = end
        i = text.find("[", end)
    out.append(text[last:])
    return "".join(out)


def _safe_link(
    label: str,
    rest: str,
    destination: str,
    image: bool,
    forms: Mapping[int, CitationForm] | None,
) -> str:
    """One link: kept (its label made safe, citations after it), shown as its label, or as its
    label then its own address (``[url](url)``, as the renderers show ``text (<url>)``)."""
    marks = "".join(m.group(0) for m in CITATION_MARK.finditer(label))
    shown = safe_links(_CITED_LABEL_PART.sub("", label), forms)
    token = _link_token(label, destination, image)
    url = link_url(token, forms)
    if url is None:
        return shown + marks
    if label_hides_target(token, url):
        return f"{shown} ({_own_link(url)}){marks}"
    if not shown.strip():
        return f"[{md_url(destination)}]{rest}{marks}"
    return ("!" if image else "") + f"[{shown}]{rest}{marks}"


def _link_token(label: str, destination: str, image: bool) -> Token:
    """The link as the renderers' parse would give it to ``renderers.link_urls``: its label's
    tokens (whose text says whether it reads as a marker or an address) and its URL."""
    kind = "image" if image else "link"
    return {"type": kind, "children": parse(label), "attrs": {"url": destination}}


def _own_link(url: str) -> str:
    """A link to ``url`` labelled with ``url`` itself: the address a reader sees is the one it
    opens (brackets encoded, so the label cannot end early)."""
    shown = md_url(url).replace("[", "%5B").replace("]", "%5D")
    return f"[{shown}]({shown})"


def marker_forms(answer: Answer, context: RenderContext) -> dict[int, CitationForm]:
    """The form of each citation of ``answer`` in its Slack render, decided as the renderer
    decides it (``renderers.document.decide_forms``)."""
    return decide_forms(answer.citations, context.caps("slack"), context)


def marker_links(answer: Answer, context: RenderContext) -> dict[int, str]:
    """The URL each citation's ``[n]`` links to in the Slack render of ``answer`` (those with
    none are absent)."""
    return links_of(marker_forms(answer, context))


def links_of(forms: Mapping[int, CitationForm]) -> dict[int, str]:
    """The URL each citation's ``[n]`` links to, given the citations' ``forms``."""
    return {
        n: form.url
        for n, form in forms.items()
        if form.url and form.kind in ("link", "download") and len(form.url) <= SLACK_MAX_LINK
    }


def linked_marker(n: int, links: Mapping[int, str]) -> str:
    """The streamed marker of citation ``n``: ``[[n]](url)`` when it links somewhere."""
    url = links.get(n)
    return f"[[{n}]]({md_url(url)})" if url else f"[{n}]"
