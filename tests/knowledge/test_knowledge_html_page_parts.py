"""HTML pages as browsers read them: an implied end of <head>, page furniture, icon titles and
permalink marks stay out of the text, the title and the section paths."""

from __future__ import annotations

from pathlib import Path

from bot.knowledge.html_reader import read_html
from bot.knowledge.readers import read_document

DAEMON = "The quibble daemon rotates its logs every Sunday at midnight."


def test_a_page_without_the_optional_head_end_tag_has_its_body() -> None:
    page = (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Quibble notes</title>"
        f"<body><h1>Quibble notes</h1><p>{DAEMON}</p></body></html>"
    )
    doc = read_document(Path("q.html"), page.encode())
    assert doc.title == "Quibble notes"
    assert [(b.text, b.section) for b in doc.blocks] == [(DAEMON, "Quibble notes")]


def test_body_content_without_head_or_body_tags_ends_the_head() -> None:
    doc = read_html(f"<head><title>Notes</title><p>{DAEMON}", "n.html")
    assert (doc.title, [b.text for b in doc.blocks]) == ("Notes", [DAEMON])
    bare = read_html(f"<title>Notes</title>{DAEMON}", "bare.html")
    assert (bare.title, [b.text for b in bare.blocks]) == ("Notes", [DAEMON])


PAGE = """<!doctype html>
<html><head><title>Blorp service guide</title>
<link rel="canonical" href="https://blorp.test/guide"></head>
<body>
<nav><a href="/">Home</a> <a href="/p">Pricing</a> <a href="/r">Blorp retention policy</a></nav>
<svg aria-hidden="true"><title>Hamburger menu icon</title><path d="M0 0"/></svg>
<main>
<h1>Blorp service guide<a class="headerlink" href="#g">¶</a></h1>
<div hidden><p>Blorp retention draft that nobody sees.</p><div>nested</div></div>
<span aria-hidden="true">Blorp decorative text</span>
<section>
<h2>Retention <a href="#retention" title="Permanent link">&para;</a></h2>
<p>Blorp keeps uploaded snarfs for <strong>forty-two</strong> days.</p>
<h3><a href="#exports">Exports</a> §</h3>
<p>Exports of snarfs are written as NDJSON files.</p>
</section>
</main>
<footer>Copyright Blorp Inc. All rights reserved.</footer>
</body></html>"""


def test_navigation_footer_and_hidden_elements_are_not_text() -> None:
    doc = read_html(PAGE, "guide.html")
    assert [b.text for b in doc.blocks] == [
        "Blorp keeps uploaded snarfs for forty-two days.",
        "Exports of snarfs are written as NDJSON files.",
    ]
    assert doc.url == "https://blorp.test/guide"


def test_an_svg_title_is_not_part_of_the_page_title() -> None:
    assert read_html(PAGE, "guide.html").title == "Blorp service guide"


def test_permalink_marks_are_not_part_of_section_paths() -> None:
    doc = read_html(PAGE, "guide.html")
    assert [b.section for b in doc.blocks] == [
        "Blorp service guide > Retention",
        "Blorp service guide > Retention > Exports",
    ]


SPHINX = """<!doctype html><html><head><title>Retention — Blorp 2.0 documentation</title></head>
<body>
<div class="related" role="navigation" aria-label="related navigation">
  <h3>Navigation</h3><ul><li><a href="genindex.html">index</a></li>
  <li><a href="export.html">next</a> |</li></ul></div>
<div class="document"><div class="body" role="main">
  <section id="retention"><h1>Retention</h1>
  <p>Blorp keeps uploaded snarfs for forty-two days.</p></section>
</div></div>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation">
  <h3>Table of contents</h3><ul><li><a href="export.html">Blorp exports</a></li></ul>
  <div id="searchbox" role="search"><h3>Quick search</h3><form><input name="q"></form></div>
</div>
<div class="footer" role="contentinfo">&copy; Blorp Inc. Powered by Sphinx.</div>
</body></html>"""


def test_elements_with_the_roles_of_nav_and_footer_are_not_text() -> None:
    doc = read_html(SPHINX, "retention.html")
    assert [(b.section, b.text) for b in doc.blocks] == [
        ("Retention", "Blorp keeps uploaded snarfs for forty-two days."),
    ]
    assert doc.title == "Retention — Blorp 2.0 documentation"
