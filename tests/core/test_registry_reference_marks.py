"""Passages a model is shown leave out the document's own reference marks (bot.reference_marks);
code lines, code spans and a bibliography's labels stay as written."""

from __future__ import annotations

import pytest

from bot.models import Source
from bot.reference_marks import passage_without_reference_marks
from bot.registry import SourceRegistry


def test_format_passages_leaves_out_a_reference_mark_beside_the_cite_heading() -> None:
    registry = SourceRegistry(("public",), secret=b"x")
    shown = registry.format_passages(
        [
            Source(id="a", title="Gasket checks", text="Checked every Friday."),
            Source(id="b", title="Tolerances", text="The gasket must be replaced yearly [1]."),
        ]
    )
    assert shown == (
        "[cite: 1] Gasket checks\nChecked every Friday.\n\n"
        "[cite: 2] Tolerances\nThe gasket must be replaced yearly."
    )


@pytest.mark.parametrize(
    ("passage", "expected"),
    [
        # prose on several lines: each mark after prose goes, the line breaks stay
        (
            "Seals wear [2]\nin salt air,[3] so\ncheck them [4-6].\n",
            "Seals wear\nin salt air, so\ncheck them.\n",
        ),
        # a fenced block and an indented block are code: their brackets are the code's
        (
            "Set the limit [1]:\n\n```\nlimits = [1]\nx = a [2]\n```\n\n    y = b [3]\n\nDone [4].",
            "Set the limit:\n\n```\nlimits = [1]\nx = a [2]\n```\n\n    y = b [3]\n\nDone.",
        ),
        # a bibliography's labels open their lines, also indented; a bare number on its line
        # (kept, and escaped: a copy of them must not read as a citation)
        (
            "Sources [1]:\n\n[1] Smith, J. Seals.\n  [2] Doe, A. Valves.\n  [3]\n",
            "Sources:\n\n\\[1\\] Smith, J. Seals.\n  \\[2\\] Doe, A. Valves.\n  \\[3\\]\n",
        ),
        # a code span, indexing and a named reference, as in quoted sentences
        (
            "Use `a [1]` or items[2], as shown in [3].",
            "Use `a [1]` or items\\[2\\], as shown in reference 3.",
        ),
        # (the second review) values after punctuation or a value-taking word are kept, escaped
        ("Allowed values: [1, 2, 3].", "Allowed values: \\[1, 2, 3\\]."),
        ("The default retry count: [3].", "The default retry count: \\[3\\]."),
        ("The tuple (1, [2]).", "The tuple (1, \\[2\\])."),
        ("counts: 3, [4], 5", "counts: 3, \\[4\\], 5"),
        ("The function returns [0], always.", "The function returns \\[0\\], always."),
        ("Result (default [3]).", "Result (default \\[3\\])."),
        ("Replaced at wear level [1].", "Replaced at wear level \\[1\\]."),
        ("Already \\[1\\] escaped [2].", "Already \\[1\\] escaped."),
    ],
)
def test_a_passage_keeps_its_code_and_labels(passage: str, expected: str) -> None:
    assert passage_without_reference_marks(passage) == expected
