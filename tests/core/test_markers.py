"""The marker grammar: families, code regions, line-start removals, streaming hold-back."""

from __future__ import annotations

import pytest

from bot.marker_lines import ends_inside_marker
from bot.markers import Grammar, MarkerScanner, Token, find_markers
from bot.models import Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import COALESCE, StreamResolver


def raws(text: str, grammar: Grammar | None = None) -> list[str]:
    return [m.raw for m in find_markers(text, grammar)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a [1] b", ["[1]"]),
        ("a [1][3] b", ["[1]", "[3]"]),
        ("a [^1] [^1^]", ["[^1]", "[^1^]"]),
        ("<citation>7</citation>", ["<citation>7</citation>"]),
        ("<CIT 123 /> <CIT 123/> <cit a-b.c />", ["<CIT 123 />", "<CIT 123/>", "<cit a-b.c />"]),
        (
            "[cite: 2] [citation:2] [Source 2] [doc2]",
            ["[cite: 2]", "[citation:2]", "[Source 2]", "[doc2]"],
        ),
        ("【2】 【4:0†source】 【注】", ["【2】", "【4:0†source】"]),
        ("\ue200cite\ue202a\ue202b\ue201", ["\ue200cite\ue202a\ue202b\ue201"]),
        ("[n] [citation needed]", ["[n]", "[citation needed]"]),
        ("a[n] is an index", []),
        ("[x] [ ] [text] [2023] [1000]", []),
        ("![1](https://img.test/a.png)", []),
    ],
)
def test_families(text: str, expected: list[str]) -> None:
    assert raws(text) == expected


def test_bare_groups_need_a_non_empty_registry() -> None:
    assert raws("[1] and [cite: 1]", Grammar(bare_numbers=False)) == ["[cite: 1]"]


def test_ranges_expand_only_ascending_and_short() -> None:
    [short, falling, long_, dup] = find_markers("[2-4] [4-2] [1-40] [3, 3, 2-3]")
    assert short.numbers == (2, 3, 4)
    assert falling.numbers == (4, 2)
    assert long_.numbers == (1, 40)
    assert dup.numbers == (3, 2)


def test_record_key_with_columns_and_custom_word() -> None:
    [marker] = find_markers('[[source key="ab12cd34" columns="name, price"]]')
    assert (marker.key, marker.columns) == ("ab12cd34", ("name", "price"))
    assert find_markers('[[source key="ab12cd34"]]', Grammar(key_word="rec")) == []
    [custom] = find_markers("[[rec key='ab12cd34']]", Grammar(key_word="rec"))
    assert custom.key == "ab12cd34"


@pytest.mark.parametrize(
    ("text", "key", "columns"),
    [
        ('[[source key="k1", columns="a, b"]]', "k1", ("a", "b")),
        ("[[source columns='a' key='k1']]", "k1", ("a",)),
        ("[[source key=k1 columns=a]]", "k1", ("a",)),
        ("[[source key=“k1”]]", "k1", ()),
        # not well formed: a marker still, with no key to look up
        ('[[source key="k1" columns=]]', "", ()),
        ('[[source key="a"b"]]', "", ()),
        # a key that held '"]]': the marker runs to its own "]]"
        ('[[source key="k1"]]x"]]', 'k1"]]x', ()),
    ],
)
def test_record_key_forms(text: str, key: str, columns: tuple[str, ...]) -> None:
    [marker] = find_markers(f"a {text} b")
    assert (marker.raw, marker.key, marker.columns) == (text, key, columns)


def test_record_key_that_does_not_close_on_its_line_is_text() -> None:
    assert find_markers('[[source key="k1" and more\ntext"]]') == []
    assert raws('[[source key="k1 [1] more"]]') == ["[1]"]


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        ("a [^", True),
        ("a [cite", True),
        ("a [1, ", True),
        ("<cita", True),
        ("x <CIT 12", True),
        ('[[source key="a]', True),
        ("【4:0", True),
        ("a [the guide", False),
        ("a [^1] b", False),
        ("x < y", False),
        ('[[source key="a"]] b', False),
        ("[^\nnext", False),
        ("[" + "1" * 70, False),
    ],
)
def test_ends_inside_marker(text: str, inside: bool) -> None:
    assert ends_inside_marker(text) is inside


def test_linked_numbers_only_for_known_urls() -> None:
    grammar = Grammar(is_known_url=lambda url: url == "https://ok.test/a")
    assert raws("[1](https://ok.test/a) [1](https://no.test)", grammar) == [
        "[1](https://ok.test/a)"
    ]
    [marker] = find_markers("[[2]](https://ok.test/a)", grammar)
    assert (marker.numbers, marker.url) == ((2,), "https://ok.test/a")


def test_citation_tag_quote_and_id_forms() -> None:
    quoted, ident, junk = find_markers(
        "<citation>1 | quoted, words</citation><citation>doc-9</citation><citation>?</citation>"
    )
    assert (quoted.numbers, quoted.quote) == ((1,), "quoted, words")
    assert ident.ids == ("doc-9",)
    assert junk.placeholder


@pytest.mark.parametrize(
    "text",
    [
        "```\n[1]\n```",
        "```python\n[1] <CIT 2 />\n",
        "~~~~\n[1]\n~~~\n[2]\n",
        "para\n\n    [1] indented code",
        "`[1]` and ``x ` [2]``",
        "$[1]$ and $$\n[2]\n$$",
        "\\[1\\] and \\<CIT 2 />",
    ],
)
def test_nothing_inside_code_math_or_escapes(text: str) -> None:
    assert find_markers(text) == []


def test_unclosed_backtick_is_not_code() -> None:
    assert raws("a ` b [1]") == ["[1]"]
    assert raws("a `` b ` [1]") == ["[1]"]


def test_code_span_does_not_cross_a_blank_line() -> None:
    assert raws("a `b\n\nc [1]` d") == ["[1]"]


def test_indented_list_continuation_is_not_code() -> None:
    assert raws("- item\n\n    more [1]") == ["[1]"]
    assert raws("text\n    more [1]") == ["[1]"]


def test_prices_are_not_math() -> None:
    assert raws("costs $5 [1] or $10 [2]") == ["[1]", "[2]"]


def collect(tokens: list[Token]) -> str:
    return "".join(t if isinstance(t, str) else f"{t.lead}<{t.raw}>" for t in tokens)


def test_footnote_definition_lines_are_removed() -> None:
    scanner = MarkerScanner(Grammar())
    out = scanner.feed("A [^1].\n[^1]: Guide\n[1]: Other\nB.") + scanner.finish()
    assert collect(out) == "A <[^1]>.\n<><>B."
    # each removed line is a "listed" marker carrying its label, for the resolver to cite
    listed = [t for t in out if not isinstance(t, str) and t.family == "listed"]
    assert [t.ids for t in listed] == [("[^1]:",), ("[1]:",)]


def test_source_list_is_removed_only_when_trailing_and_accepted() -> None:
    grammar = Grammar(is_source_list=lambda items: all("Guide" in item for item in items))
    text = "A [1].\n\nSources:\n- [1] Guide\n"
    scanner = MarkerScanner(grammar)
    out = scanner.feed(text) + scanner.finish()
    assert collect(out) == "A <[1]>.\n\n<Sources:\n- [1] Guide\n>"
    assert out[-1].ids == ("- [1] Guide",)  # type: ignore[union-attr]
    rejected = MarkerScanner(grammar)
    out = rejected.feed("A.\n\nSources:\n- Other\n") + rejected.finish()
    assert collect(out) == "A.\n\nSources:\n- Other\n"


def stream_texts(registry: SourceRegistry, deltas: list[str], coalesce: int = 0) -> list[str]:
    resolver = StreamResolver(registry, coalesce=coalesce)
    out: list[str] = []
    for delta in deltas:
        out.append("".join(e.text for e in resolver.feed(delta) if isinstance(e, TextDelta)))
    return out


def registry_of(count: int) -> SourceRegistry:
    registry = SourceRegistry()
    registry.register_all(Source(f"s{i}") for i in range(count))
    return registry


def test_stream_releases_text_as_soon_as_it_cannot_be_a_marker() -> None:
    # "[x" is held until its "]": it may still be a link's text (a stream cut there broke the
    # link, found in a QA pass), then released at once as it is not a marker
    out = stream_texts(registry_of(2), ["Hello [", "x", "yz] and", " [1", "]", "."])
    assert out == ["Hello", "", " [xyz] and", "", "", " [^1]."]


def test_stream_holds_the_space_before_a_possible_marker() -> None:
    out = stream_texts(registry_of(2), ["fact ", "[9", "]", ". next ", "word"])
    assert out == ["fact", "", "", ". next", " word"]


@pytest.mark.parametrize("coalesce", [0, COALESCE])
def test_stream_hold_back_is_bounded(coalesce: int) -> None:
    resolver = StreamResolver(registry_of(1), coalesce=coalesce)
    released = ""
    for _ in range(300):
        released += "".join(e.text for e in resolver.feed("[1, 2, ") if isinstance(e, TextDelta))
    # the scanner holds an open bracket group back for at most 64 characters; gathering adds
    # at most ``coalesce`` characters not yet scanned
    assert len("[1, 2, " * 300) - len(released) < 64 + 8 + coalesce


def test_hostile_inputs_resolve() -> None:
    registry = registry_of(3)
    for unit in ["[", "<CIT ", '[[source key="', "[[[1]", "`", "$", "\ue200", "【", "<citation>"]:
        text = unit * (200_000 // len(unit))
        resolver = StreamResolver(registry)
        resolver.feed(text)
        _, answer = resolver.finish()
        assert len(answer.citations) <= 1  # only "[[[1]" names a source
        assert len(answer.text) <= 2 * len(text)


def test_deltas_are_gathered_until_the_limit_after_the_first() -> None:
    deltas = ["Hello", " wor", "ld", " [", "1]", " then", " more", " and", " more", "\n", "x"]
    out = stream_texts(registry_of(2), deltas, coalesce=12)
    # the first delta shows at once; later ones wait until 12 characters have arrived, markers
    # included, and are scanned together; "\n" and "x" wait for finish() here
    assert out == ["Hello", "", "", "", "", " world [^1] then", "", "", " more and more", "", ""]


def test_gathered_text_is_released_by_finish() -> None:
    resolver = StreamResolver(registry_of(2))
    first = [e.text for e in resolver.feed("Fact") if isinstance(e, TextDelta)]
    assert first == ["Fact"]
    assert resolver.feed(" one") == []
    events, answer = resolver.finish()
    assert [e.text for e in events if isinstance(e, TextDelta)] == [" one"]
    assert answer.text == "Fact one"
