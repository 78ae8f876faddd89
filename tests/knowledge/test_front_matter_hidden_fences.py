"""Front matter naming an audience behind an invisible or look-alike character is never public.

A fence pasted after a no-break space, a soft hyphen or a left-to-right mark, below a line of
one zero-width space, or typed with a CJK input method's full-width hyphens or with minus
signs, is no fence to a YAML reader: read as text, the file was indexed for everyone. So was a
block never closed that names its audience in a flow mapping or as an explicit key, and one
opened by ``--- # comment``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.readers import read_document

SECRET = "The okapi salary band is 450000 euros.\n"


@pytest.mark.parametrize(
    "head",
    [
        "\u00a0---\naudience: staff\n---\n",  # a no-break space pasted before the fence
        "\u00ad---\naudience: staff\n---\n",  # a soft hyphen before it
        "\u200e---\naudience: staff\n---\n",  # a left-to-right mark before it
        "\u2003---\u00a0\naudience: staff\n---\n",  # an em space before, a no-break space after
        "\u200b\n---\naudience: staff\n---\n",  # a line of one zero-width space above it
        "\u2060\n---\naudience: staff\n---\n",  # a line of one word joiner above it
        "\u00a0\n\u200b\u3000\n---\naudience: staff\n---\n",  # lines of spaces that show nothing
        "\uff0d\uff0d\uff0d\naudience: staff\n\uff0d\uff0d\uff0d\n",  # full-width hyphens
        "\u2212\u2212\u2212\naudience: staff\n\u2212\u2212\u2212\n",  # minus signs
        "\u2010\u2011\u2012\naudience: staff\n---\n",  # hyphen, non-breaking hyphen, figure dash
        "---\n{audience: staff}\n",  # a flow mapping, never closed
        "---\n{title: Pay, audience: staff}\n",
        "---\n? audience\n: staff\n",  # an explicit key, never closed
        "--- # pay\naudience: staff\n---\n",  # a comment after the opening fence
    ],
)
def test_a_staff_file_is_never_found_by_the_public(tmp_path: Path, head: str) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "pay.md").write_text(head + SECRET, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([docs], settings)
    assert [s.filename for s in KnowledgeIndex(settings.path).search("okapi salary")] == []


@pytest.mark.parametrize(
    ("head", "reason"),
    [
        ("\u00a0---\naudience: staff\n---\n", "line 1 '\\xa0---' opens what looks like front"),
        ("\uff0d\uff0d\uff0d\naudience: staff\n", "line 1 '－－－' opens what looks like front"),
        ("---\n{audience: staff}\n", "front matter opened on line 1 is never closed (---)"),
        ("---\n? audience\n", "front matter opened on line 1 is never closed (---)"),
        ("--- # pay\naudience: staff\n---\n", "line 1 '--- # pay' opens what looks like front"),
    ],
)
def test_the_reason_names_the_line(head: str, reason: str) -> None:
    with pytest.raises(Unreadable) as raised:
        read_document(Path("pay.md"), f"{head}{SECRET}".encode())
    assert str(raised.value).startswith(reason)


def test_front_matter_below_a_line_of_invisible_characters_names_the_audience() -> None:
    doc = read_document(Path("pay.md"), f"\u200b\n---\naudience: staff\n---\n{SECRET}".encode())
    assert doc.audience == ("staff",)
    assert [b.text for b in doc.blocks] == [SECRET.strip()]


@pytest.mark.parametrize(
    "text",
    [
        f"\u00a0---\nOur audience: all readers.\n---\n{SECRET}",  # a sentence, not a key
        f"\uff0d\uff0d\uff0d\n{SECRET}",  # a full-width rule above text
        f"---\n{{a set of braces, not audience: keys}}\n\n{SECRET}",  # a flow mapping without one
        f"--- # notes\n{SECRET}",
    ],
)
def test_a_look_alike_rule_without_an_audience_key_is_text(text: str) -> None:
    doc = read_document(Path("pay.md"), text.encode())
    assert doc.audience is None
    assert any(SECRET.strip() in b.text for b in doc.blocks)
