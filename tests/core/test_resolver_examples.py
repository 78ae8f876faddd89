"""Every example of DESIGN §5, table-driven (the "Must hold" list is in test_resolver_must_hold)."""

from __future__ import annotations

import pytest

from bot.models import TextDelta
from bot.resolver import StreamResolver, resolve
from tests.core.eight_sources import RECORD_KEY, eight_sources

# raw, expected text, expected source numbers in display order, expected dropped reasons
EXAMPLES: list[tuple[str, str, list[int], list[str]]] = [
    # bracket numbers
    ("A [1].", "A [^1].", [1], []),
    ("A [1][3].", "A [^1][^2].", [1, 3], []),
    ("A [1, 3].", "A [^1][^2].", [1, 3], []),
    ("A [1,3].", "A [^1][^2].", [1, 3], []),
    ("A [1; 2].", "A [^1][^2].", [1, 2], []),
    ("A [1-3].", "A [^1][^2][^3].", [1, 2, 3], []),
    ("A [1–3].", "A [^1][^2][^3].", [1, 2, 3], []),
    ("A [1, 3-5].", "A [^1][^2][^3][^4].", [1, 3, 4, 5], []),
    ("A [3-1].", "A [^1][^2].", [3, 1], []),
    ("A [1-30].", "A [^1].", [1], ["out_of_range"]),
    ("A [2, 2, 1-2].", "A [^1][^2].", [2, 1], []),
    ("A [3] then [1] then [3].", "A [^1] then [^2] then [^1].", [3, 1], []),
    # a group in doubled brackets is one marker; wiki-style links stay
    ("A [[1]] and [[1, 3]] B.", "A [^1] and [^1][^2] B.", [1, 3], []),
    ("A [[9]] and [[source]] B.", "A B.", [], ["out_of_range", "placeholder"]),
    ("A [[docs]] and [[2023]].", "A [[docs]] and [[2023]].", [], []),
    # footnotes
    ("A [^1].", "A [^1].", [1], []),
    ("A [^2^].", "A [^1].", [2], []),
    # a source only a definition names is cited after the text before it (resolver_listed)
    ("A [^1].\n\n[^1]: Install guide, p. 3\n[^2]: Other\n", "A [^1].[^2]", [1, 2], []),
    # a definition's indented continuation lines go with it (CommonMark reads them as its own)
    (
        "A [^1].\n[^1]: Install guide\n    https://docs.test/1\nB [2].",
        "A [^1].\nB [^2].",
        [1, 2],
        [],
    ),
    ("    x [2]\n[^9]: a note\n\n    more [2]\nB [3].", "    x [2]\n\nB [^1].", [3], []),
    # (its URL names source 1, which the definition alone cites: bot.resolver_listed)
    (
        "    x [2]\n[9]: https://docs.test/1\n\t[1, 3]\nB [2].",
        "    x [2]\n[^1]\nB [^2].",
        [1, 2],
        [],
    ),
    # citation tags
    ("A <citation>7</citation>.", "A [^1].", [7], []),
    ("A <citation>1 | quoted words</citation>.", "A [^1].", [1], []),
    # file-id tags
    ("A <CIT 123 />.", "A [^1].", [2], []),
    ("A <CIT 123/>.", "A [^1].", [2], []),
    # record keys
    (f'A [[source key="{RECORD_KEY}" columns="name, price"]].', "A [^1].", [5], []),
    # a key in capitals still names its record; a mangled key is dropped whole
    (f'A [[source key="{RECORD_KEY.upper()}"]].', "A [^1].", [5], []),
    ('A [[source key="A"]]1"]] B.', "A B.", [], ["invalid_token"]),
    (f"A [[source key='{RECORD_KEY}']]x']] B.", "A B.", [], ["invalid_token"]),
    ('A [[source key="A]]1"]] and [[source key="x"y"]].', "A.", [], ["invalid_token"] * 2),
    ('A [[source key=""]] B.', "A B.", [], ["invalid_token"]),
    # the attributes as models also write them: commas, either order, no or curly quotes
    (f'A [[source key="{RECORD_KEY}", columns="name"]].', "A [^1].", [5], []),
    (f"A [[Source columns='name' key='{RECORD_KEY}']].", "A [^1].", [5], []),
    (
        f"A [[source key={RECORD_KEY}]] and [[source key=“{RECORD_KEY}”]].",
        "A [^1] and [^1].",
        [5],
        [],
    ),
    ('A [[source columns="name"]] B.', "A B.", [], ["invalid_token"]),
    # bracket words
    ("A [cite: 2].", "A [^1].", [2], []),
    ("A [citation:2].", "A [^1].", [2], []),
    ("A [Source 2].", "A [^1].", [2], []),
    ("A [doc2].", "A [^1].", [2], []),
    ("A 【2】.", "A [^1].", [2], []),
    ("A 【4:0†source】.", "A [^1].", [4], []),
    # linked numbers
    ("A [[1]](https://docs.test/1).", "A [^1].", [1], []),
    ("A [1](https://DOCS.test/1#top).", "A [^1].", [1], []),
    ("A [1](https://elsewhere.test/1).", "A [1](https://elsewhere.test/1).", [], []),
    ("A [[1]](https://elsewhere.test/1).", "A [[1]](https://elsewhere.test/1).", [], []),
    # private-use markers
    ("A \ue200cite\ue202123\ue201.", "A [^1].", [2], []),
    ("A \ue200cite\ue202turn0search9\ue201.", "A.", [], ["unknown"]),
    # never inside code or math; not escaped brackets, task boxes or links
    ("```\nA [1] <CIT 123 />\n```\nB [2].", "```\nA [1] <CIT 123 />\n```\nB [^1].", [2], []),
    ("~~~python\nx = a[1]\n~~~\n", "~~~python\nx = a[1]\n~~~", [], []),
    ("Text [1].\n\n```\nnever closed [2]\n", "Text [^1].\n\n```\nnever closed [2]", [1], []),
    ("Para.\n\n    code [1]\n\nB [2].", "Para.\n\n    code [1]\n\nB [^1].", [2], []),
    ("- item\n\n    continued [1]", "- item\n\n    continued [^1]", [1], []),
    ("Use `x[1]` and ``a ` [2]`` ok [3].", "Use `x[1]` and ``a ` [2]`` ok [^1].", [3], []),
    ("Math $a_[1]$ and $$b [2]$$ [3].", "Math $a_[1]$ and $$b [2]$$ [^1].", [3], []),
    ("Costs $5 [1] or $10 [2].", "Costs $5 [^1] or $10 [^2].", [1, 2], []),
    ("Escaped \\[1\\] stays.", "Escaped \\[1\\] stays.", [], []),
    ("- [ ] task\n- [x] done", "- [ ] task\n- [x] done", [], []),
    ("See [the guide](https://docs.test/1).", "See [the guide](https://docs.test/1).", [], []),
    ("In [2023] the law.", "In [2023] the law.", [], []),
    # no source is numbered 0: a bare group with 0 or a zero-padded number is the reader's
    ("In [0, 1], a[0], [1,000] and [05] [3].", "In [0, 1], a[0], [1,000] and [05] [^1].", [3], []),
    # unknown, out of range, adjacency, space removal
    ("fact [9].", "fact.", [], ["out_of_range"]),
    ("fact [^9] and <citation>9</citation>.", "fact.", [], ["out_of_range", "out_of_range"]),
    ("fact [cite: 2023].", "fact.", [], ["out_of_range"]),
    # one run of adjacent groups (only spaces between) shows each source once
    ("fact [1] [2] [1].", "fact [^1][^2].", [1, 2], []),
    ("A [1][3] [1, 3] B.", "A [^1][^2] B.", [1, 3], []),
    ("A [1, 3][3] [1] B.", "A [^1][^2] B.", [1, 3], []),
    ("A [1] [1] then [1].", "A [^1] then [^1].", [1], []),
    ("A [1]\n[1] B.", "A [^1]\n[^1] B.", [1], []),
    ("fact [9] [1].", "fact [^1].", [1], ["out_of_range"]),
    ("fact <CIT nope />.", "fact.", [], ["unknown"]),
    # a removed marker's space goes to the citation right after it in the run
    ("fact [9][1].", "fact [^1].", [1], ["out_of_range"]),
    ("fact <CIT nope /><citation>2</citation>.", "fact [^1].", [2], ["unknown"]),
    # placeholders
    ("fact [n] and [citation needed] and [Source N].", "fact.", [], ["placeholder"] * 3),
    ("a [source](https://x.test) link", "a [source](https://x.test) link", [], []),
    ("fact [source] and [cite] and [ref #].", "fact.", [], ["placeholder"] * 3),
    # the reader's own bracketed words and reference links are not placeholders
    ("Read the [docs] and [references].", "Read the [docs] and [references].", [], []),
    ("See [docs].\n\n[docs]: https://x.test/d", "See [docs].\n\n[docs]: https://x.test/d", [], []),
    (
        "Use [source].\n\n[source]: https://x.test",
        "Use.\n\n[source]: https://x.test",
        [],
        ["placeholder"],
    ),
    # a group naming no source is dropped, never left raw
    ("A [cite: 1234567890] B.", "A B.", [], ["unknown"]),
    ("A [^1234567890] B.", "A B.", [], ["unknown"]),
    ("A 【1234567890】 B.", "A B.", [], ["unknown"]),
    # tags in any letter case
    ("A <Citation>1</Citation>.", "A [^1].", [1], []),
    ("A <CITATION>3</citation>.", "A [^1].", [3], []),
    # CRLF: a blank line ends a code span or math, so later markers are read
    ("Use ` here.\r\n\r\nFact [1]. And `x`.", "Use ` here.\r\n\r\nFact [^1]. And `x`.", [1], []),
    ("Costs $5 and\r\n\r\nfact [1] x$ y", "Costs $5 and\r\n\r\nfact [^1] x$ y", [1], []),
    # a tag marker inside a link's text is read like any other, never left raw
    (
        "See [the guide <citation>1</citation>](https://o.test).",
        "See [the guide [^1]](https://o.test).",
        [1],
        [],
    ),
    ("See [the guide 【3】](https://o.test).", "See [the guide [^1]](https://o.test).", [3], []),
    ("See [a <CIT nope />](https://o.test).", "See [a](https://o.test).", [], ["unknown"]),
    # a removal inside a marker's start never joins its halves into a marker no one resolved
    ("A [^[9]1] B.", "A [^\u200b1] B.", [], ["out_of_range"]),
    ("A <cita[9]tion>1</citation> B.", "A <cita\u200btion>1</citation> B.", [], ["out_of_range"]),
    ('A [[source[9] key="x"]] B.', 'A [[source\u200b key="x"]] B.', [], ["out_of_range"]),
    ("A [cite [9]: 2] (x [9]) B.", "A [cite\u200b: 2] (x) B.", [], ["out_of_range"] * 2),
    # a removal at a line start spells no list item: its continuation stays code, as read
    ("[9]    - item [2]\n\n\t[1]", "\\- item [^1]\n\n\t[1]", [2], ["out_of_range"]),
    # a line left empty by a removal goes with its line break, CRLF too (streamed "\r" alone)
    ("a\r\n[9]\r\nb", "a\r\nb", [], ["out_of_range"]),
    ("a\r\n[9]\r[1] x", "a\r\n\r[^1] x", [1], ["out_of_range"]),
    # a linked number whose URL has parentheses: a link elsewhere stays a link
    (
        "See [[2]](https://o.test/Foo_(bar)) now.",
        "See [[2]](https://o.test/Foo_(bar)) now.",
        [],
        [],
    ),
    ("See [[3]](https://docs.test/manual.pdf) now.", "See [^1] now.", [3], []),
    # model-written source lists
    (
        "Answer [1].\n\nSources:\n- [1] Install guide\n- [3] Manual, p. 12\n",
        "Answer [^1].[^2]",
        [1, 3],
        [],
    ),
    (
        "Answer [1].\n\n**References**\n1. Install guide https://docs.test/1\n",
        "Answer [^1].",
        [1],
        [],
    ),
    (
        "Answer [1].\n\nSources:\n- [1] Install guide\n- https://other.test/page\n",
        "Answer [^1].\n\nSources:\n- [^1] Install guide\n- https://other.test/page",
        [1],
        [],
    ),
    (
        "Sources:\n- [1] Install guide\n\nThen more text [2].",
        "Sources:\n- [^1] Install guide\n\nThen more text [^2].",
        [1, 2],
        [],
    ),
]


@pytest.mark.parametrize(("raw", "text", "numbers", "reasons"), EXAMPLES)
def test_design_example(raw: str, text: str, numbers: list[int], reasons: list[str]) -> None:
    answer = resolve(raw, eight_sources())
    assert answer.text == text
    assert [c.source_number for c in answer.citations] == numbers
    assert [c.n for c in answer.citations] == list(range(1, len(numbers) + 1))
    assert [d.reason for d in answer.dropped] == reasons


@pytest.mark.parametrize("size", [1, 3, 7])
@pytest.mark.parametrize(("raw", "text", "numbers", "reasons"), EXAMPLES)
def test_design_example_streamed(
    raw: str, text: str, numbers: list[int], reasons: list[str], size: int
) -> None:
    resolver = StreamResolver(eight_sources())
    shown: list[str] = []
    for at in range(0, len(raw), size):
        shown += [e.text for e in resolver.feed(raw[at : at + size]) if isinstance(e, TextDelta)]
    events, answer = resolver.finish()
    shown += [e.text for e in events if isinstance(e, TextDelta)]
    assert answer.text == "".join(shown) == text
    assert [c.source_number for c in answer.citations] == numbers
    assert [d.reason for d in answer.dropped] == reasons
