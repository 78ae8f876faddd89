"""The numbers Discourse shows for a post's footnotes, and the answer's number beside them.

Discourse's footnote plugin (markdown-it-footnote) numbers a post's footnotes 1, 2, … by order
of first reference in that post, whatever their labels: in a continued post ``[^13]`` shows as
[1], and a post whose first reference is ``[^2]`` shows it as [1]. The answer's other posts,
their "More sources" lists and the other channels use the answer's numbers, so a definition
whose shown number differs from its answer's number begins with that number:
``[^13]: \\[13\\] [Title](url), p. 4``. Where the numbers already agree (a one-post answer
cited in order) the definition is unchanged.

The number is escaped like the renderer's other plain numbers: ``\\[13\\]`` is no footnote, no
link and, read back from the topic, no citation marker (DESIGN §5); it is followed by a space,
never a ":", so it cannot read as a definition line either.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable

from bot.markdown import CITATION_MARK, Token, parse

# a line on which a plain scan could take code for a reference: a code span or fence ("`",
# "~") or an indented code block (four spaces or a tab, also after a list marker or a quote)
_MAY_HOLD_CODE = re.compile(r"[`~\t]| {4}")
# a line that opens or closes a fenced code block, after what may stand before it on its line
# (indent, list markers, quote arrows)
_FENCE = re.compile(r"`{3,}|~{3,}")
_LINE_PREFIX = " \t>-*+.)0123456789"
# a definition line as the renderer writes it (the answer's number, if any, is in the text)
_DEFINITION = re.compile(r"\[\^(\d+)\]: (.*)")


def prefix(n: int, shown: int | None) -> str:
    """What footnote ``n``'s definition begins with when the post shows it as ``shown``: the
    answer's number, escaped, where the two differ; nothing where they agree or the post does
    not show it (its reference is only inside code)."""
    return "" if shown is None or shown == n else f"\\[{n}\\] "


def shown_numbers(body: str, defined: Container[int]) -> dict[int, int]:
    """Each footnote that ``body`` references and the post defines -> the number Discourse
    shows for it (1, 2, … by first reference). A ``[^n]`` inside code is no reference; one
    without a definition is text."""
    shown: dict[int, int] = {}
    for n in references(body):
        if n in defined and n not in shown:
            shown[n] = len(shown) + 1
    return shown


def numbered_post(raw: str) -> str:
    """``raw``, a post as the renderer writes it (the body, a blank line, one definition a
    line), with each definition starting with the answer's number exactly where the post shows
    another: for a post whose references were changed after rendering (footnotes moved to the
    post after it become plain ``\\[n\\]``, and the ones kept are numbered anew)."""
    body, sep, tail = raw.rpartition("\n\n")
    matches = [_DEFINITION.fullmatch(line) for line in tail.split("\n")]
    if not sep or not all(matches):
        return raw
    found = [
        (int(m.group(1)), without_number(int(m.group(1)), m.group(2)))
        for m in matches
        if m is not None
    ]
    shown = shown_numbers(body, {n for n, _ in found})
    lines = [f"[^{n}]: {prefix(n, shown.get(n))}{text}" for n, text in found]
    return body + sep + "\n".join(lines)


def without_number(n: int, text: str) -> str:
    """Footnote ``n``'s definition text (after ``[^n]: ``) without the answer's number it may
    begin with, for a list that writes the number itself (``- \\[n\\] …``)."""
    return text.removeprefix(f"\\[{n}\\] ")


def references(body: str) -> Iterable[int]:
    """The footnote numbers ``body`` references, in order, repeats included: a ``[^n]`` inside
    code is none (a parse decides where a scan could be wrong)."""
    if _plainly_outside_code(body):
        return (int(n) for n in CITATION_MARK.findall(body))
    found: list[int] = []
    _walk(parse(body), found)
    return found


def _plainly_outside_code(body: str) -> bool:
    """No ``[^n]`` of ``body`` can be inside code: none is on a line holding a code span mark,
    an indent of code or a fence, nor between fence lines (three backticks or tildes, also
    after a list marker or quote arrows; a longer fence, which could hold a shorter one, is
    left to the parse). Most posts with code pass, so their numbers cost a scan, not a parse."""
    if "[^" not in body:
        return True
    open_fence: str | None = None  # the mark of the fenced block the line is in
    for line in body.split("\n"):
        fence = _FENCE.match(line.lstrip(_LINE_PREFIX))
        if fence is not None:
            if fence.group() not in ("```", "~~~") or "[^" in line:
                return False
            if open_fence is None:
                open_fence = fence.group()
            elif fence.group() == open_fence:
                open_fence = None  # a fence of the other mark is the block's text
        elif "[^" in line and (open_fence is not None or _MAY_HOLD_CODE.search(line)):
            return False
    return True


def _walk(tokens: list[Token], found: list[int]) -> None:
    for token in tokens:
        if token.get("type") == "citation":
            found.append(int(token["attrs"]["n"]))
        elif token.get("children"):
            _walk(token["children"], found)
