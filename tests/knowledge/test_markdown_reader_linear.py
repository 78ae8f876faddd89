"""Reading a Markdown file costs work in proportion to its size, and reads what it read before.

A scale QA pass found reading quadratic in a file's line count (16 MB took 16 s, a 3.5 MB
table 27 s, a file at ``max_file_bytes`` would take hours, and Ctrl-C waited for it): for every
line, the search for a comment closing further down was handed a copy of the rest of the
file. A paragraph of lines that each leave a comment open was searched to its end from every
line, and a file of lines opening ``[`` without a ``]`` was scanned to its end for a label
from every line. Speed is not timed here (the machine is shared): the work is counted through
real counters, and every read is compared with the reads the reader gave before the change
(``golden_markdown_reads.json``, written by it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import SupportsIndex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge import markdown_reader
from bot.knowledge.markdown_markup import MAX_TAG_LINES, link_labels
from bot.knowledge.markdown_reader import read_markdown
from bot.knowledge.markdown_script_style import CommentsAcrossLines
from tests.knowledge.conftest import EXAMPLES
from tests.knowledge.markdown_read_cases import pages, read_digest

GOLDEN = Path(__file__).with_name("golden_markdown_reads.json")


class CountedLines(list[str]):
    """The reader's list of lines, counting the lines its slices copy."""

    copied = 0

    def __getitem__(self, key: SupportsIndex | slice) -> str | list[str]:  # type: ignore[override]
        got = super().__getitem__(key)
        if isinstance(got, list):
            CountedLines.copied += len(got)
        return got


class CountedText(str):
    """A page whose split into lines is a :class:`CountedLines`: the reader splits its body
    (the page itself, when it has no front matter) once, and walks that list."""

    def split(self, sep: str | None = None, maxsplit: SupportsIndex = -1) -> list[str]:
        return CountedLines(super().split(sep, maxsplit))


def _manual(sections: int) -> str:
    body = "Pumps need a gasket. The seal is checked every week.\n\nA second paragraph.\n"
    return "# Manual\n" + "".join(f"\n## Chapter {i}\n\n{body}" for i in range(sections))


def test_no_line_copies_the_lines_after_it() -> None:
    page = _manual(2_000) + "\n| sku | price |\n|---|---|\n" + "| P-1 | 0.50 |\n" * 4_000
    lines = page.count("\n") + 1
    CountedLines.copied = 0
    document = read_markdown(CountedText(page), "manual.md")
    # a tag over several lines is looked for in the next few lines only; the rest of the
    # file, copied for every line, was 9,000 lines per line on average here
    assert CountedLines.copied <= MAX_TAG_LINES * lines
    assert CountedLines.copied > 0  # the counter sees the reader's slices
    assert len(document.blocks) == 4_001
    assert document.blocks[-1].text.count("\n") == 4_001


def test_a_paragraph_of_comments_never_closed_is_searched_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    ends_paragraph = markdown_reader._ends_paragraph

    def counted(line: str) -> bool:
        nonlocal calls
        calls += 1
        return ends_paragraph(line)

    monkeypatch.setattr(markdown_reader, "_ends_paragraph", counted)
    lines = [f"step {n} <!-- draft" for n in range(3_000)]
    blocks = read_markdown("\n".join(["# Notes", *lines, "", "After."]), "notes.md").blocks
    # no "-->" closes them: every "<!--" is text, as CommonMark shows it
    assert [b.text for b in blocks] == ["\n".join(lines), "After."]
    assert calls <= 2 * len(lines)  # was one per line for every line: 4.5 million


def test_the_comment_search_reads_each_line_about_once() -> None:
    lines = ["a <!--"] * 500 + ["", "b <!--", "hidden", "--> shown", "c <!--"] + ["d"] * 500
    comments = CommentsAcrossLines(lines, lambda line: line.startswith("#"), jsx=False)
    found = {start: comments.joined(lines[start - 1], start) for start in range(1, len(lines))}
    assert found[502] == ("b shown", 2)
    assert [start for start, joined in found.items() if joined is not None] == [502]
    assert comments.lines_visited <= len(lines) + len(found)


def test_a_file_of_unclosed_label_openings_has_no_label() -> None:
    assert link_labels("[x\n" * 200_000) == frozenset()
    # one label over every line, as the pattern read it
    defined = link_labels("[x\n" * 200_000 + "]: https://example.com/\n")
    assert defined == {"x" + " [x" * 199_999}


# The pattern that found the labels before: tried at every line start, it read on to the next
# "]" each time.
_LABEL_DEF = re.compile(r"^ {0,3}\[(?!\^)([^\]]+)\]:", re.MULTILINE)


@given(st.text(alphabet="[]^: \nab", max_size=60))
def test_the_labels_are_those_the_pattern_found(text: str) -> None:
    expected = frozenset(" ".join(found.split()).casefold() for found in _LABEL_DEF.findall(text))
    assert link_labels(text) == expected


def test_every_read_is_the_read_before_the_change() -> None:
    golden: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    read: dict[str, str] = {}
    for number, page in enumerate(pages()):
        for mdx in (False, True):
            document = read_markdown(page, "page.md", mdx=mdx)
            read[f"{number}{' mdx' if mdx else ''}"] = read_digest(document)
    for path in sorted(EXAMPLES.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        read[path.name] = read_digest(read_markdown(text, path.name))
    assert read == golden
