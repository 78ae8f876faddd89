"""``citecast ask``'s plain text of quotes and of a list item's indented code (found in a security
review): a quote nested deeper than Python's recursion limit crashed ``ask`` with a traceback
(each quote level was a recursive call), the cost grew with the square of the nesting, and
``1.     <pre>\\[x\\]</pre>`` (five spaces after the marker: indented code) lost its backslashes.
"""

from __future__ import annotations

import sys

from bot.markdown import parse
from renderers.plain_markdown import plain_markdown
from tests.cpu_time import best_cpu_seconds


def numbered(n: int) -> str:
    return f"[{n}]"


def test_deeply_nested_quote_does_not_crash_plain_markdown() -> None:
    text = "> " * (sys.getrecursionlimit() + 200) + "a\\* [^1]"
    assert plain_markdown(text, numbered).endswith("> a* [1]")


def test_a_deep_quote_costs_time_linear_in_its_depth() -> None:
    def quote(depth: int) -> str:
        return ("> " * depth + "a\\* [^1]\n") * 4

    small, large = quote(1_000), quote(8_000)
    ratio = best_cpu_seconds(lambda: plain_markdown(large, numbered)) / best_cpu_seconds(
        lambda: plain_markdown(small, numbered)
    )
    # eight times the depth: about eight times the time; a reading per level made it ~64
    assert ratio < 24, ratio


def test_each_line_of_a_deep_quote_keeps_its_own_marks() -> None:
    text = "> > > a\\*\n> > b\\*\n>   > c\\*\nd\\*"
    assert plain_markdown(text, numbered) == "> > > a*\n> > b*\n>   > c*\nd*"


def test_indented_code_in_a_list_item_keeps_its_backslashes() -> None:
    text = "1.     <pre>\\[x\\]</pre>"
    assert plain_markdown(text, str) == text


def test_a_code_span_does_not_run_on_from_a_list_items_indented_code() -> None:
    # the item's code ends at its line: the paragraph after reads its own backticks
    text = "1.     `x\n\n\\[y\\] `[^1]`"
    assert plain_markdown(text, numbered) == "1.     `x\n\n[y] `[^1]`"


def test_a_lazy_line_shares_the_quotes_code_span_as_the_renderers_read_it() -> None:
    text = ">a</pre>``[^1]\n[^1]```\\\\``b&"
    quote = parse(text)[0]
    assert quote["children"][0]["children"][2] == {"type": "codespan", "raw": "[^1] [^1]```\\\\"}
    assert plain_markdown(text, numbered) == text


def test_a_fence_in_a_quote_takes_no_lazy_line() -> None:
    assert plain_markdown("> ```\n\\* a [^1]", numbered) == "> ```\n* a [1]"
