"""A binary file is "binary content" even without a NUL byte; legacy-encoded text is not."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.knowledge.document import Unreadable
from bot.knowledge.encoding import decode, decode_html
from bot.knowledge.readers import read_document

TEXT = (
    "Wombat care\n\nFeed the wombat at dawn. Café crème, naïve résumé, “quotes” – and more.\f\n"
    "Second page:\tcolumns\tand a tab.\r\n"
) * 40


def _binary_without_nul(size: int = 4096) -> bytes:
    # compressed or encrypted data: every byte value alike, here with the NULs left out
    rng = random.Random(7)
    return bytes(rng.randrange(1, 256) for _ in range(size))


def test_binary_data_without_a_nul_byte_is_binary_content() -> None:
    data = _binary_without_nul()
    assert b"\x00" not in data
    with pytest.raises(Unreadable, match=r"^binary content$"):
        decode(data)


def test_a_binary_file_named_md_is_skipped_as_binary(tmp_path: Path) -> None:
    with pytest.raises(Unreadable, match=r"^binary content$"):
        read_document(Path("notes.md"), _binary_without_nul())


def test_a_binary_page_is_not_read_in_the_charset_it_seems_to_declare() -> None:
    data = b'<meta charset="windows-1252">' + _binary_without_nul()
    with pytest.raises(Unreadable, match=r"^binary content$"):
        decode_html(data)


@pytest.mark.parametrize(
    ("text", "codec", "line"),
    [
        (TEXT, "cp1252", 3),
        (TEXT.replace("“", '"').replace("”", '"').replace("–", "-"), "latin-1", 3),
        ("Привет, мир. Кормите вомбата на рассвете.\n" * 40, "koi8-r", 1),
        ("ウォンバットの世話。夜明けに餌をやる。\n" * 40, "shift_jis", 1),
        ("袋熊的照顾。黎明时喂袋熊。\n" * 40, "gbk", 1),
    ],
    ids=["windows-1252", "latin-1", "koi8-r", "shift-jis", "gbk"],
)
def test_text_in_a_legacy_encoding_keeps_the_save_as_utf8_advice(
    text: str, codec: str, line: int
) -> None:
    advice = rf"^not UTF-8 text \(line {line}\); save it as UTF-8$"
    with pytest.raises(Unreadable, match=advice):
        decode(text.encode(codec))


def test_a_few_stray_control_bytes_leave_text_as_text() -> None:
    # a DOS end-of-file mark and a bell or two: a damaged text file, still worth the advice
    data = ("Café\n" + "plain text line\n" * 30).encode("cp1252") + b"\x07\x07\x1a"
    with pytest.raises(Unreadable, match=r"^not UTF-8 text \(line 1\); save it as UTF-8$"):
        decode(data)


def test_utf8_text_with_control_bytes_is_still_read() -> None:
    # valid UTF-8 is text whatever it holds: a coloured log is judged elsewhere, not here
    data = ("\x1b[31mred\x1b[0m \x01\x02\x03\x04 line\n" * 20).encode("utf-8")
    assert decode(data).startswith("\x1b[31mred")
