"""The /files/ reading page decodes a file exactly as the index reads it: a Latin-1 page by its
declared charset, UTF-16 with a byte-order mark, and a file cut at the viewer's limit without a
half character."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from bot.connectors.web_file_viewer import read_for_view
from bot.knowledge.encoding import decode, decode_html

LATIN1_PAGE = (
    '<html><head><meta charset="iso-8859-1"><title>Größen</title></head>'
    "<body><p>Die Größe für Café-Tische: 80 cm — «groß».</p></body></html>\n"
).encode("cp1252")
MARKDOWN = "# Größen\n\nDie Größe für Café-Tische ist 80 cm.\n"


@pytest.mark.parametrize(
    ("name", "kind", "data"),
    [
        ("page.html", "html", LATIN1_PAGE),
        ("u16.md", "markdown", codecs.BOM_UTF16_LE + MARKDOWN.encode("utf-16-le")),
        (
            "u16be.html",
            "html",
            codecs.BOM_UTF16_BE + LATIN1_PAGE.decode("cp1252").encode("utf-16-be"),
        ),
        ("u32.txt", "text", codecs.BOM_UTF32_LE + MARKDOWN.encode("utf-32-le")),
        ("bom8.md", "markdown", codecs.BOM_UTF8 + MARKDOWN.encode()),
    ],
)
def test_the_viewer_shows_the_text_the_index_reads(
    tmp_path: Path, name: str, kind: str, data: bytes
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    read = decode_html(data) if kind == "html" else decode(data)
    shown = read_for_view(path, name, kind).text
    assert shown.replace("\r\n", "\n") == read
    assert "Größe für Café" in shown and "\ufffd" not in shown


def test_a_cut_utf16_file_ends_at_a_whole_line(tmp_path: Path) -> None:
    text = "".join(f"Zeile {n}: Größe {n} cm\n" for n in range(200))
    path = tmp_path / "long.md"
    path.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    viewed = read_for_view(path, "long.md", "markdown", limit=1001)
    assert viewed.truncated
    assert viewed.text.endswith("cm\n") and "\ufffd" not in viewed.text
    assert text.startswith(viewed.text)


def test_a_utf8_file_cut_inside_a_character_is_still_utf8(tmp_path: Path) -> None:
    text = "<html><body>" + "<p>Größe größer am größten</p>\n" * 100
    path = tmp_path / "long.html"
    path.write_bytes(text.encode())
    viewed = read_for_view(path, "long.html", "html", limit=len("<html><body><p>Gr") + 1)
    assert viewed.text == "<html><body><p>Gr" or text.startswith(viewed.text)
    assert "\ufffd" not in viewed.text
