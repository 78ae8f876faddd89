"""Chinese, Japanese and Korean search: words inside a run of CJK text are found (schema 6)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import IndexSettings, RecordTable
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.records import RecordTables
from bot.knowledge.terms import fts_query, query_terms, words

DOCS = {
    "tokyo.md": "# 東京ガイド\n\n日本語のテキスト文書です。東京タワーの高さは333メートルです。\n",
    "osaka.md": "# 大阪ガイド\n\n大阪城は豊臣秀吉が建てた城です。大阪は食べ物で有名な都市です。\n",
    "config.md": (
        "# 設定\n\ncitecastの設定ファイルconfig.yamlはプロジェクトのルートに置きます。"
        "citecastの索引は毎晩再構築されます。\n"
    ),
    "beijing.md": (
        "# 北京指南\n\n北京是中华人民共和国的首都。故宫位于北京市中心，是明清两代的皇家宫殿。\n"
    ),
    "shanghai.md": "# 上海指南\n\n上海是中国最大的城市。外滩位于黄浦江西岸。\n",
    "seoul.md": "# 서울 안내\n\n서울은 대한민국의 수도입니다. 회의는 서울에서 열립니다.\n",
    "busan.md": "# 부산 안내\n\n부산은 항구 도시입니다. 해운대해수욕장이 유명합니다.\n",
    "walrus.md": "# Walruses\n\nWalruses haul out on drifting ice floes to rest.\n",
}


def _write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


@pytest.fixture
def kb(tmp_path: Path) -> tuple[Path, IndexSettings]:
    _write(tmp_path / "docs", DOCS)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([tmp_path / "docs"], settings)
    return tmp_path / "docs", settings


def _first(settings: IndexSettings, query: str) -> str | None:
    found = KnowledgeIndex(settings.path).search(query, limit=3)
    return found[0].filename if found else None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("東京", "tokyo.md"),  # inside "東京タワー"
        ("テキスト", "tokyo.md"),  # inside "日本語のテキスト文書"
        ("タワーの高さ", "tokyo.md"),
        ("大阪城を建てたのは誰ですか", "osaka.md"),
        ("豊臣秀吉", "osaka.md"),
        ("設定ファイル", "config.md"),
        ("故宫", "beijing.md"),  # Chinese, inside "故宫位于北京市中心"
        ("首都", "beijing.md"),
        ("外滩在哪里？", "shanghai.md"),
        ("수도", "seoul.md"),  # Korean, inside "수도입니다"
        ("해운대", "busan.md"),  # inside "해운대해수욕장이"
        # in both titles only; Osaka's chunk is the shorter one in tokens (characters and
        # bigrams: the katakana of Tokyo's makes more of them)
        ("ガイド", "osaka.md"),
    ],
)
def test_a_word_inside_a_cjk_run_finds_its_chunk_first(
    kb: tuple[Path, IndexSettings], query: str, expected: str
) -> None:
    assert _first(kb[1], query) == expected


def test_a_bigram_matches_only_its_characters_side_by_side(
    kb: tuple[Path, IndexSettings],
) -> None:
    index = KnowledgeIndex(kb[1].path)
    assert [s.filename for s in index.search("東京")] == ["tokyo.md"]
    assert [s.filename for s in index.search("北京")] == ["beijing.md"]
    # 京 and 都 are both indexed (北京, 首都), never side by side
    assert index.search("京都") == []


def test_latin_words_in_mixed_text_still_match(kb: tuple[Path, IndexSettings]) -> None:
    # config.md writes "citecastの設定ファイルconfig.yamlは…" with no space between scripts
    index = KnowledgeIndex(kb[1].path)
    for query in ("config.yaml", "yaml", "citecast", "citecast の索引"):
        assert [s.filename for s in index.search(query)] == ["config.md"], query
    assert [s.filename for s in index.search("walruses resting")] == ["walrus.md"]


def test_the_passage_text_is_shown_as_written(kb: tuple[Path, IndexSettings]) -> None:
    [found] = KnowledgeIndex(kb[1].path).search("東京タワー", limit=1)
    assert found.text == "日本語のテキスト文書です。東京タワーの高さは333メートルです。"
    assert found.title == "東京ガイド"


def test_half_width_katakana_and_full_width_find_each_other(tmp_path: Path) -> None:
    _write(tmp_path / "docs", {"a.md": "ﾃｷｽﾄﾌｧｲﾙを読みます。\n", "b.md": "データベースです。\n"})
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([tmp_path / "docs"], settings)
    assert _first(settings, "テキスト") == "a.md"
    assert _first(settings, "ﾃﾞｰﾀﾍﾞｰｽ") == "b.md"


def _fts_hits(settings: IndexSettings, phrase: str) -> int:
    """Rows whose indexed tokens match ``phrase``, read straight from the FTS table (stale
    tokens left by a wrong delete would show here even when no chunk row backs them)."""
    with sqlite3.connect(settings.path) as conn:
        row = conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (phrase,))
        return int(row.fetchone()[0])


def test_a_changed_or_removed_cjk_file_leaves_no_stale_hits(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _write(docs, {"city.md": DOCS["tokyo.md"], "castle.md": DOCS["osaka.md"]})
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([docs], settings)
    assert _first(settings, "東京") == "city.md"
    assert _fts_hits(settings, '"東京"') == 1

    # the changed file's new chunk takes the freed row id, where stale tokens would attach
    _write(docs, {"city.md": "# 京都ガイド\n\n金閣寺は京都にあります。\n"})
    (docs / "castle.md").unlink()
    report = ingest([docs], settings)
    assert (report.indexed, report.removed) == (1, 1)
    index = KnowledgeIndex(settings.path)
    assert index.search("東京") == []
    assert index.search("大阪城") == []
    assert [s.filename for s in index.search("金閣寺")] == ["city.md"]
    assert _fts_hits(settings, '"東京"') == 0
    assert _fts_hits(settings, '"大阪"') == 0
    assert _fts_hits(settings, "ガ") == 1  # "ガイド" of the new title, indexed once


def test_a_schema_4_index_is_refused_with_the_rebuild_command(
    kb: tuple[Path, IndexSettings],
) -> None:
    docs, settings = kb
    with sqlite3.connect(settings.path) as conn:
        conn.execute("PRAGMA user_version = 4")
    hint = (
        r"older citecast \(schema 4, this one reads 6\); "
        r"rebuild it: `citecast ingest --rebuild /\S+`"
    )
    with pytest.raises(KnowledgeIndexError, match=hint):
        KnowledgeIndex(settings.path)
    with pytest.raises(KnowledgeIndexError, match=hint):
        ingest([docs], settings)
    ingest([docs], settings, rebuild=True)
    assert _first(settings, "東京") == "tokyo.md"


def test_cjk_runs_become_bigrams_split_where_the_script_changes() -> None:
    assert words("東京タワーの高さ") == ["東京", "タワ", "ワー", "の", "高", "さ"]
    assert words("citecastの設定ファイル config.yaml") == [
        *("citecast", "の", "設定", "ファ", "ァイ", "イル", "config", "yaml"),
    ]
    assert words("서울에서") == ["서울", "울에", "에서"]
    assert words("ﾃｷｽﾄ") == ["テキ", "キス", "スト"]
    assert words("Walruses’ ice, naïve") == ["walruses", "ice", "naïve"]


def test_a_question_drops_particles_and_question_words_unless_nothing_else() -> None:
    assert query_terms("東京タワーの高さは何メートルですか？") == [
        *("東京", "タワ", "ワー", "高", "メー", "ート", "トル"),
    ]
    assert query_terms("故宫在哪里？") == ["故宫"]
    assert query_terms("长城有多长") == ["长城", "多长"]
    assert query_terms("水") == ["水"]
    assert query_terms("すし") == ["すし"]


def test_fts_query_searches_a_cjk_term_as_one_token_of_the_index() -> None:
    assert fts_query("東京 citecast") == '"東京" OR "citecast"'
    assert fts_query("水") == '"水"'
    assert fts_query('How do "quotes" work?') == '"quotes"'


def test_a_record_with_a_cjk_label_is_found_by_a_word_inside_it(tmp_path: Path) -> None:
    csv = tmp_path / "plans.csv"
    csv.write_text(
        "sku,name,price\nJP-1,スタンダードプラン,1000\nJP-2,エンタープライズプラン,9000\n",
        encoding="utf-8",
    )
    table = RecordTable(
        name="plans", csv=str(csv), id_column="sku", label_column="name", columns=["price"]
    )
    found = RecordTables([table]).lookup("plans", "エンタープライズ", frozenset({"public"}))
    assert [record.id for record in found][:1] == ["plans/JP-2"]
