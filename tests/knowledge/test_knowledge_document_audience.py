"""A document's audience is written out: an empty one is refused, never taken as public."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.errors import ValidationError
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.audience import document_audience
from bot.knowledge.document import Unreadable
from bot.knowledge.html_reader import read_html
from bot.knowledge.markdown_reader import read_markdown

# ``PUBLIC`` was a group of that name in older releases: neither reading is guessed
PUBLIC_CASE = (
    "write public in lower case for everyone, or choose a group name that is not public in "
    "another case"
)


@pytest.mark.parametrize(
    ("value", "groups"),
    [
        ("staff", ("staff",)),
        (" staff , hr ", ("staff", "hr")),
        (["staff", "hr, ops", "staff"], ("staff", "hr", "ops")),
        ([2024], ("2024",)),
        ("public", ("public",)),
        ([" public ", "public"], ("public",)),
        ("Publicity", ("Publicity",)),
    ],
)
def test_names_are_split_stripped_and_kept_once(value: object, groups: tuple[str, ...]) -> None:
    assert document_audience(value) == groups


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "audience '' names no group; write public if everyone may read it"),
        ([], "audience [] names no group"),
        ([""], "audience [''] names no group"),
        ([None], "audience [None] names no group"),
        (None, "audience is blank and names no group"),
        ("staff,", "empty group name in audience 'staff,'"),
        (["staff", " "], "empty group name in audience ['staff', ' ']"),
        ([True], "audience entries must be group names, not True"),
        ({"staff": 1}, "audience entries must be group names"),
        ("Public", f"audience 'Public': {PUBLIC_CASE}"),
        (" PUBLIC , staff", f"audience 'PUBLIC': {PUBLIC_CASE}"),
        (["public", "pubLic"], f"audience 'pubLic': {PUBLIC_CASE}"),
    ],
)
def test_no_group_or_an_empty_name_is_refused(value: object, message: str) -> None:
    with pytest.raises(ValidationError) as info:
        document_audience(value)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("[]", "front matter audience [] names no group"),
        ('[""]', "front matter audience [''] names no group"),
        ('""', "front matter audience '' names no group"),
        ("", "front matter audience is blank and names no group"),  # the key left blank
        ("staff,", "empty group name in front matter audience 'staff,'"),  # a blank template value
        ("[staff, '']", "empty group name in front matter audience ['staff', '']"),
    ],
)
def test_front_matter_with_an_empty_audience_is_unreadable(written: str, reason: str) -> None:
    text = f"---\ntitle: Salaries\naudience: {written}\n---\nSalary bands.\n"
    with pytest.raises(Unreadable) as info:
        read_markdown(text, "salaries.md")
    assert str(info.value) == f"{reason}; write public if everyone may read it"


def test_html_meta_with_an_empty_audience_is_unreadable() -> None:
    html = '<html><head><meta name="citecast:audience" content=" "></head><p>Pay.</p></html>'
    with pytest.raises(Unreadable, match="names no group"):
        read_html(html, "pay.html")


def test_an_empty_front_matter_audience_keeps_the_file_out_of_public_search(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "open.md").write_text("Walrus facts for everyone.\n")
    (docs / "pay.md").write_text("---\naudience: []\n---\nWalrus salary bands.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    report = ingest([docs], settings)
    assert [(s.path, s.reason) for s in report.skipped] == [
        (
            "kb/pay.md",
            "front matter audience [] names no group; write public if everyone may read it",
        )
    ]
    found = KnowledgeIndex(settings.path).search("walrus", ["staff", "board"])
    assert [s.filename for s in found] == ["open.md"]


def test_ingest_refuses_an_empty_default_audience(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "pay.md").write_text("Walrus salary bands.\n")
    with pytest.raises(ValidationError, match="names no group"):
        ingest([docs], IndexSettings(path=str(tmp_path / "index.db")), audience=[""])
    assert not (tmp_path / "index.db").exists()


@pytest.mark.parametrize(
    "head",
    [
        '<meta name="citecast:audience" content="Public">',
        '<meta property="citecast:audience" content="PUBLIC">',
    ],
)
def test_a_page_for_public_in_another_case_is_unreadable(head: str) -> None:
    """``PUBLIC`` was a group of that name: read as everyone, a private page was published."""
    with pytest.raises(Unreadable, match=f"^audience 'P(ublic|UBLIC)': {PUBLIC_CASE}$"):
        read_html(f"<html><head>{head}</head><p>Pay.</p></html>", "pay.html")


def test_a_meta_tag_written_with_property_names_the_audience() -> None:
    """Ignored, it left the page it meant to keep for staff public."""
    head = '<meta property="citecast:audience" content="staff">'
    page = read_html(f"<html><head>{head}</head><p>Pay.</p></html>", "pay.html")
    assert page.audience == ("staff",)


@pytest.mark.parametrize("written", ["Public", "PUBLIC", "[staff, PUBLIC]"])
def test_a_file_for_public_in_another_case_is_skipped_with_the_reason(
    tmp_path: Path, written: str
) -> None:
    """An older release read ``PUBLIC`` as a private group of that name: published on upgrade,
    or hidden from everyone, either could be wrong, so the file is skipped and says why."""
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "minutes.md").write_text(f"---\naudience: {written}\n---\nWalrus board minutes.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    report = ingest([docs], settings)
    assert report.indexed == 0
    name = written.strip("[]").split(", ")[-1]
    reason = f"front matter audience {name!r}: {PUBLIC_CASE}"
    assert [(s.path, s.reason) for s in report.skipped] == [("kb/minutes.md", reason)]
    assert KnowledgeIndex(settings.path).search("walrus") == []
