"""Dropping a citation renumbers the ones on a list item's lines after a lazy continuation line.

"- item" then an unindented line of text keeps the item open (a lazy continuation line), so
an indented line after a later blank line is a nested item, not indented code: its ``[^n]`` is
a citation mistune renders, and the claims' code masking must see it to renumber it. (The
code span keeps the raw text from agreeing with the parser, which would hide the masking's
mistake.)
"""

from __future__ import annotations

from bot.claims import CITATION_RE, mask_code
from bot.grounding import GroundingPolicy, verify
from bot.markdown import citations_in, parse
from bot.models import Answer, Citation
from tests.grounding.cited_answers import Evidence
from tests.grounding.test_verify_policies import MOON, PYTHON

TEXT = (
    "The moon is made of green cheese and rocks [^1].\n"
    "- item\n"
    "Python 3.11 or newer is required to run it [^2], as `make [^2]` checks.\n"
    "\n"
    "    - Python 3.11 or newer is required to run it [^2]."
)


def test_mask_code_keeps_a_nested_item_after_a_lazy_line() -> None:
    masked = [int(m.group(1)) for m in CITATION_RE.finditer(mask_code(TEXT))]
    assert masked == citations_in(parse(TEXT)) == [1, 2, 2]


def test_mask_code_still_blanks_code_after_a_list_ended_by_a_blank_line() -> None:
    text = "- item\n\nlazy text\n\n    code [^1]."
    assert CITATION_RE.search(mask_code(text)) is None
    assert citations_in(parse(text)) == []


def test_dropping_renumbers_the_nested_item_after_a_lazy_line() -> None:
    answer = Answer(text=TEXT, citations=(Citation(1, MOON, 1), Citation(2, PYTHON, 2)))
    checked = verify(answer, Evidence(PYTHON, MOON), GroundingPolicy(mode="drop"))
    assert [d.reason for d in checked.dropped] == ["unsupported"]
    assert checked.text == (
        "The moon is made of green cheese and rocks.\n"
        "- item\n"
        "Python 3.11 or newer is required to run it [^1], as `make [^2]` checks.\n"
        "\n"
        "    - Python 3.11 or newer is required to run it [^1]."
    )
    assert citations_in(parse(checked.text)) == [1, 1]
    assert [(c.n, c.source.id) for c in checked.citations] == [(1, PYTHON.id)]
