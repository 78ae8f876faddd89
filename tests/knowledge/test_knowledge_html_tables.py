"""HTML tables: each row is one passage ("Team | $10"), never a cell on its own."""

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


def test_a_table_row_is_one_block_with_its_cells_in_order() -> None:
    doc = read_html(PRICES, "plans.html")
    assert [(b.section, b.text) for b in doc.blocks] == [
        ("Prices", "Plan | Price"),
        ("Prices", "Team | $10"),
        ("Prices", "Business with SSO | $20 per seat"),
        ("Prices", "Legacy | $5"),
        ("Prices", "Prices exclude tax."),
    ]


def test_a_table_or_code_inside_a_cell_stays_a_block_of_its_own() -> None:
    page = (
        "<table><tr><td>outer</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td>"
        "<td>after</td></tr><tr><td>list files</td><td><pre>ls -l</pre></td></tr></table>"
    )
    doc = read_html(page, "t.html")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("text", "outer"),
        ("text", "in1 | in2"),
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
    lines = [line for source in found for line in (source.text or "").split("\n\n")]
    assert sorted(lines, key=lambda line: int(line.split()[1])) == [
        f"Plan {n} | {n} euros" for n in range(60)
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
