"""Footnote marks of exported HTML (Google Docs, Pandoc, Sphinx) are not text: left in,
"approvals[1]" sits next to the answer's own citation marker and reads as one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge.html_reader import read_html

GOOGLE_DOC = """\
<html><head><title>Release process</title></head><body>
<h1 id="h.b"><span>Hotfixes</span></h1>
<p><span>A hotfix needs two approvals</span><sup><a href="#ftnt1" id="ftnt_ref1">[1]</a></sup>
<span>.</span></p>
<p>See <a href="#h.b">Hotfixes</a> and <a href="#step-2">step 2</a>.</p>
<hr><div><p><a href="#ftnt_ref1" id="ftnt1">[1]</a><span>&nbsp;Approvals come from the on-call
lead.</span></p></div>
<pre>grep -n '<a href="#x">[1]</a>' notes.html</pre>
</body></html>
"""


def test_footnote_marks_are_not_text() -> None:
    texts = [block.text for block in read_html(GOOGLE_DOC, "release.html").blocks]
    assert texts == [
        "A hotfix needs two approvals .",
        "See Hotfixes and step 2.",
        "Approvals come from the on-call lead.",
        "grep -n '[1]' notes.html",
    ]


@pytest.mark.parametrize(
    "link",
    [
        '<sup class="footnote-ref"><a href="#fn1" id="fnref1">1</a></sup>',  # markdown-it
        '<a class="footnote-reference brackets" href="#id2">[a]</a>',  # Sphinx
        '<a href="#fnref1" class="footnote-back">↩︎</a>',  # Pandoc's way back
    ],
)
def test_generators_footnote_links_are_not_text(link: str) -> None:
    [block] = read_html(f"<p>Keys rotate monthly{link}</p>", "keys.html").blocks
    assert block.text == "Keys rotate monthly"


def test_the_answer_quotes_no_footnote_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "release.html").write_text(GOOGLE_DOC, encoding="utf-8")
    config = tmp_path / "citecast.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "ask", "How many approvals does a hotfix need?"]) == 0
    answer = capsys.readouterr().out.split("Sources:")[0]
    assert "two approvals" in answer
    assert "\\[" not in answer  # no escaped "[1]" of the document beside the answer's "[1]"
