"""Search QA: compounds (versions, file and key names) and viewers behind private documents."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.config import IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.terms import compound_terms


def _kb(root: Path, files: dict[str, str]) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    for name, text in files.items():
        (docs / name).write_text(text, encoding="utf-8")
    path = root / "index.db"
    ingest([docs], IndexSettings(path=str(path)))
    return path


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeIndex:
    # 1.4.2's notes hold every part of "2.4.1", and more often than 2.4.1's own notes do.
    return KnowledgeIndex(
        _kb(
            tmp_path_factory.mktemp("releases"),
            {
                "r142.md": "# Release 1.4.2\n\nVersion 1.4.2 fixes uploads. Upgrade from 1.2.4 "
                "if you run 4.1 or older; 2 servers need it.\n",
                "r241.md": "# Release 2.4.1\n\nVersion 2.4.1 adds a dark mode to the chat.\n",
                "keys.md": "# Keys\n\nThe size of a chunk, in chars, is set in the config. "
                "Answers are cut at a maximum of tokens.\n",
                "index.md": "# Index\n\nSet index.chunk_chars in config.yaml. The max_tokens "
                "key limits answers.\n",
            },
        )
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What changed in 2.4.1?", "r241.md"),
        ("1.4.2", "r142.md"),
        ("release notes of version 2.4.1", "r241.md"),
        ("chunk_chars", "index.md"),
        ("where do I set index.chunk_chars", "index.md"),
        ("max_tokens config", "index.md"),
    ],
)
def test_a_version_or_identifier_finds_the_passage_that_writes_it(
    releases: KnowledgeIndex, query: str, expected: str
) -> None:
    assert releases.search(query)[0].filename == expected


def test_compound_parts_still_find_passages_that_write_them_apart(
    releases: KnowledgeIndex,
) -> None:
    # the compound is ranked beside its words, never instead of them
    assert {s.filename for s in releases.search("chunk_chars")} == {"index.md", "keys.md"}


def test_compound_terms() -> None:
    assert compound_terms("What changed in 2.4.1 and v3.0?") == ["2 4 1", "v3 0"]
    assert compound_terms("set index.chunk_chars in config.yaml") == [
        "index chunk chars",
        "config yaml",
    ]
    assert compound_terms("Retry-After, 1,000.5 and api/ask") == [
        "retry after",
        "1 000 5",
        "api ask",
    ]
    # stop words and letters only, list commas, flags, CJK runs: no compound
    assert compound_terms("e.g. a to-do list: a,b --rebuild") == []
    assert compound_terms("citecastの設定ファイルconfig.yaml") == ["config yaml"]
    assert compound_terms("a.b.c.d.e.f.g.h.i9") == []


@pytest.fixture(scope="module")
def staff_first(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Ingested in name order: the staff notes get the lowest rows, the public ones come after.
    staff = "---\naudience: staff\n---\n"
    files = {
        f"a-staff{n}.md": f"{staff}# Note {n}\n\nThe kettle and teapot {n}.\n" for n in range(6)
    }
    files["a-staff-zebra.md"] = f"{staff}# Zebra\n\nThe zebra project.\n"
    files |= {f"p-kettle{n}.md": f"# Kettle {n}\n\nA kettle {n}.\n" for n in range(3)}
    files |= {f"p-teapot{n}.md": f"# Teapot {n}\n\nA teapot {n}.\n" for n in range(3)}
    return _kb(tmp_path_factory.mktemp("staff-first"), files)


@pytest.mark.parametrize("budget", [1000, 8, 7, 5, 3])
@pytest.mark.parametrize("query", ["kettle", "kettle teapot", "zebra kettle"])
def test_a_viewer_behind_private_documents_still_gets_their_matches(
    staff_first: Path, budget: int, query: str
) -> None:
    # A small budget stands for a large corpus: the plan is an intersection (7), a row cap
    # (5, 3) or the rare word alone (zebra, in a staff note only), counted over every row.
    index = KnowledgeIndex(staff_first, rank_budget=budget)
    found = [s.filename or "" for s in index.search(query, ["public"], limit=3)]
    assert len(found) == 3 and all(name.startswith("p-") for name in found), found
    if "teapot" not in query:
        assert all(name.startswith("p-kettle") for name in found), found


def test_the_audience_hiding_nothing_leaves_the_result_as_it_was(staff_first: Path) -> None:
    # zebra is rare: staff rank on it alone and do not get kettle notes added to fill the limit
    index = KnowledgeIndex(staff_first, rank_budget=7)
    assert [s.filename for s in index.search("zebra kettle", ["staff"], limit=3)] == [
        "a-staff-zebra.md"
    ]


WORDS = ["kettle", "teapot", "zebra", "otter"]
MIXED = {
    n: (["public", "staff", "board"][n % 3], [w for i, w in enumerate(WORDS) if n >> i & 1])
    for n in range(1, 16)
}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {
        f"d{n:02}.md": f"---\naudience: {audience}\n---\n# Doc {n}\n\n{' '.join(words)}.\n"
        for n, (audience, words) in MIXED.items()
    }
    return _kb(tmp_path_factory.mktemp("mixed"), files)


@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    budget=st.integers(1, 30),
    groups=st.sampled_from([[], ["staff"], ["board"], ["staff", "board"]]),
    limit=st.integers(1, 6),
)
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_a_viewer_only_ever_sees_their_audience_and_finds_what_they_may_see(
    mixed: Path, words: list[str], budget: int, groups: list[str], limit: int
) -> None:
    allowed = {"public", *groups}
    found = KnowledgeIndex(mixed, rank_budget=budget).search(" ".join(words), groups, limit)
    assert all(set(s.audience) <= allowed for s in found)
    assert len({s.id for s in found}) == len(found) <= limit
    visible = [
        n for n, (audience, has) in MIXED.items() if audience in allowed and set(words) & set(has)
    ]
    # Ranking is bounded (an intersection of common words may hold fewer rows than the limit),
    # but documents the viewer may not see never leave them with nothing
    assert bool(found) == bool(visible)


def test_a_schema_5_index_is_refused_with_the_rebuild_command(tmp_path: Path) -> None:
    # schema 5 held CJK characters only; schema 6 looks a CJK word up as a bigram token
    path = _kb(tmp_path, {"tokyo.md": "# 東京\n\n東京タワーの高さ。\n"})
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 5")
    with pytest.raises(KnowledgeIndexError, match=r"schema 5, this one reads 6\); rebuild it"):
        KnowledgeIndex(path)
