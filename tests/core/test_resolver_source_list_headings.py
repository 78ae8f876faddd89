"""Source-list headings in the languages models answer in, and after a pictograph
(bot.marker_lines HEADING_WORDS): the model's list goes, what it alone named is cited."""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

HEADINGS = [
    "Références:",
    "Fontes:",
    "Referências:",
    "Referenzen:",
    "Quellenangaben:",
    "출처:",
    "参考资料：",
    "参考資料:",
    "参考：",
    "المصادر:",
    "Kaynaklar:",
    "📚 Sources:",
    "📚 **Sources:**",
    "### 📚 Sources",
    "Källor:",
    "RÉFÉRENCES :",
]


@pytest.mark.parametrize("heading", HEADINGS)
def test_a_source_list_under_the_heading_goes(heading: str) -> None:
    raw = f"Install with pip [1].\n\n{heading}\n- [1] Install guide\n- [2] Manual\n"
    assert resolved_everywhere(raw) == "Install with pip [^1].[^2]"


@pytest.mark.parametrize("heading", ["📚 Sources: [2]", "Fontes: [1], [2]", "출처: [2]"])
def test_a_one_line_source_list_under_the_heading_goes(heading: str) -> None:
    assert resolved_everywhere(f"Install with pip [1].\n{heading}") == "Install with pip [^1].[^2]"


@pytest.mark.parametrize(
    "line",
    ["Kitchen sinks:\n- [1] Install guide", "📚 Reading list:\n- [1] Install guide", "Fonts:\n- a"],
)
def test_other_lines_with_those_initials_stay(line: str) -> None:
    raw = f"Install.\n\n{line}"
    assert resolved_everywhere(raw).startswith(f"Install.\n\n{line.split(chr(10))[0]}")
