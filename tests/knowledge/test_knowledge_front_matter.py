"""Front matter that cannot be read skips the file: it may name an audience, so never public."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Document, Unreadable
from bot.knowledge.markdown_reader import read_markdown
from bot.knowledge.readers import read_document

# The package exports the function `ingest` under the module's name.
ingest_module = importlib.import_module("bot.knowledge.ingest_file")

BODY = "# Payroll\n\nThe okapi salary is 450000 euros per year.\n"


@pytest.mark.parametrize(
    ("front_matter", "reason"),
    [
        (
            "title: Payroll: internal only\naudience: [staff]",
            "front matter is not valid YAML: mapping values are not allowed here "
            "(line 2, column 15)",
        ),
        (
            "title: Hiring plan\naudience:\t[staff]",
            "front matter is not valid YAML: found character '\\t' that cannot start any token "
            "(line 3, column 10)",
        ),
        (
            "audience: [staff]\naudience: public",
            "front matter is not valid YAML: key 'audience' is written twice (line 3, column 1)",
        ),
        ("date: 2001-02-30\naudience: staff", "front matter is not valid YAML: day is out of"),
        ("Just a sentence.", "front matter is not a mapping of keys (it is a YAML str)"),
        ("- staff\n- hr", "front matter is not a mapping of keys (it is a YAML list)"),
    ],
)
def test_unreadable_front_matter_makes_the_file_unreadable(front_matter: str, reason: str) -> None:
    for closing in ("---", "..."):
        with pytest.raises(Unreadable) as raised:
            read_markdown(f"---\n{front_matter}\n{closing}\n{BODY}", "payroll.md")
        assert str(raised.value).startswith(reason)


def test_empty_front_matter_and_merge_keys_are_fine() -> None:
    # An empty block (Jekyll writes one) is no front matter, not text; a merge key may be
    # overridden on purpose, so it is not a key written twice.
    for front_matter in ("", "# only a comment", "<<: {title: T}\ntitle: Pay"):
        doc = read_markdown(f"---\n{front_matter}\n---\n{BODY}", "payroll.md")
        assert doc.audience is None and doc.title in ("Pay", "Payroll")
        assert [b.text for b in doc.blocks] == ["The okapi salary is 450000 euros per year."]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_ingest_skips_a_private_file_with_bad_front_matter(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    _write(kb / "payroll.md", f"---\ntitle: Payroll: internal only\naudience: [staff]\n---\n{BODY}")
    _write(kb / "tabs.md", f"---\ntitle: Hiring\naudience:\t[staff]\n---\n{BODY}")
    _write(kb / "faq.md", "# FAQ\n\nOkapi questions.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    report = ingest([kb], settings)
    reasons = {s.path: s.reason for s in report.skipped}
    assert set(reasons) == {"kb/payroll.md", "kb/tabs.md"}
    assert all(r.startswith("front matter is not valid YAML") for r in reasons.values())
    index = KnowledgeIndex(settings.path)
    assert [s.filename for s in index.search("okapi", ["staff"])] == ["faq.md"]
    assert index.search("salary internal staff") == []


def test_files_indexed_by_the_lenient_reader_are_read_again_and_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index written before the fix holds such a file as public text; the next run re-reads
    it (the reader version is part of every fingerprint) and drops it."""
    kb = tmp_path / "kb"
    _write(kb / "payroll.md", f"---\ntitle: Payroll: internal only\naudience: [staff]\n---\n{BODY}")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    lenient = Document(title="payroll.md", media_type="text/markdown")
    lenient.blocks.extend(read_markdown(BODY, "payroll.md").blocks)
    with monkeypatch.context() as old:
        old.setattr(ingest_module, "READER_VERSION", "1")
        old.setattr(ingest_module, "read_document", lambda path, data: lenient)
        assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    assert [s.filename for s in index.search("okapi salary")] == ["payroll.md"]
    report = ingest([kb], settings)
    assert (report.unchanged, report.removed, len(report.skipped)) == (0, 1, 1)
    assert index.search("okapi salary") == []


@pytest.mark.parametrize(
    ("opening", "reason"),
    [
        (
            "---\ntitle: Payroll\naudience: staff\n",
            "front matter opened on line 1 is never closed (---)",
        ),
        (
            "---\ntitle: Payroll\naudience: staff\n----\n",
            "front matter opened on line 1 is never closed",
        ),
        (
            "---\naudience: staff\n\u2014 \u2014 \u2014\n",
            "front matter opened on line 1 is never closed",
        ),
        (
            '+++\ntitle = "P"\naudience = "staff"\n',
            "front matter opened on line 1 is never closed (+++)",
        ),
        ("\n\n---\naudience: staff\n", "front matter opened on line 3 is never closed (---)"),
        (" ---\naudience: staff\n---\n", "line 1 ' ---' opens what looks like front matter"),
        ("----\naudience: staff\n----\n", "line 1 '----' opens what looks like front matter"),
        ("\u200b---\naudience: staff\n---\n", "line 1 '\\u200b---' opens what looks like"),
        ("\ufeff\ufeff---\naudience: staff\n---\n", "line 1 '\\ufeff---' opens what looks like"),
    ],
)
@pytest.mark.parametrize("name", ["payroll.md", "payroll.txt", "payroll.html", "payroll.rst"])
def test_front_matter_never_closed_or_mistyped_skips_the_file(
    opening: str, reason: str, name: str
) -> None:
    """Read as text, such a block left a staff-only file public; a second byte-order mark
    stays after decoding takes off the first."""
    with pytest.raises(Unreadable) as raised:
        read_document(Path(name), f"{opening}\n{BODY}".encode())
    assert str(raised.value).startswith(reason)


@pytest.mark.parametrize(
    "text",
    [
        f"---\n\n{BODY}",
        f"---\nThe okapi intro.\n\n{BODY}",
        f" ---\ntitle: Payroll\n---\n{BODY}",
        f"----\n{BODY}\n----\n\nAudience: staff\n",
    ],
)
def test_a_leading_rule_without_an_audience_line_before_the_next_rule_is_text(text: str) -> None:
    doc = read_document(Path("payroll.md"), text.encode())
    assert doc.audience is None
    assert "The okapi salary is 450000 euros per year." in [b.text for b in doc.blocks]


def test_a_file_indexed_public_with_its_front_matter_never_closed_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reader "18" indexed such a file as public text; the next run reads it again (a new
    reader version) and drops it from the index."""
    kb = tmp_path / "kb"
    _write(kb / "payroll.md", f"---\ntitle: Payroll\naudience: staff\n\n{BODY}")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    leaked = Document(title="payroll.md", media_type="text/markdown")
    leaked.blocks.extend(read_markdown(BODY, "payroll.md").blocks)
    with monkeypatch.context() as old:
        old.setattr(ingest_module, "READER_VERSION", "18")
        old.setattr(ingest_module, "read_document", lambda path, data: leaked)
        assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    assert [s.filename for s in index.search("okapi salary")] == ["payroll.md"]
    report = ingest([kb], settings)
    assert (report.removed, [s.reason for s in report.skipped]) == (
        1,
        [
            "front matter opened on line 1 is never closed (---): end it with a line of --- "
            "alone, since it may name the file's audience"
        ],
    )
    assert index.search("okapi salary") == []
