"""A UTF-16 file without a byte-order mark is still skipped as binary (nothing says for certain
which encoding it is), but the reason says what it looks like and how to save it."""

from __future__ import annotations

import pytest

from bot.knowledge.document import Unreadable
from bot.knowledge.encoding import decode, decode_html

TEXT = "# Forklifts\n\nForklift licences are renewed every three years.\n"
HINT = "save it as UTF-8, or as UTF-16 with a BOM"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_named_with_the_fix(codec: str) -> None:
    with pytest.raises(
        Unreadable, match=r"^binary content \(it looks like UTF-16 without a byte-order mark"
    ):
        decode(TEXT.encode(codec))
    page = '<html><head><meta charset="windows-1252"></head><body><p>Hi there.</p></body></html>'
    with pytest.raises(Unreadable, match=HINT):
        decode_html(page.encode(codec))


def test_other_binary_content_gets_no_such_hint() -> None:
    with pytest.raises(Unreadable, match=r"^binary content$"):
        decode(bytes(range(256)) * 8)
