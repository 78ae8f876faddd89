"""SourceRegistry: numbering, dedupe, audience, keys, formatters, JSON, threads."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import RegistryError
from bot.models import Source
from bot.registry import SourceRegistry, canonical_url


def test_numbers_new_citable_sources_in_order() -> None:
    registry = SourceRegistry()
    assert registry.register_all([Source("a"), Source("b"), Source("c")]) == [1, 2, 3]
    assert len(registry) == 3
    assert registry.get(2) == Source("b")
    assert registry.get(4) is None


def test_duplicate_by_id_shares_the_number() -> None:
    registry = SourceRegistry()
    assert registry.register(Source("a", title="A")) == 1
    assert registry.register(Source("b")) == 2
    assert registry.register(Source("a", title="A again")) == 1
    assert len(registry) == 2


def test_duplicate_by_canonical_url_page_and_chunk() -> None:
    registry = SourceRegistry()
    first = Source("x", url="HTTPS://Example.COM/doc?utm_source=mail&q=1#part", page=3)
    assert registry.register(first) == 1
    same = Source("y", url="https://example.com/doc?q=1", page=3)
    other_page = Source("z", url="https://example.com/doc?q=1", page=4)
    assert registry.register(same) == 1
    assert registry.register(other_page) == 2
    assert registry.number_of(Source("y2", url="https://example.com/doc?q=1", page=3)) == 1
    assert registry.numbers_for_url("https://EXAMPLE.com/doc?q=1&utm_medium=x") == [1, 2]


def test_canonical_url_keeps_path_case_and_other_params() -> None:
    assert canonical_url("HTTP://A.b/Path?B=1&utm_x=2#f") == "http://a.b/Path?B=1"


def test_uncitable_is_evidence_only() -> None:
    registry = SourceRegistry()
    assert registry.register(Source("e", citable=False, text="background")) is None
    assert registry.register(Source("a")) == 1
    assert [s.id for s in registry.evidence()] == ["e", "a"]
    assert registry.numbered() == {1: Source("a")}
    assert registry.number_for_id("e") == "uncitable"


def test_hidden_source_is_never_numbered_nor_kept() -> None:
    registry = SourceRegistry(["public"])
    secret = Source("hr-1", title="Salaries", url="https://intra.example/hr", audience=("hr",))
    assert registry.register(secret) is None
    assert len(registry) == 0
    assert registry.evidence() == []
    assert registry.number_for_id("hr-1") == "forbidden"
    assert registry.number_for_id("never") == "unknown"
    dumped = str(registry.to_json())
    assert "Salaries" not in dumped and "intra.example" not in dumped


def test_viewer_in_group_sees_group_sources() -> None:
    registry = SourceRegistry(["public", "hr"])
    assert registry.register(Source("hr-1", audience=("hr",))) == 1
    assert registry.audience == frozenset({"public", "hr"})


def test_keys_are_per_turn_and_validated() -> None:
    one = SourceRegistry()
    two = SourceRegistry()
    for registry in (one, two):
        registry.register_all([Source("a"), Source("b")])
    key = one.key_for(2)
    assert len(key) == 8 and all(ch in "0123456789abcdef" for ch in key)
    assert one.number_for_key(key) == 2
    assert one.key_for(1) != key
    # independent random secrets: a key from turn one names nothing in turn two
    assert two.number_for_key(key) is None
    assert one.number_for_key("deadbeef" if key != "deadbeef" else "cafebabe") is None


def test_same_secret_gives_same_keys() -> None:
    one = SourceRegistry(secret=b"k" * 16)
    two = SourceRegistry(secret=b"k" * 16)
    one.register(Source("a"))
    two.register(Source("a"))
    assert one.key_for(1) == two.key_for(1)


def test_caller_issued_key_is_used() -> None:
    registry = SourceRegistry()
    registry.register(Source("r", kind="record", key="sku-42"))
    assert registry.key_for(1) == "sku-42"
    assert registry.number_for_key("sku-42") == 1


def test_keys_match_ignoring_case_when_unambiguous() -> None:
    registry = SourceRegistry(secret=b"k" * 16)
    registry.register_all([Source("a"), Source("r", kind="record", key="sku-12")])
    assert registry.number_for_key("SKU-12") == 2
    assert registry.number_for_key(" Sku-12 ") == 2
    assert registry.number_for_key(registry.key_for(1).upper()) == 1


def test_keys_differing_only_in_case_must_match_exactly() -> None:
    registry = SourceRegistry()
    registry.register_all(
        [Source("x", kind="record", key="ab"), Source("y", kind="record", key="AB")]
    )
    assert (registry.number_for_key("ab"), registry.number_for_key("AB")) == (1, 2)
    assert registry.number_for_key("Ab") is None  # two keys fit: no guess


def test_key_for_unknown_number_raises() -> None:
    with pytest.raises(RegistryError):
        SourceRegistry().key_for(1)


def test_format_passages_puts_cite_heading_beside_text() -> None:
    registry = SourceRegistry()
    text = registry.format_passages(
        [
            Source("a", title="Guide", section="Setup", page=3, text="Install it."),
            Source("bg", title="Notes", citable=False, text="Background."),
            Source("h", title="Hidden", text="secret", audience=("hr",)),
        ]
    )
    assert text == "[cite: 1] Guide — Setup — p. 3\nInstall it.\n\nNotes\nBackground."
    assert registry.number_for_id("h") == "forbidden"


def test_format_table_has_cite_column_and_escapes_cells() -> None:
    registry = SourceRegistry()
    registry.register(Source("first"))
    table = registry.format_table(
        [
            Source("r1", kind="record", label="Pro", columns={"price": "5 | 6"}),
            Source("r2", kind="record", label="Old", citable=False, columns={"price": "1"}),
        ],
        ["name", "price"],
    )
    assert table.splitlines() == [
        "| Cite | name | price |",
        "|---|---|---|",
        "| 2 | Pro | 5 \\| 6 |",
        "|  | Old | 1 |",
    ]


def test_format_records_gives_cite_and_key() -> None:
    registry = SourceRegistry()
    records = registry.format_records(
        [
            Source("r1", kind="record", label="Pro", columns={"price": "5"}),
            Source("x", citable=False),
        ]
    )
    assert records[0] == {
        "cite": 1,
        "key": registry.key_for(1),
        "label": "Pro",
        "columns": {"price": "5"},
    }
    assert "cite" not in records[1]


def test_cached_results_reregister_with_current_numbers() -> None:
    cached = [Source("p1", text="one"), Source("p2", text="two")]
    turn = SourceRegistry()
    turn.register(Source("other"))
    text = turn.format_passages(cached)
    assert "[cite: 2] p1" in text and "[cite: 3] p2" in text


def test_json_round_trip_keeps_everything() -> None:
    registry = SourceRegistry(["public", "staff"])
    registry.register_all(
        [
            Source("a", url="https://x.test/a"),
            Source("a-dup", url="https://X.test/a"),
            Source("bg", citable=False),
            Source("h", audience=("hr",)),
            Source("b", audience=("staff",)),
        ]
    )
    key = registry.key_for(2)
    copy = SourceRegistry.from_json(registry.to_json())
    assert copy.to_json() == registry.to_json()
    assert copy.numbered() == registry.numbered()
    assert copy.number_for_key(key) == 2
    assert copy.number_for_id("a-dup") == 1
    assert copy.number_for_id("h") == "forbidden"
    assert copy.number_for_id("bg") == "uncitable"
    assert copy.audience == frozenset({"public", "staff"})
    assert copy.register(Source("c")) == 3


@pytest.mark.parametrize(
    "bad",
    [
        None,
        {},
        {"version": 1, "audience": [], "secret": "zz", "numbered": []},
        {
            "version": 1,
            "audience": [],
            "secret": "00",
            "numbered": [{"n": 2, "source": {"id": "a"}}],
        },
        {"version": 1, "audience": [], "secret": "00", "numbered": [{"n": 1, "source": {}}]},
    ],
)
def test_from_json_rejects_bad_state(bad: object) -> None:
    with pytest.raises(RegistryError):
        SourceRegistry.from_json(bad)


def test_32_threads_give_each_distinct_source_one_number() -> None:
    registry = SourceRegistry()
    sources = [Source(f"s{i}", url=f"https://x.test/{i % 40}") for i in range(200)]
    barrier = threading.Barrier(32)
    results: list[list[int | None]] = [[] for _ in range(32)]

    def work(index: int) -> None:
        barrier.wait()
        order = sources[index:] + sources[:index]
        results[index] = [registry.register(s) for s in order]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(registry) == 40
    assert sorted(registry.numbered()) == list(range(1, 41))
    by_url: dict[str, set[int | None]] = {}
    for index, numbers in enumerate(results):
        order = sources[index:] + sources[:index]
        for source, number in zip(order, numbers, strict=True):
            by_url.setdefault(str(source.url), set()).add(number)
    assert all(len(numbers) == 1 for numbers in by_url.values())
    assert len({next(iter(n)) for n in by_url.values()}) == 40


@given(st.lists(st.integers(min_value=0, max_value=15), max_size=60))
def test_numbers_are_dense_and_stable(ids: list[int]) -> None:
    registry = SourceRegistry()
    first: dict[int, int | None] = {}
    for i in ids:
        number = registry.register(Source(f"id{i}", citable=i % 5 != 0))
        first.setdefault(i, number)
        assert first[i] == number
    numbers = [n for n in first.values() if n is not None]
    assert sorted(numbers) == list(range(1, len(numbers) + 1))
    assert len(registry) == len(numbers)
