"""A symlink inside the ingested folder is read by whom both its own path's rules and its
target's allow: a link in a public folder must not publish what a rule keeps private where the
file lies, nor a link in a private folder show its name to everyone."""

from __future__ import annotations

from pathlib import Path

from bot.config import AudienceRule, IndexSettings
from bot.knowledge import KnowledgeIndex, ingest


def _kb(tmp_path: Path) -> tuple[Path, IndexSettings]:
    kb = tmp_path / "kb"
    (kb / "internal").mkdir(parents=True)
    (kb / "faq").mkdir()
    (kb / "internal" / "pay.md").write_text("The walrus salary is 9000 euros.\n")
    settings = IndexSettings(
        path=str(tmp_path / "i.db"),
        audience_rules=[AudienceRule(glob="internal/*", audience=["staff"])],
    )
    return kb, settings


def test_a_link_to_a_private_file_stays_private(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    (kb / "faq" / "pay.md").symlink_to("../internal/pay.md")
    assert ingest([kb], settings).indexed == 2
    index = KnowledgeIndex(settings.path)
    assert index.search("walrus salary") == []
    found = index.search("walrus salary", audience={"staff"})
    assert sorted(s.id for s in found) == ["kb/faq/pay.md#1", "kb/internal/pay.md#1"]
    assert {s.audience for s in found} == {("staff",)}


def test_a_link_made_after_the_first_run_stays_private(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    ingest([kb], settings)
    (kb / "faq" / "pay.md").symlink_to("../internal/pay.md")
    report = ingest([kb], settings)
    assert (report.indexed, report.unchanged) == (1, 1)
    assert KnowledgeIndex(settings.path).search("walrus salary") == []


def test_a_link_in_a_private_folder_to_a_public_file_stays_private(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    (kb / "faq" / "hours.md").write_text("The heron desk opens at nine.\n")
    (kb / "internal" / "hours.md").symlink_to("../faq/hours.md")
    ingest([kb], settings)
    index = KnowledgeIndex(settings.path)
    assert [s.id for s in index.search("heron desk")] == ["kb/faq/hours.md#1"]
    found = index.search("heron desk", audience={"staff"})
    assert sorted(s.id for s in found) == ["kb/faq/hours.md#1", "kb/internal/hours.md#1"]


def test_a_link_whose_path_and_target_share_no_group_is_skipped(tmp_path: Path) -> None:
    kb, settings = _kb(tmp_path)
    (kb / "hr").mkdir()
    (kb / "hr" / "pay.md").symlink_to("../internal/pay.md")
    rules = [AudienceRule(glob="hr/*", audience=["hr"]), *settings.audience_rules]
    settings = settings.model_copy(update={"audience_rules": rules})
    report = ingest([kb], settings)
    assert [(s.path, s.reason) for s in report.skipped] == [
        ("kb/hr/pay.md", "a link for hr to a file for staff: no group may see both")
    ]
    index = KnowledgeIndex(settings.path)
    assert [s.id for s in index.search("walrus salary", audience={"hr"})] == []


def test_a_link_in_a_private_folder_to_a_page_its_front_matter_makes_public_stays_private(
    tmp_path: Path,
) -> None:
    # found by review: the target's front matter replaced what the link's own rule gave, so
    # internal/guide.md -> ../faq/guide.md (audience: public) was found by everyone
    kb, settings = _kb(tmp_path)
    (kb / "faq" / "guide.md").write_text("---\naudience: public\n---\nThe ferry leaves at noon.\n")
    (kb / "internal" / "guide.md").symlink_to("../faq/guide.md")
    ingest([kb], settings)
    index = KnowledgeIndex(settings.path)
    assert [s.id for s in index.search("ferry")] == ["kb/faq/guide.md#1"]
    found = index.search("ferry", audience={"staff"})
    assert sorted(s.id for s in found) == ["kb/faq/guide.md#1", "kb/internal/guide.md#1"]


def test_a_link_whose_targets_front_matter_shares_no_group_with_its_rule_is_skipped(
    tmp_path: Path,
) -> None:
    kb, settings = _kb(tmp_path)
    (kb / "faq" / "bonus.md").write_text("---\naudience: hr\n---\nThe okapi bonus is 5%.\n")
    (kb / "internal" / "bonus.md").symlink_to("../faq/bonus.md")
    report = ingest([kb], settings)
    assert [(s.path, s.reason) for s in report.skipped] == [
        (
            "kb/internal/bonus.md",
            "a link for staff to a file whose front matter gives hr: no group may see both",
        )
    ]
    assert KnowledgeIndex(settings.path).search("okapi bonus", audience={"hr", "staff"})[0].id == (
        "kb/faq/bonus.md#1"
    )
