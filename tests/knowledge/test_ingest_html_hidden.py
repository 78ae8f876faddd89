"""``hidden`` on an element whose end tag may be left out (``<p>``, ``<li>``, table cells) hides
it up to where a browser ends it: never indexed, and never the rest of the page with it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.html_reader import read_html


@pytest.mark.parametrize(
    ("page", "shown"),
    [
        ("<p hidden>SECRET draft<p>Shown text.", ["Shown text."]),
        ("<p hidden>SECRET draft</p><p>Shown text.</p>", ["Shown text."]),
        ('<p aria-hidden="true">SECRET<br>SECRET too<div>Shown text.</div>', ["Shown text."]),
        ("<div><p hidden>SECRET draft</div><p>Shown text.", ["Shown text."]),
        ("<p hidden>SECRET</span>SECRET too</p>Shown text.", ["Shown text."]),
        ("<ul><li hidden>SECRET<li>Shown item</ul><p>Shown text.", ["Shown item", "Shown text."]),
        (
            "<ul><li hidden><ul><li>SECRET</li></ul>SECRET too</li><li>Shown item</li></ul>",
            ["Shown item"],
        ),
        ("<dl><dt hidden>SECRET<dd>Shown definition</dl>", ["Shown definition"]),
        (
            "<table><tr><td>Team<td hidden>SECRET<td>$10<tr hidden><td>SECRET<td>SECRET too"
            "<tr><td>Business<td>$20</table>",
            ["| Team | $10 |\n| Business | $20 |"],
        ),
        ("<table><thead hidden><tr><th>SECRET<tbody><tr><td>Shown row</table>", ["Shown row"]),
        (
            "<select><option hidden>SECRET<option>Shown</select><p>Shown text.",
            ["Shown", "Shown text."],
        ),
        ("<p hidden/>Shown text.", ["Shown text."]),
        ("<div>Shown<p hidden>SECRET</p>text.</div>", ["Shown text."]),
    ],
)
def test_hidden_elements_without_end_tags_are_left_out(page: str, shown: list[str]) -> None:
    assert [block.text for block in read_html(page, "x.html").blocks] == shown


def test_a_hidden_paragraph_is_not_searchable(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "pricing.html").write_text(
        "<h1>Pricing</h1><p hidden>The wombat discount is 90 percent.</p>"
        "<p>The wombat plan costs 10 dollars.</p>",
        encoding="utf-8",
    )
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    assert ingest([site], settings).indexed == 1
    [found] = KnowledgeIndex(settings.path).search("wombat discount")
    assert found.text == "The wombat plan costs 10 dollars."


def _joins_while(work: Callable[[], object]) -> int:
    """How many times ``str.join`` runs during ``work()``: a count of work, not a timing."""
    joins = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal joins
        if event == "c_call" and getattr(arg, "__name__", "") == "join":
            joins += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return joins


def test_a_long_table_row_is_read_in_one_pass() -> None:
    # a row's text was joined again at each of its cells: a row of 100,000 cells took minutes
    page = "<table><tr>" + "<td>cell" * 3000 + "</table>"
    assert _joins_while(lambda: read_html(page, "x.html")) < 100
