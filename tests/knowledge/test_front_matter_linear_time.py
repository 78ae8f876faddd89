"""Looking for an audience key in front matter takes time in proportion to the text.

A file opening with ``---`` and never closing it is searched for a key line naming an audience.
The pattern once nested repeats (``[\\w.:-]*audi[\\w.:-]*``) and backtracked on a long line
holding ``audi`` many times: 80 KB took 23 s to ingest, and the reading page of such a text or
HTML file made its markup on the event loop, stalling every user as long.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.connectors.web_file_viewer import ViewedFile, document_markup
from bot.knowledge.document import Unreadable
from bot.knowledge.readers import read_document

HOSTILE = {
    "key line": lambda n: "---\n" + "audi" * n + "\n",
    "key line with colons": lambda n: "---\n" + "audi:" * n + "x\n",
    "explicit key": lambda n: "---\n" + "? " + "audi" * n + "\n",
    "flow mapping": lambda n: "---\n{" + "audi" * n + "\n",
    "JSON object": lambda n: '{"' + "audi" * n + "\n",
    "JSON keys": lambda n: '{"a' + '"audi' * n + "\n",
}
BIG = 500_000  # "audi" 500,000 times: a 2 MB line


def _seconds(read: Callable[[], object]) -> float:
    began = time.monotonic()
    with contextlib.suppress(Unreadable):
        read()
    return time.monotonic() - began


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_a_2_mb_hostile_line_is_read_in_a_moment(shape: str) -> None:
    text = HOSTILE[shape](BIG)
    assert _seconds(lambda: read_document(Path("a.md"), text.encode())) < 3


@pytest.mark.parametrize(("name", "kind"), [("notes.txt", "text"), ("page.html", "html")])
def test_the_reading_page_markup_of_a_hostile_file_is_made_in_a_moment(
    name: str, kind: str
) -> None:
    viewed = ViewedFile(name, kind, HOSTILE["key line"](BIG), False)
    assert _seconds(lambda: document_markup(viewed)) < 3


def _best_of_three(text: str) -> float:
    """The shortest of three timings of reading ``text`` five times (the least disturbed by
    other work on the machine)."""

    def five() -> None:
        for _ in range(5):
            with contextlib.suppress(Unreadable):
                read_document(Path("a.md"), text.encode())

    return min(_seconds(five) for _ in range(3))


def test_reading_time_grows_in_proportion_to_the_line() -> None:
    """Eight times the text (20 KB, then 160 KB) takes about eight times as long, not
    sixty-four."""
    small, large = HOSTILE["key line"](5_000), HOSTILE["key line"](40_000)
    ratio = _best_of_three(large) / max(_best_of_three(small), 1e-3)
    assert ratio < 24
