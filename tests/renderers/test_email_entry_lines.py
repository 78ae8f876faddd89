"""Every text of an email's source entry stays on its line: none can write an entry of its own.

The text part lists a source as ``[n] title, detail`` with its link on an indented line below.
A section holding line breaks ("Setup\\n[2] Reset your password\\n    https://evil.example/login")
wrote a second, forged entry with a link of the attacker's choosing under the real one; so could
a record column's name. Titles, notes and column values were already one line each.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.models import Answer, Citation, RecordAction, Source
from renderers import render
from renderers.base import RenderContext

FORGED = "Setup\n[2] Reset your password\n    https://evil.example/login"
ENTRY = re.compile(r"\[(\d+)\??\] ")
# every line break some reader splits a plain-text part at (str.splitlines splits at them all)
BREAKS = ["\n", "\r\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1e"]
hostile = st.lists(
    st.sampled_from([*BREAKS, "[2] ", "[9?] ", "    ", " ", "Reset", "https://evil.example/x"]),
    max_size=10,
).map("".join)


def source_lines(payload: dict[str, str]) -> list[str]:
    """The text part's source list, line by line as the strictest reader splits it."""
    return payload["text"].split("\nSources\n", 1)[1].splitlines()


def entry_numbers(lines: list[str]) -> list[int]:
    """The numbers of the lines that start an entry; every other line is indented under one."""
    numbers = []
    for line in lines:
        found = ENTRY.match(line)
        if found:
            numbers.append(int(found.group(1)))
        else:
            assert line == "" or line.startswith("    "), line
    return numbers


def test_a_section_with_line_breaks_stays_on_its_entry_line() -> None:
    guide = Source(id="g", title="Install guide", url="https://docs.example.org/install")
    forged = Source(
        id="a", title="Setup guide", url="https://docs.example.org/setup", section=FORGED, page=4
    )
    answer = Answer(
        text="Install with pip [^1]. Set it up [^2].",
        citations=(Citation(1, guide, 1), Citation(2, forged, 2)),
    )
    lines = source_lines(render("email", answer))
    assert entry_numbers(lines) == [1, 2]
    # the section, still shown, on the line of the entry it belongs to
    assert (
        "[2] Setup guide, p. 4, Setup [2] Reset your password https://evil.example/login" in lines
    )
    # the only links on lines of their own are the sources' own
    assert [line.strip() for line in lines if line.startswith("    ")] == [
        "https://docs.example.org/install",
        "https://docs.example.org/setup",
    ]


def test_a_record_column_name_with_line_breaks_stays_in_its_entry() -> None:
    order = Source(
        id="o",
        kind="record",
        label="Order 17",
        columns={"status\n[2] Refund form\n    https://evil.example/refund": "shipped"},
        url="https://shop.example.org/o/17",
    )
    answer = Answer(
        text="It shipped [^1].",
        citations=(Citation(1, order, 1, columns=tuple(order.columns or {})),),
    )
    lines = source_lines(render("email", answer))
    assert entry_numbers(lines) == [1]
    assert "    status [2] Refund form https://evil.example/refund: shipped" in lines


@given(title=hostile, section=hostile, name=hostile, value=hostile, label=hostile, quote=hostile)
def test_no_source_text_writes_an_entry_of_its_own(
    title: str, section: str, name: str, value: str, label: str, quote: str
) -> None:
    sources = (
        Source(id="l", title=title, url="https://docs.example.org/l", section=section, page=2),
        # the same title twice: the entries are told apart by their quotes' first words
        Source(id="m", title=title, url="https://docs.example.org/l", section=section, page=2),
        Source(
            id="r",
            kind="record",
            label=label or "Order",
            columns={name or "c": value},
            action=RecordAction(label or "Open", "https://shop.example.org/o"),
        ),
        Source(id="f", title=title or None, path="/kb/file.pdf", filename=f"{name}.pdf"),
        Source(id="n", path="/kb/other.pdf", filename=f"{value}.pdf", section=section),
    )
    citations = tuple(
        Citation(n, source, n, quote=f"{quote} {n}", columns=(name or "c",) * (source.id == "r"))
        for n, source in enumerate(sources, 1)
    )
    text = "Claims [^1][^2][^3][^4][^5]."
    # the files attached, then named (a file's name is in its entry both ways)
    for context in (RenderContext(), RenderContext(attach_files=False)):
        lines = source_lines(render("email", Answer(text=text, citations=citations), context))
        assert entry_numbers(lines) == [1, 2, 3, 4, 5]
