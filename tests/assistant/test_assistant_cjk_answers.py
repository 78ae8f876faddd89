"""The built-in answerer in Chinese and Japanese: sentences end at 。, each one cited."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.cited_lines import with_marker
from bot.assistant.extractive_sentences import sentences_of
from tests.assistant.handbook_index import ask, ingested

TOKYO = (
    "# 東京ガイド\n\n日本語のテキスト文書です。東京タワーの高さは333メートルです。"
    "東京タワーは1958年に完成しました。\n\n## 設定\n\n"
    "citecast の設定ファイル config.yaml はプロジェクトのルートに置きます。\n"
)
OSAKA = "# 大阪ガイド\n\n大阪城は豊臣秀吉が建てた城です。大阪は食べ物で有名な都市です。\n"
BEIJING = "# 北京指南\n\n北京是中国的首都。故宫位于北京市中心。长城全长两万多公里。\n"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return ingested(tmp_path, {"tokyo.md": TOKYO, "osaka.md": OSAKA, "beijing.md": BEIJING})


@pytest.mark.parametrize(
    ("question", "sentence", "source"),
    [
        (
            "東京タワーの高さは何メートルですか？",
            "東京タワーの高さは333メートルです[1]。",
            "tokyo.md",
        ),
        ("大阪城を建てたのは誰ですか", "大阪城は豊臣秀吉が建てた城です[1]。", "osaka.md"),
        (
            "config.yaml はどこに置きますか",
            "citecast の設定ファイル config.yaml はプロジェクトのルートに置きます[1]。",
            "tokyo.md",
        ),
        ("故宫在哪里？", "故宫位于北京市中心[1]。", "beijing.md"),
        ("长城有多长", "长城全长两万多公里[1]。", "beijing.md"),
    ],
)
def test_ask_answers_with_the_cited_sentence(
    config: Path, capsys: pytest.CaptureFixture[str], question: str, sentence: str, source: str
) -> None:
    answer, sources = ask(config, question, capsys)
    assert answer == sentence
    assert sources.startswith("[1] ") and sources.endswith(f"/docs/{source}")


def test_sentences_of_one_answer_run_on_with_no_space(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer, _ = ask(config, "東京タワー", capsys)
    assert answer == "東京タワーの高さは333メートルです[1]。東京タワーは1958年に完成しました[1]。"


def test_a_passage_splits_into_sentences_at_the_cjk_full_stop() -> None:
    text = (
        "日本語のテキスト文書です。東京は大きい！本当？「はい。」と答えた。"
        "It opened in 1958. It is tall."
    )
    assert sentences_of(text) == [
        "日本語のテキスト文書です。",
        "東京は大きい！",
        "「はい。」と答えた。",
        "It opened in 1958.",
    ]  # "本当？" and "It is tall." are stubs (a CJK character counts twice)


def test_the_marker_goes_before_a_cjk_full_stop_with_no_space() -> None:
    assert with_marker("東京タワーの高さは333メートルです。", 2) == (
        "東京タワーの高さは333メートルです[2]。"
    )
    assert with_marker("长城有多长？", 1) == "长城有多长[1]？"
    assert with_marker("Done!", 2) == "Done [2]!"
