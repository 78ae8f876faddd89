"""Blank lines taken in one step by the scanner, and record keys looked up from a cached list.

Both are speed work (``bench/resolve.py``) that must not change a decision: a run of blank lines
read with the line break before it still counts as a blank line before an indented line, keeps
a list's context and a footnote definition's continuation, at any split of a stream; a key
lookup still sees every source, also one registered after the first lookup.
"""

from __future__ import annotations

import pytest

from bot.marker_parse import Marker
from bot.markers import Grammar, MarkerScanner, Token, find_markers
from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import resolve


def _merged(tokens: list[Token]) -> list[str | tuple[str, str]]:
    """Text joined across pieces (where a stream cuts it does not matter); markers as raw+lead."""
    out: list[Token] = []
    for token in tokens:
        if isinstance(token, str) and out and isinstance(out[-1], str):
            out[-1] = out[-1] + token
        else:
            out.append(token)
    return [t if isinstance(t, str) else (t.raw, t.lead) for t in out]


def _scan(text: str, cuts: tuple[int, ...] = ()) -> list[str | tuple[str, str]]:
    scanner = MarkerScanner(Grammar(bare_numbers=True))
    tokens: list[Token] = []
    start = 0
    for cut in (*cuts, len(text)):
        tokens += scanner.feed(text[start:cut])
        start = cut
    return _merged(tokens + scanner.finish())


TEXTS = {
    # after one, two or three blank lines, an indented line is code: its [2] is no marker
    "code after blank lines": "Para [1].\n\n\n    [2] code\n\nAfter [3].",
    "code after one blank line": "Para [1].\n\n    [2] code\n",
    # in a list, an indented line after blank lines continues the item: [2] is a marker
    "list continuation": "- item [1]\n\n\n    [2] more\n\nText [3].",
    # a definition's indented continuation goes with it, blank lines between too
    "definition continuation": "[^1]: note\n\n\n    more [2] note\n\nText [1].",
    "blank lines at the end": "Text [1].\n\n\n",
    "crlf blank lines": "Text [1].\r\n\r\n    [2] code\r\n",
}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_markers_after_blank_line_runs(name: str) -> None:
    expected = {
        "code after blank lines": ["[1]", "[3]"],
        "code after one blank line": ["[1]"],
        "list continuation": ["[1]", "[2]", "[3]"],
        "definition continuation": ["[1]"],
        "blank lines at the end": ["[1]"],
        "crlf blank lines": ["[1]"],
    }[name]
    found = find_markers(TEXTS[name], Grammar(bare_numbers=True))
    assert [m.raw for m in found] == expected


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_blank_line_runs_read_the_same_at_every_split(name: str) -> None:
    text = TEXTS[name]
    whole = _scan(text)
    for cut in range(1, len(text)):
        assert _scan(text, (cut,)) == whole, cut
    assert _scan(text, tuple(range(1, len(text)))) == whole


def test_resolved_text_keeps_blank_line_runs() -> None:
    registry = SourceRegistry(secret=b"s")
    registry.register(Source("a", title="A", url="https://a.test/"))
    answer = resolve("One [1].\n\n\n- item [1]\n\n\n    more\n\n    code? no: list", registry)
    assert answer.text == "One [^1].\n\n\n- item [^1]\n\n\n    more\n\n    code? no: list"


def test_a_key_registered_after_a_lookup_is_found() -> None:
    registry = SourceRegistry(secret=b"s")
    registry.register(Source("r1", kind="record", label="One"))
    first = registry.key_for(1)
    assert registry.number_for_key(first) == 1
    registry.register(Source("r2", kind="record", label="Two"))
    registry.register(Source("r3", kind="record", label="Three", key="SKU-3"))
    assert registry.number_for_key(registry.key_for(2)) == 2
    assert registry.number_for_key("sku-3") == 3  # case-folded, the only one that fits
    assert registry.number_for_key(first.upper()) == 1
    assert registry.number_for_key("nope") is None


def test_keys_of_a_rebuilt_registry_are_found() -> None:
    registry = SourceRegistry(secret=b"s")
    for i in range(1, 4):
        registry.register(Source(f"r{i}", kind="record", label=f"R{i}"))
    assert registry.number_for_key(registry.key_for(3)) == 3
    rebuilt = SourceRegistry.from_json(registry.to_json())
    assert [rebuilt.number_for_key(registry.key_for(i)) for i in (1, 2, 3)] == [1, 2, 3]


def test_marker_tokens_keep_their_lead() -> None:
    tokens = MarkerScanner(Grammar(bare_numbers=True)).scan_all("a \t[1]\n\nb  [2]")
    assert [(t.raw, t.lead) for t in tokens if isinstance(t, Marker)] == [
        ("[1]", " \t"),
        ("[2]", "  "),
    ]
