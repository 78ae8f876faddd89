"""Chinese, Japanese and Korean text for the search index and for term matching.

These scripts do not put spaces between words, so SQLite's ``unicode61`` tokenizer would keep a
whole run ("日本語のテキスト文書です") as one token, and no word inside it could be found. So:

- a CJK run of a question or a passage becomes overlapping bigrams ("東京タワー": "東京",
  "タワ", "ワー" …; :func:`cjk_terms`);
- the index stores every CJK character and every such bigram as a token of its own
  (:func:`fts_text` writes them apart; the text shown and quoted, ``chunks.text``, stays as
  written), so the search looks a bigram up as one token (:func:`fts_phrase`). Schema 5 held
  the characters only and searched a bigram as the phrase of its two characters: a rare word of
  two common characters then walked both characters' position lists through most of the
  index (``bench/knowledge.py``, 100,000 CJK chunks: search p95 63 ms, now 13 ms, for an
  index 1.5 times as large and ingestion at 0.43 times the speed).

Runs are first split where the script changes (Han, Hiragana, Katakana, Hangul): in Japanese a
change of script is the nearest thing to a word boundary ("設定ファイル" is "設定" and "ファイル";
"東京の" is "東京" and the particle "の"), so no bigram straddles one. Compatibility forms
(half-width katakana "ﾃｷｽﾄ", CJK compatibility ideographs) are NFKC-normalised, in the index
and in questions alike, so either spelling finds the other.
"""

from __future__ import annotations

import re
import unicodedata
from typing import overload

# The letters of these scripts (and kana's combining voicing marks, which NFKC composes with the
# letter before them); no punctuation or symbol, which stays a separator for FTS5 and the words
# regex alike. The ranges also cover a few unassigned code points, never found in real text.
_HAN = (
    "\u3005-\u3007\u303b"  # 々 〆 〇 〻: iteration and closing marks written inside words
    "\u3400-\u4dbf"  # Extension A
    "\u4e00-\u9fff"  # Unified Ideographs
    "\uf900-\ufaff"  # Compatibility Ideographs
    "\U00020000-\U000323af"  # Extensions B to I and the Compatibility Supplement between
)
_HIRAGANA = (
    "\u3041-\u3096\u3099-\u309a\u309d-\u309f"  # Hiragana (with the combining voicing marks)
    "\U0001b000-\U0001b16f"  # Kana Supplement, Extended-A, Small Kana (hentaigana, mostly)
)
_KATAKANA = (
    "\u30a1-\u30fa\u30fc-\u30ff"  # Katakana without ゠ and ・ (punctuation)
    "\u31f0-\u31ff"  # Katakana Phonetic Extensions
    "\uff66-\uff9f"  # half-width katakana, its ｰ and voicing marks (not ･, punctuation)
)
_HANGUL = "\uac00-\ud7a3"  # Hangul syllables (Korean written without spaces inside a word)

_CJK = _HAN + _HIRAGANA + _KATAKANA + _HANGUL
CJK_RUN = re.compile(f"[{_CJK}]+")
# The same-script parts of a run (the last branch only keeps the rest whole, never expected)
_PARTS = re.compile(f"[{_HAN}]+|[{_HIRAGANA}]+|[{_KATAKANA}]+|[{_HANGUL}]+|[^{_CJK}]+")
# A particle or an inflection written in hiragana ("の", "です", "ますか") says little about what
# a question is about; :func:`is_function_term` lets a question leave such terms out.
_ALL_HIRAGANA = re.compile(f"[{_HIRAGANA}]+")
_KANA = re.compile(f"[{_HIRAGANA}{_KATAKANA}]")
# Japanese question words that stand alone between particles ("何メートル", "誰が").
_JA_QUESTION_WORDS = frozenset({"何", "誰"})
# Chinese particles, copulas and question words (simplified and traditional): a bigram that holds
# one ("宫在", "在哪" of "故宫在哪里") straddles a word boundary or only shapes the question.
_ZH_FUNCTION = frozenset("的了是在有和吗嗎呢吧啊哪谁誰么麼什怎")


# The UTF-8 encoding of every CJK character above starts with one of these bytes (U+3005 to
# U+D7A3: E3 to ED; U+F900 to U+FFEF: EF; U+1B000 and up: F0). Text with none of them has no
# CJK character, which a C-speed bytes.translate tells several times faster than the regex.
_CJK_LEADS = frozenset([*range(0xE3, 0xEE), 0xEF, 0xF0])
_NOT_CJK_LEAD = bytes(b for b in range(256) if b not in _CJK_LEADS)


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds any CJK character (the fast test before any CJK handling).

    Cheap for text without any, so English is indexed and scored at the same speed as before.
    """
    if text.isascii():
        return False
    if not text.encode("utf-8", "surrogatepass").translate(None, _NOT_CJK_LEAD):
        return False
    return CJK_RUN.search(text) is not None


def _normal(run: str) -> str:
    # NFKC maps half-width katakana ("ｶﾞ" -> "ガ") and compatibility ideographs to their usual
    # forms; every character it yields for a CJK run is itself a CJK character.
    return unicodedata.normalize("NFKC", run)


def normalize_cjk(text: str) -> str:
    """``text`` with its CJK runs NFKC-normalised (the rest untouched), as :func:`fts_text` and
    :func:`cjk_terms` read them: "カ" and a combining U+3099 are the word character "ガ"."""
    return CJK_RUN.sub(lambda m: _normal(m.group(0)), text)


@overload
def fts_text(text: str) -> str: ...
@overload
def fts_text(text: None) -> None: ...
def fts_text(text: str | None) -> str | None:
    """``text`` as the index stores it: each CJK character, then each bigram of
    :func:`cjk_terms`, a separate token ("東京タワー" -> "東 京 東京 タ ワ ー タワ ワー").

    Deterministic, so the writer can give FTS5 the very values it inserted when it deletes a
    row (an external-content table needs them). Text without CJK is returned unchanged, so
    other languages are indexed, and ranked, exactly as before.
    """
    if text is None or not has_cjk(text):
        return text
    return CJK_RUN.sub(lambda m: " " + " ".join(_index_tokens(m.group(0))) + " ", text)


def _index_tokens(run: str) -> list[str]:
    # The characters find a one-character term ("高" of "高さ" in "最高"); the bigrams, the same
    # as :func:`cjk_terms` makes of a question, find a longer word with one token lookup each.
    out: list[str] = []
    for part in _PARTS.findall(_normal(run)):
        out.extend(part)
        out.extend(map(str.__add__, part, part[1:]))
    return out


def cjk_terms(run: str) -> list[str]:
    """The terms of a run of CJK characters: overlapping bigrams of each same-script part.

    A part of one character is a term of its own ("東京の" gives "東京" and "の").
    """
    out: list[str] = []
    for part in _PARTS.findall(_normal(run)):
        if len(part) == 1:
            out.append(part)
        else:
            out.extend(map(str.__add__, part, part[1:]))
    return out


def split_mixed(word: str) -> list[str]:
    """``word`` cut into CJK runs and the rest: "citecastの設定" -> ["citecast", "の設定"]."""
    pieces: list[str] = []
    last = 0
    for match in CJK_RUN.finditer(word):
        if match.start() > last:
            pieces.append(word[last : match.start()])
        pieces.append(match.group(0))
        last = match.end()
    if last < len(word):
        pieces.append(word[last:])
    return pieces


def is_cjk_term(term: str) -> bool:
    """Whether ``term`` (a word of :func:`bot.knowledge.terms.words`) is a CJK term."""
    return bool(term) and CJK_RUN.fullmatch(term) is not None


def has_kana(text: str) -> bool:
    """Whether ``text`` holds hiragana or katakana: Japanese rather than Chinese."""
    return _KANA.search(text) is not None


def is_function_term(term: str, japanese: bool) -> bool:
    """Whether the CJK ``term`` of a question only shapes it, as English stop words do.

    In Japanese (``japanese``: the question has kana): a term all in hiragana, a particle or
    an inflection more often than not ("の", "です"), and the question words 何 and 誰. In
    Chinese: a bigram holding a particle, copula or question word ("在哪", "城有"): Chinese
    writes these inside the run, so their bigrams straddle the words around them.
    """
    if _ALL_HIRAGANA.fullmatch(term) is not None:
        return True
    if japanese:
        return term in _JA_QUESTION_WORDS
    return any(char in _ZH_FUNCTION for char in term)


def fts_phrase(term: str) -> str:
    """``term`` as a quoted FTS5 string: a CJK term of one or two characters is one token of
    the index; a longer one (never made by :func:`cjk_terms`) needs every bigram of it."""
    if is_cjk_term(term):
        grams = cjk_terms(term)
        if len(grams) == 1:
            return f'"{grams[0]}"'
        return "(" + " AND ".join(f'"{gram}"' for gram in grams) + ")"
    return '"' + " ".join(term.split()).replace('"', '""') + '"'
