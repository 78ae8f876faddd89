"""Text fragments for quotes in non-Latin scripts: every ordinary sentence keeps one.

Each Cyrillic or Greek letter takes six characters percent-encoded, a vocalised Arabic one
twelve (letter and haraka), a CJK one nine: four edge words, or a CJK start term cut at a
fixed length, left such quotes without a fragment, or with one Chromium matches nowhere.
"""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from bot.deeplinks import MAX_FRAGMENT_CHARS, text_fragment

RUSSIAN = (
    "Пропуск сотрудника необходимо продлевать ежегодно в отделе безопасности на третьем "
    "этаже главного здания компании."
)
# long words: the first and last four are too long together, three each fit
RUSSIAN_LONG_WORDS = (
    "Ответственность руководителей структурных подразделений за своевременное предоставление "
    "отчётности определяется соответствующими нормативными документами предприятия."
)
ARABIC_SEVEN = "يَتَوَجَّبُ عَلَى المُوَظَّفِينَ المُسْتَجَدِّينَ اسْتِكْمَالُ إِجْرَاءَاتِ التَّسْجِيلِ."
ARABIC_EIGHT = "يَتَوَجَّبُ عَلَى المُوَظَّفِينَ المُسْتَجَدِّينَ اسْتِكْمَالُ إِجْرَاءَاتِ التَّسْجِيلِ الإِلِكْتْرُونِيِّ."
JAPANESE = (
    "設定ファイルは必ず管理者が編集し、変更内容を記録してから、"
    "サーバーを再起動して新しい設定を読み込ませる必要があります。"
)


def terms(quote: str) -> list[str]:
    directive = text_fragment(quote)
    assert directive is not None and len(directive) <= MAX_FRAGMENT_CHARS
    return [unquote(term) for term in directive.removeprefix(":~:text=").split(",")]


def test_a_russian_sentence_keeps_its_text_fragment() -> None:
    assert terms(RUSSIAN) == [
        "Пропуск сотрудника необходимо продлевать",
        "этаже главного здания компании.",
    ]


def test_long_words_fall_back_to_fewer_edge_words() -> None:
    assert terms(RUSSIAN_LONG_WORDS) == [
        "Ответственность руководителей структурных",
        "нормативными документами предприятия.",
    ]
    assert terms(ARABIC_EIGHT) == [
        "يَتَوَجَّبُ عَلَى المُوَظَّفِينَ",
        "إِجْرَاءَاتِ التَّسْجِيلِ الإِلِكْتْرُونِيِّ.",
    ]


def test_a_short_vocalised_arabic_sentence_is_linked_whole() -> None:
    assert terms(ARABIC_SEVEN) == [ARABIC_SEVEN]


def test_a_shorter_end_term_is_not_one_found_earlier_in_the_quote() -> None:
    # the last one to three words come earlier too: the browser would end the highlight there
    repeated = RUSSIAN_LONG_WORDS.replace(
        "за своевременное", "нормативными документами предприятия. за своевременное"
    )
    assert text_fragment(repeated) is None


def test_a_cjk_sentence_that_fits_is_linked_whole() -> None:
    assert terms(JAPANESE) == [JAPANESE]


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        # the first clause whole: "設定ファイルは必" ends inside 必ず, which Chromium never matches
        (
            JAPANESE + "変更は翌日から有効です。",
            ["設定ファイルは必ず管理者が編集し", "変更は翌日から有効です。"],
        ),
        # "3,000" and "config.yaml" are one word each, not cut at their marks
        (
            "価格は3,000円で、お客様の設定はconfig.yamlで管理されておりますので、サーバーを起動する"
            "前に必ずすべての必須項目を確認して頂けますようお願い申し上げます。",
            [
                "価格は3,000円で",
                "サーバーを起動する前に必ずすべての必須項目を確認して頂けますようお願い申し上げます。",
            ],
        ),
        # a first clause too long with the last one: cut where Latin meets katakana
        (
            "バックアップは毎晩午前2時にS3バケットへ自動的に保存されますが、保存期間は30日間なので、"
            "それより古いデータが必要な場合は事前にアーカイブ担当者へ連絡してダウンロードしてください。",
            [
                "バックアップは毎晩午前2時にS3",
                "それより古いデータが必要な場合は事前にアーカイブ担当者へ連絡してダウンロードしてください。",
            ],
        ),
        # a bracket is a cut but ends no clause
        (
            "「設定」画面を開き、ユーザー管理タブから新しいアカウントを追加してください。その後、"
            "権限グループを選択して保存ボタンを押すと、招待メールが自動的に送信されて、"
            "受け取った人はリンクから登録できます。",
            ["「設定」画面を開き", "受け取った人はリンクから登録できます。"],
        ),
    ],
)
def test_cjk_terms_are_whole_clauses_or_end_where_the_script_changes(
    quote: str, expected: list[str]
) -> None:
    assert terms(quote) == expected
