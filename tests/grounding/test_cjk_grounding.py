"""Grounding of Chinese, Japanese and Korean answers: claims, quotes and their deep links.

CJK sentences end at 。！？ with no space after them; before, a CJK passage was one sentence, so
every quote was the whole passage (and its text fragment too long to use).
"""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from bot.claims import claims, sentences
from bot.deeplinks import MAX_FRAGMENT_CHARS, text_fragment
from bot.grounding import uncited_claims, verify
from bot.models import Answer, Citation, Source
from bot.support import LexicalScorer, best_support, passage_sentences
from bot.text_terms import numbers

JA = Source(
    id="ja#1",
    title="導入ガイド",
    url="https://docs.example.org/ja/install.html",
    text=(
        "citecastはPythonで動きます。設定ファイルはconfig.yamlです。"
        "サーバーは再試行を5回まで行います！「完了。」と表示されます。"
    ),
)
ZH = Source(
    id="zh#1",
    title="管理指南",
    url="https://docs.example.org/zh/admin.html",
    text="索引保存在SQLite数据库中。备份每天晚上运行一次？是的，每天运行。",
)


def _answer(text: str, source: Source) -> Answer:
    return Answer(text=text, citations=(Citation(n=1, source=source, source_number=1),))


def test_a_cjk_passage_splits_at_its_full_stops() -> None:
    assert passage_sentences(JA.text or "") == (
        "citecastはPythonで動きます。",
        "設定ファイルはconfig.yamlです。",
        "サーバーは再試行を5回まで行います！",
        "「完了。」と表示されます。",  # a full stop inside quotes does not end the sentence
    )


def test_english_passages_split_as_before() -> None:
    text = "Run it. Then wait!\nDone? Yes... v1.2 is out."
    assert passage_sentences(text) == ("Run it.", "Then wait!", "Done?", "Yes...", "v1.2 is out.")


def test_a_japanese_quote_is_the_supporting_sentence() -> None:
    checked = verify(_answer("サーバーは再試行を5回まで行います[^1]。", JA))
    (citation,) = checked.citations
    assert citation.quote == "サーバーは再試行を5回まで行います！"
    assert citation.claim == "サーバーは再試行を5回まで行います"
    assert citation.support is not None and citation.support >= 0.8
    assert citation.deep_link is not None
    assert unquote(citation.deep_link).endswith("#:~:text=サーバーは再試行を5回まで行います！")


def test_chinese_claims_split_at_full_stops_with_markers_after_them() -> None:
    text = "索引保存在SQLite数据库中。[^1]备份每天晚上运行[^2]？还有别的吗"
    found = claims(text)
    assert [(c.text, c.numbers) for c in found] == [
        ("索引保存在SQLite数据库中。", (1,)),
        ("备份每天晚上运行", (2,)),
    ]
    assert [s.text for s in sentences(text)] == [
        "索引保存在SQLite数据库中。",
        "备份每天晚上运行？",
        "还有别的吗",
    ]


def test_a_number_inside_a_cjk_run_is_checked() -> None:
    # "5回" used to give no number (a word character before it), so "7回" passed the hard check
    assert numbers("再試行を5回まで") == frozenset({"5"})
    scorer = LexicalScorer([JA.text or ""])
    wrong = best_support(scorer, JA.text or "", "サーバーは再試行を7回まで行います")
    assert wrong.score <= 0.15


def test_a_long_japanese_quote_links_by_its_first_and_last_clause() -> None:
    quote = (
        "設定ファイルはconfig.yamlで、サーバーを起動する前に必ずすべての必須項目を確認して"
        "ください、そうしないと起動時にエラーが表示されて停止します。"
    )
    directive = text_fragment(quote)
    assert directive is not None and len(directive) <= MAX_FRAGMENT_CHARS
    assert (
        unquote(directive)
        == ":~:text=設定ファイルはconfig.yamlで,そうしないと起動時にエラーが表示されて停止します。"
    )


def test_a_long_cjk_quote_without_a_clause_break_gets_no_fragment() -> None:
    # the end term must start at a word boundary; without punctuation none is certain
    assert text_fragment("設定ファイル" * 20 + "。") is None


@pytest.mark.parametrize("quote", ["Fast, cheap – and A&B-safe", "naïve café: 100%"])
def test_short_english_fragments_are_unchanged(quote: str) -> None:
    directive = text_fragment(quote)
    assert directive is not None and "," not in directive.removeprefix(":~:text=")
    assert unquote(directive) == f":~:text={quote}"


def test_cjk_questions_and_lead_ins_are_not_uncited_claims() -> None:
    text = (
        "索引保存在SQLite数据库中[^1]。您想了解备份的时间安排吗？以下是设置步骤：\n\n"
        "备份每天晚上运行一次。"
    )
    assert uncited_claims(text) == ["备份每天晚上运行一次。"]
