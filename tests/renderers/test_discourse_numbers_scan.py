"""The Discourse footnote numbers skip a parse only where a plain scan is exact.

``renderers.discourse_numbers`` reads a post's references with a scan when no ``[^n]`` can be
inside code, else with a parse (a reference in code is no reference). The scan must never
differ from the parse where it is used: a wrong number would start a definition with a number
the forum does not show.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from bot.markdown import parse
from renderers.discourse_numbers import _plainly_outside_code, shown_numbers

PIECES = ["[^1]", "[^2]", "[^3]", "`", "```", "````", "~~~", "    ", "\t", "\n", "\n\n", "- ", "> "]
PIECES += ["1. ", "word ", "x", "<b>", "["]


def parsed_references(body: str) -> list[int]:
    found: list[int] = []

    def walk(tokens: list[dict[str, object]]) -> None:
        for token in tokens:
            if token.get("type") == "citation":
                attrs = token["attrs"]
                assert isinstance(attrs, dict)
                found.append(int(attrs["n"]))
            children = token.get("children")
            if isinstance(children, list):
                walk(children)

    walk(parse(body))
    return found


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
@example("- ```\n  x [^1]\n  ```\n\nfact [^2]")
@example("```\ncode\n```\n\nx [^2] y [^1]")
@example("> ```\n> [^1]\n> ```\n\n[^2]")
def test_the_scan_is_used_only_where_it_reads_as_the_parse(body: str) -> None:
    if _plainly_outside_code(body):
        shown = shown_numbers(body, {1, 2, 3})
        first_seen = list(dict.fromkeys(parsed_references(body)))
        assert list(shown) == first_seen


def test_a_post_with_a_code_block_before_its_references_is_scanned() -> None:
    # the common case the scan exists for: code first, its citations after it
    assert _plainly_outside_code("```\ncode [x]\n```\n\nFact [^2], then [^1].")
    assert shown_numbers("```\ncode\n```\n\nFact [^2], then [^1].", {1, 2}) == {2: 1, 1: 2}
