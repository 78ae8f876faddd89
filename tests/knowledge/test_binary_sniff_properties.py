"""Property tests for telling binary files from text (bot/knowledge/encoding.py
``looks_binary``): text in UTF-8 or a legacy encoding never looks binary, and a valid UTF-8
file is never refused as binary unless it holds a NUL byte.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.document import Unreadable
from bot.knowledge.encoding import BINARY, decode, looks_binary

# text a person writes: no C0 control but tab, line feed, form feed and carriage return, no DEL
_TEXT = st.text(
    st.characters(
        blacklist_categories=["Cs"],
        blacklist_characters=[chr(c) for c in (*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F)],
    ),
    max_size=3000,
)


@given(_TEXT)
def test_utf8_text_never_looks_binary(text: str) -> None:
    assert not looks_binary(text.encode("utf-8"))


@given(_TEXT, st.sampled_from(["cp1252", "latin-1", "shift_jis", "gbk", "koi8-r", "cp1250"]))
def test_legacy_text_never_looks_binary(text: str, encoding: str) -> None:
    assert not looks_binary(text.encode(encoding, errors="ignore"))


@given(st.text(max_size=3000))
def test_valid_utf8_is_text_unless_it_holds_a_nul(text: str) -> None:
    data = text.encode("utf-8", errors="surrogatepass")
    try:
        decode(data)
    except Unreadable as exc:
        assert str(exc) != BINARY or b"\x00" in data[:8192], text
        assert "\x00" in text or any("\ud800" <= ch <= "\udfff" for ch in text)


@given(st.binary(max_size=20000))
def test_any_bytes_are_judged_without_an_exception(data: bytes) -> None:
    assert isinstance(looks_binary(data), bool)
