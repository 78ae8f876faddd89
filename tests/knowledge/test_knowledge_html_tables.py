"""HTML tables: read as a Markdown pipe table ("| Team | $10 |" under its ``<th>`` header), a
row never cut into cells, and a row of one cell read as a paragraph."""

from __future__ import annotations

from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.html_reader import read_html

PRICES = """<html><head><title>Plans</title></head><body><h2>Prices</h2>
<table>
  <thead><tr><th>Plan</th><th>Price</th></tr></thead>
  <tbody>
    <tr><td>Team</td><td>$10</td></tr>
    <tr><td><p>Business</p><p>with SSO</p></td><td>$20<br>per seat</td></tr>
    <tr><td>Legacy<td>$5
  </tbody>
</table>
<p>Prices exclude tax.</p></body></html>"""


def test_a_table_is_one_pipe_table_block_with_its_header() -> None:
    doc = read_html(PRICES, "plans.html")
    assert [(b.section, b.text) for b in doc.blocks] == [
        (
            "Prices",
            "| Plan | Price |\n"
            "| --- | --- |\n"
            "| Team | $10 |\n"
            "| Business with SSO | $20 per seat |\n"
            "| Legacy | $5 |",
        ),
        ("Prices", "Prices exclude tax."),
    ]


def test_a_table_without_a_header_row_has_no_delimiter_and_a_pipe_is_escaped() -> None:
    page = "<table><tr><td>a|b</td><td></td><td>c</td></tr><tr><th>x</th><td>y</td></tr></table>"
    doc = read_html(page, "t.html")
    assert [b.text for b in doc.blocks] == ["| a\\|b |  | c |\n| x | y |"]


def test_a_table_or_code_inside_a_cell_stays_a_block_of_its_own() -> None:
    page = (
        "<table><tr><td>outer</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td>"
        "<td>after</td></tr><tr><td>list files</td><td><pre>ls -l</pre></td></tr></table>"
    )
    doc = read_html(page, "t.html")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("text", "outer"),
        ("text", "| in1 | in2 |"),
        ("text", "after"),
        ("text", "list files"),
        ("code", "ls -l"),
    ]


def test_a_row_is_never_split_between_chunks(tmp_path: Path) -> None:
    rows = "".join(f"<tr><td>Plan {n}</td><td>{n} euros</td></tr>" for n in range(60))
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "plans.html").write_text(f"<table>{rows}</table>", encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"), chunk_chars=200)
    ingest([tmp_path / "kb"], settings)
    found = KnowledgeIndex(settings.path).search("plan euros", limit=50)
    assert len(found) > 3
    lines = {line for source in found for line in (source.text or "").split("\n")}
    assert sorted(lines, key=lambda line: int(line.split()[2])) == [
        f"| Plan {n} | {n} euros |" for n in range(60)
    ]


def test_a_table_that_lays_out_a_page_keeps_its_paragraphs() -> None:
    page = (
        "<table><tr><td><p>Menu</p></td><td><h1>Guide</h1><p>First paragraph.</p>"
        "<p>Second paragraph.</p></td></tr></table>"
    )
    doc = read_html(page, "old.html")
    assert [(b.section, b.text) for b in doc.blocks] == [
        (None, "Menu"),
        ("Guide", "First paragraph."),
        ("Guide", "Second paragraph."),
    ]


def test_each_chunk_of_a_long_table_opens_with_its_header(tmp_path: Path) -> None:
    rows = "".join(f"<tr><td>Plan {n}</td><td>{n} euros</td></tr>" for n in range(60))
    page = f"<table><tr><th>Plan</th><th>Price</th></tr>{rows}</table>"
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "plans.html").write_text(page, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"), chunk_chars=200)
    ingest([tmp_path / "kb"], settings)
    found = KnowledgeIndex(settings.path).search("plan euros", limit=50)
    assert len(found) > 3
    # a row keeps its column names in every passage, as a Markdown table's does
    assert all((s.text or "").startswith("| Plan | Price |\n| --- | --- |\n") for s in found)
