"""More forms of a model's trailing source list that go (bot.marker_line_starts): headings in
the answer's language, ``Sources used: [1]``, a closing line after the list
(bot.marker_sign_offs), and a rule the model drew above it. Checked with ``resolve()`` and the
stream fed in several splits (``resolved_everywhere``); text that merely looks alike stays.
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

LIST = "- [1] Install guide\n- [2] Manual\n"

CASES = [
    # headings in other languages, a full-width colon after a CJK one
    *[
        (f"Fact [1] [2].\n\n{heading}\n{LIST}", "Fact [^1][^2].")
        for heading in (
            "Quellen:",
            "Fuentes:",
            "Fonti:",
            "Bronnen:",
            "Źródła:",
            "Источники:",
            "参考文献:",
            "参考文献：",
            "出典:",
            "来源:",
            "**Quellen:**",
            "## Fuentes",
            "Sources :",
        )
    ],
    ("Fact [1] [2].\n\nSources used: [1], [2]", "Fact [^1][^2]."),
    ("Fact [1].\n\nSources used: [1], [2]\n", "Fact [^1].[^2]"),
    # a closing line after the list stays, the list goes
    (
        f"Fact [1] [2].\n\nSources:\n{LIST}\nLet me know if you have other questions!",
        "Fact [^1][^2].\n\nLet me know if you have other questions!",
    ),
    (f"Fact [1].\n\nSources:\n{LIST}\n\nHope this helps.\n", "Fact [^1].[^2]\n\nHope this helps."),
    (
        f"Fact [1] [2].\n\nSources:\n{LIST}\n*Feel free to ask more.*",
        "Fact [^1][^2].\n\n*Feel free to ask more.*",
    ),
    # a rule above the list goes with it
    (f"Fact [1] [2].\n\n---\n\nSources:\n{LIST}", "Fact [^1][^2]."),
    (
        f"Fact [1] [2].\n\n***\nReferences:\n{LIST}\nHope this helps!",
        "Fact [^1][^2].\n\nHope this helps!",
    ),
    # what stays: other text after the list, a line right after it, a rule before other text,
    # a list that names another page, words that only begin like a heading
    (
        f"Fact [1].\n\nSources:\n{LIST}\nMore text here.",
        "Fact [^1].\n\nSources:\n- [^1] Install guide\n- [^2] Manual\n\nMore text here.",
    ),
    (
        f"Fact [1].\n\nSources:\n{LIST}\nLet me know [2].",
        "Fact [^1].\n\nSources:\n- [^1] Install guide\n- [^2] Manual\n\nLet me know [^2].",
    ),
    ("Fact [1].\n\n---\n\nMore text.", "Fact [^1].\n\n---\n\nMore text."),
    (
        "Fact [1].\n\n---\n\nQuellen:\n- [1] Install guide\n- https://else.test/\n",
        "Fact [^1].\n\n---\n\nQuellen:\n- [^1] Install guide\n- https://else.test/",
    ),
    ("Fact [1].\n\nFor example [2].", "Fact [^1].\n\nFor example [^2]."),
    ("Fact [1].\n\nQuellenangaben folgen [2].", "Fact [^1].\n\nQuellenangaben folgen [^2]."),
    ("Fuentes [1] dicen.", "Fuentes [^1] dicen."),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_more_source_list_forms(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
