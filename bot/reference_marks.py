"""A document's own reference marks ("[1]", "[1, 3]", "[2-4]"), left out of quoted text.

Papers, standards and pages copied from wikis write their references as bracketed numbers.
Quoted beside citecast's markers, "replaced yearly [1] [2]." reads as a claim cited to
source 1, which never says it. So both answerers see a document without them: the built-in
one quotes its sentences without them (:mod:`bot.assistant.extractive_sentences`), as the
readers leave out Markdown ``[^1]`` marks and linked HTML footnotes, and a model is given
passages without them (:meth:`bot.registry.SourceRegistry.format_passages`, through
:func:`passage_without_reference_marks`), since it copies what it reads.

The rule: a run of marks (``[n]``, numbers of 1 to 3 digits, joined by ``,`` or a dash, several
marks in a row counting as one run) is a reference where nothing else reads it that way:

- glued to a sentence's punctuation (``March.[2]``, ``plants,[3]``, ``”[4]``) and followed by a
  space, punctuation or the end of the text: values are not written so;
- or after a space, ending its clause (followed by punctuation, a line end or the end of the
  text: ``yearly [1].``), after a word that does not take a value. After "to", "is", "are",
  "press", "version", "level" and the like (:data:`_TAKES_A_VALUE`) it is the value itself
  ("set the retry count to [3].", "Valid levels are [1-5]."), and one followed by a word is part
  of its sentence ("press [1] to continue", "status [404] on failure"): both stay, since
  dropping them would misquote the document.

It is kept (and stays text: :func:`bot.assistant.cited_lines.escape_markers`) too when it is:

- indexing: glued to a word, a digit, a closing bracket or quote (``arr[1]``, ``x2[3]``,
  ``f(x)[0]``, ``d["k"][1]``), or inside code spans, which are never touched;
- part of an expression: after an opening bracket or an operator (``x = [1]``, ``f([1])``,
  ``[[1], [2]]``), or followed by a letter, digit or bracket (``[1]abc``, ``[1](url)``);
- a label: the first thing on its line, before text (a bibliography's ``[1] Smith, J. …``),
  or with nothing before it on its line;
- a year (``[2023]``: four digits is no reference number).

After "see", "cf." or "ref.", or "shown in" and the like, a run names the reference
(``as described, see [3].``, ``as shown in [3], …``) wherever it stands, and dropping it would
break the sentence ("see."): it is written ``reference 3`` (``references 1,
3``), which no channel reads as a citation; after "reference" or "ref." its numbers alone are
(``see ref. [3]`` is ``see ref. 3``).

In a whole passage, lines of code (fenced or indented, as :func:`bot.marker_code_lines.code_lines`
reads them) are kept as written, like code spans.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection

from bot.code_span_bounds import code_span_bounds
from bot.marker_code_lines import code_lines

_NUMBERS = r"\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*"
# a run starts only where its spaces do (not after a space): tried from every space of a long
# run of them, the pattern would read the rest of the run each time (quadratic)
_RUN = re.compile(rf"(?<![ \t])[ \t]*\[{_NUMBERS}\](?:[ \t]*(?:[,\u2013-][ \t]*)?\[{_NUMBERS}\])*")
# glued (no space before): only after a sentence's punctuation or a typographic closing quote
_GLUED_AFTER = frozenset(".,;!?\u201d\u2019\u00bb")
# after a space: prose, not an operator or an opening bracket ("x = [1]", "[[1], [2]]")
_NOT_AFTER_SPACE = frozenset("=+-*/<>|&([{\\")
# what may follow a reference glued to punctuation, and (without the white space) one after a
# space, which must end its clause
_FOLLOWED_BY = re.compile(r"$|[\s.,;:!?)\"'\u201d\u2019\u00bb*_]")
_ENDS_CLAUSE = re.compile(r"$|[\n.,;:!?)\"'\u201d\u2019\u00bb*_]")
# English words after which a bracketed number is a value the sentence gives, not a reference
_TAKES_A_VALUE = frozenset(
    """
    to is are was were be been being equals equal of by from with and or in at on than per as
    into between also following e.g. i.e. press type enter select choose set option options key
    keys button version versions level levels step steps status code value values number item
    items range index mode return returns gives yields default defaults
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# words after which a run names the reference ("see [3]", "as shown in [3]"): written as words
_NAMING = frozenset(["see", "cf", "cf."])
# a bracketed number not preceded by a backslash (one already escaped stays as it is)
_NUMBERED = re.compile(rf"(?<!\\)\[({_NUMBERS})\]")
_NAMED_IN = re.compile(
    r"\b(?:shown|described|given|defined|discussed|reported|stated|found|noted|explained"
    r"|listed|cited|proposed|introduced)[ \t]+in[ \t]*$",
    re.IGNORECASE,
)
_REFERENCE_WORDS = frozenset(["ref", "ref.", "refs", "refs.", "reference", "references"])
_LAST_WORD = re.compile(r"([\w.]+)\s*$")
# where each line's text begins, after its indentation
_LINE_OPENING = re.compile(r"^[ \t]*", re.MULTILINE)
_WORD_WINDOW = 64  # longer than any naming word with its spaces


def without_reference_marks(text: str, line_starts: Collection[int] = (0,)) -> str:
    """``text`` with its reference marks left out (see the module's rule), spaces before them
    too; ``line_starts`` are the offsets where the lines joined into ``text`` began, where a
    mark before text is a label and stays. Code spans are kept as written."""
    if "[" not in text:
        return text
    line_starts = frozenset(line_starts)  # looked up for every mark
    code = code_span_bounds(text)
    code_starts = [a for a, _ in code]
    out: list[str] = []
    last = 0
    for match in _RUN.finditer(text):
        start, end = match.span()
        mark = start + len(match[0]) - len(match[0].lstrip(" \t"))
        if _in_code(code, code_starts, mark):
            continue
        # the word before, from a short window: searched from the text's start, each mark
        # would read everything before it again
        window = max(0, start - _WORD_WINDOW)
        before = _LAST_WORD.search(text, window, start)
        word = before[1].lower() if before is not None and start < mark else ""
        naming = start < mark and (
            word in _NAMING
            or word in _REFERENCE_WORDS
            or _NAMED_IN.search(text, window, start) is not None
        )
        if naming:
            if not _FOLLOWED_BY.match(text, end):
                continue
        elif not _is_reference(text, start, mark, end) or (start < mark and _value_after(word)):
            continue  # ("set the retry count to [3].": the value, as the document writes it)
        if mark in line_starts and re.match(r"[ \t]+\w", text[end:]):
            continue  # a label opening its line, before text: "[1] Smith, J. …"
        out.append(text[last:start])
        if naming:
            # "see [3]" reads "see reference 3", and "reference [3]" "reference 3"
            numbers = _numbers(match[0])
            named = numbers if word in _REFERENCE_WORDS else _named(numbers)
            out.append(" " + named)
        last = end
    out.append(text[last:])
    return "".join(out)


def passage_without_reference_marks(passage: str) -> str:
    """A passage as a model is shown it: :func:`without_reference_marks` over its prose, each
    line's first mark before text a label; lines of code are kept as written."""
    if "[" not in passage:
        return passage
    lines = passage.split("\n")
    # code_lines has no entry for the empty line after a final newline
    code = code_lines(passage)
    code += [False] * (len(lines) - len(code))
    out: list[str] = []
    prose: list[str] = []
    for line, is_code in zip(lines, code, strict=True):
        if is_code:
            out.extend(_prose_without_marks(prose))
            prose = []
            out.append(line)
        else:
            prose.append(line)
    out.extend(_prose_without_marks(prose))
    return "\n".join(out)


def _prose_without_marks(lines: list[str]) -> list[str]:
    """``lines`` of prose (one run between code lines) without their reference marks, and
    the bracketed numbers they keep (values, indexing, labels) escaped outside code spans."""
    if not lines:
        return []
    text = "\n".join(lines)
    starts = [m.end() for m in _LINE_OPENING.finditer(text)]
    return _escaped_numbers(without_reference_marks(text, starts)).split("\n")


def _escaped_numbers(text: str) -> str:
    # A value kept as written ("wear level [1].") is still "[1]" to a model that copies it, and
    # the resolver would read the copy as a citation of result 1: written "\[1\]", as the
    # built-in answerer writes document text, a copy stays text (the resolver skips escaped
    # brackets) and shows as "[1]".
    if "[" not in text:
        return text
    code = code_span_bounds(text)
    code_starts = [a for a, _ in code]

    def escaped(match: re.Match[str]) -> str:
        if _in_code(code, code_starts, match.start()):
            return match[0]
        return f"\\[{match[1]}\\]"

    return _NUMBERED.sub(escaped, text)


def _value_after(word: str) -> bool:
    """Whether a bracketed number after ``word`` (the word before its spaces; empty after
    punctuation such as ": " or ", " or "(") is a value the sentence gives."""
    return not word or word in _TAKES_A_VALUE


def _in_code(code: list[tuple[int, int]], starts: list[int], at: int) -> bool:
    # the spans are in order and apart: only the last one starting at or before ``at`` can hold it
    i = bisect_right(starts, at) - 1
    return i >= 0 and at < code[i][1]


def _is_reference(text: str, start: int, mark: int, end: int) -> bool:
    """Whether the run at ``mark`` (its spaces from ``start``) reads as a reference mark where
    it stands: after prose, before a space, punctuation or the end."""
    if not _FOLLOWED_BY.match(text, end):
        return False
    if start == mark:  # glued to what comes before
        return mark > 0 and text[mark - 1] in _GLUED_AFTER
    if start == 0 or text[start - 1] == "\n":
        return False  # nothing before it on its line: a label or a stray number, no reference
    # after a space it must end its clause: "press [1] to continue" names the key to press
    return text[start - 1] not in _NOT_AFTER_SPACE and _ENDS_CLAUSE.match(text, end) is not None


def _numbers(run: str) -> str:
    """The numbers of a run of marks as written in prose: "1, 3" of "[1][3]", "3–5" of
    "[3]–[5]"."""
    numbers = re.sub(r"\]\s*\[", ", ", " ".join(run.split()))
    return numbers.replace("[", "").replace("]", "")


def _named(numbers: str) -> str:
    """``reference 3``, ``references 1, 3`` or ``references 1-3`` (from :func:`_numbers`)."""
    return ("reference " if numbers.isdigit() else "references ") + numbers
