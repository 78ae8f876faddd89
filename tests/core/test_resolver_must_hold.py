"""The "Must hold" list of the core issue, one test each (the examples of DESIGN §5 are
table-driven in ``test_resolver_examples``)."""

from __future__ import annotations

import json

import pytest

from bot.models import Answer, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver, resolve
from tests.core.eight_sources import RECORD_KEY, SECRET, eight_sources


def test_quote_is_kept_from_citation_tag() -> None:
    answer = resolve("A <citation>1 | quoted words</citation>.", eight_sources())
    assert answer.citations[0].quote == "quoted words"
    assert answer.citations[0].deep_link == "https://docs.test/1#:~:text=quoted%20words"


def test_record_key_keeps_only_existing_columns() -> None:
    raw = f'A [[source key="{RECORD_KEY}" columns="name, price, colour"]].'
    assert resolve(raw, eight_sources()).citations[0].columns == ("name", "price")


def test_key_word_is_configurable() -> None:
    raw = f'A [[record key="{RECORD_KEY}"]] and [[source key="{RECORD_KEY}"]].'
    answer = resolve(raw, eight_sources(), ResolvePolicy(key_word="record"))
    assert answer.text == f'A [^1] and [[source key="{RECORD_KEY}"]].'


def test_mangled_key_is_dropped_as_one_marker() -> None:
    raw = f'A [[source key="{RECORD_KEY}" columns="name"]]1"]]. B [1].'
    answer = resolve(raw, eight_sources())
    assert answer.text == "A. B [^1]."
    [dropped] = answer.dropped
    assert (dropped.marker, dropped.reason, dropped.offset) == (
        raw[2 : raw.index(". B")],
        "invalid_token",
        2,
    )


def test_pdf_citation_gets_page_link() -> None:
    answer = resolve("A [3].", eight_sources())
    assert answer.citations[0].deep_link == "https://docs.test/manual.pdf#page=12"


def test_dropped_offsets_point_into_the_raw_text() -> None:
    raw = "ok [1]. bad [9]. worse <CIT nope />."
    answer = resolve(raw, eight_sources())
    assert [(d.marker, d.offset) for d in answer.dropped] == [
        ("[9]", raw.index("[9]")),
        ("<CIT nope />", raw.index("<CIT")),
    ]


# -- the "Must hold" list of the issue ---------------------------------------------------------


def test_valid_and_invalid_cit_tags() -> None:
    registry = SourceRegistry()
    registry.register(Source("123"))
    answer = resolve("Valid fact <CIT 123 />. Invalid fact <CIT 999 />.", registry)
    assert answer.text == "Valid fact [^1]. Invalid fact."
    assert [(d.marker, d.reason) for d in answer.dropped] == [("<CIT 999 />", "unknown")]


def test_numbering_follows_first_appearance() -> None:
    registry = SourceRegistry()
    registry.register_all([Source("1"), Source("2")])
    answer = resolve("B <CIT 2 /> A <CIT 1 />", registry)
    assert answer.text == "B [^1] A [^2]"
    assert [(c.n, c.source.id, c.source_number) for c in answer.citations] == [
        (1, "2", 2),
        (2, "1", 1),
    ]


def test_registry_numbering_keeps_registry_numbers() -> None:
    registry = SourceRegistry()
    registry.register_all([Source("1"), Source("2")])
    answer = resolve("B <CIT 2 /> A <CIT 1 />", registry, ResolvePolicy(numbering="registry"))
    assert answer.text == "B [^2] A [^1]"
    assert [c.n for c in answer.citations] == [1, 2]


def test_year_in_brackets_stays_with_three_sources() -> None:
    registry = SourceRegistry()
    registry.register_all([Source("a"), Source("b"), Source("c")])
    answer = resolve("In [2023] the law", registry)
    assert answer.text == "In [2023] the law"
    assert answer.citations == () and answer.dropped == ()


def test_bare_numbers_are_text_when_registry_is_empty() -> None:
    answer = resolve("Array [7] and [1, 2].", SourceRegistry())
    assert answer.text == "Array [7] and [1, 2]."


def test_marker_in_fenced_block_is_untouched() -> None:
    registry = SourceRegistry()
    registry.register(Source("1"))
    raw = "```\n<CIT 1 />\n```"
    assert resolve(raw, registry).text == raw


def test_record_key_from_another_turn_is_invalid() -> None:
    earlier = SourceRegistry()
    earlier.register(Source("r", kind="record", label="Pro"))
    stale = earlier.key_for(1)
    now = SourceRegistry()
    now.register(Source("r", kind="record", label="Pro"))
    assert now.key_for(1) != stale
    answer = resolve(f'Pro [[source key="{stale}"]].', now)
    assert answer.text == "Pro."
    assert [d.reason for d in answer.dropped] == ["invalid_token"]


def test_forbidden_source_leaves_no_trace() -> None:
    registry = SourceRegistry(["public"])
    registry.register_all(
        [
            Source("pub", title="Handbook"),
            Source(
                "private-id",
                title="Secret salaries",
                url="https://intranet.test/salaries",
                text="Alice earns a lot",
                audience=("hr",),
            ),
        ]
    )
    answer = resolve("Public [1]. Private <CIT private-id />. Also [2].", registry)
    assert answer.text == "Public [^1]. Private. Also."
    assert [d.reason for d in answer.dropped] == ["forbidden", "out_of_range"]
    dumped = json.dumps(answer.to_json())
    for secret in ("Secret salaries", "intranet.test", "Alice", "private-id"):
        assert secret not in dumped


def _stream_one_char(raw: str, registry: SourceRegistry) -> Answer:
    resolver = StreamResolver(registry)
    for char in raw:
        resolver.feed(char)
    return resolver.finish()[1]


@pytest.mark.parametrize(
    ("raw", "columns"),
    [
        # cited by number first, then by key with columns: the columns still count
        (f'Groups [1][5] record [[source key="{RECORD_KEY}" columns="price, cost"]] x.', ["price"]),
        (f'A [[source key="{RECORD_KEY}" columns="price, cost"]] then [5].', ["price"]),
        # union over markers, first seen first, only columns the source has
        (
            f'A [[source key="{RECORD_KEY}" columns="price"]] and '
            f'[[source key="{RECORD_KEY}" columns="colour, name, price"]].',
            ["price", "name"],
        ),
        (f'A [5] and [[source key="{RECORD_KEY}" columns="name, name"]].', ["name"]),
    ],
)
def test_columns_of_every_marker_join_the_one_citation(raw: str, columns: list[str]) -> None:
    batch = resolve(raw, eight_sources())
    record = [c for c in batch.citations if c.source_number == 5]
    assert [list(c.columns) for c in record] == [columns]
    assert _stream_one_char(raw, eight_sources()) == batch


def test_stream_created_before_the_tools_counts_bare_groups_once_a_source_exists() -> None:
    registry = SourceRegistry(secret=SECRET)
    resolver = StreamResolver(registry)
    texts: list[str] = []
    for delta in ["Let me look [7] up", ".\n", "[1]: a note\n"]:
        texts += [e.text for e in resolver.feed(delta) if isinstance(e, TextDelta)]
    registry.register(Source("s1", title="Install guide"))  # a tool ran mid-turn
    for delta in ["Fact [1", "] and [2].\n", "[1]: definition\n"]:
        texts += [e.text for e in resolver.feed(delta) if isinstance(e, TextDelta)]
    events, answer = resolver.finish()
    texts += [e.text for e in events if isinstance(e, TextDelta)]
    assert answer.text == "".join(texts) == "Let me look [7] up.\n[1]: a note\nFact [^1]."
    assert [(c.n, c.source.id) for c in answer.citations] == [(1, "s1")]
    assert [d.reason for d in answer.dropped] == ["out_of_range"]
