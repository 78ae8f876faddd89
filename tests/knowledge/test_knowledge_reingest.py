"""Re-ingesting part of the knowledge base: audiences are kept, vanished files are dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import AudienceRule, IndexSettings
from bot.knowledge import KnowledgeIndex, ingest

HR = ["hr"]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def priv(tmp_path: Path) -> Path:
    folder = tmp_path / "priv"
    _write(folder / "internal" / "bonus.md", "# Bonus\n\nThe narwhal bonus is 20 percent.\n")
    _write(folder / "salaries.md", "# Salaries\n\nThe narwhal salaries.\n")
    return folder


def _rules(tmp_path: Path) -> IndexSettings:
    return IndexSettings(
        path=str(tmp_path / "i.db"),
        audience_rules=[AudienceRule(glob="internal/*", audience=HR)],
    )


def _audiences(settings: IndexSettings) -> dict[str, tuple[str, ...]]:
    found = KnowledgeIndex(settings.path).search("narwhal", ["hr"], limit=10)
    return {source.filename or "": source.audience for source in found}


@pytest.mark.parametrize("again", ["priv/internal", "priv/internal/bonus.md"])
def test_reingesting_a_subfolder_or_the_file_keeps_the_folder_rules(
    tmp_path: Path, priv: Path, again: str
) -> None:
    settings = _rules(tmp_path)
    ingest([priv], settings)
    assert _audiences(settings) == {"bonus.md": ("hr",), "salaries.md": ("public",)}
    _write(priv / "internal" / "bonus.md", "# Bonus\n\nThe narwhal bonus is 25 percent.\n")
    report = ingest([tmp_path / again], settings)
    assert report.indexed == 1
    assert _audiences(settings) == {"bonus.md": ("hr",), "salaries.md": ("public",)}
    assert KnowledgeIndex(settings.path).search("bonus percent") == []


def test_ingesting_the_parent_folder_later_applies_its_rules(tmp_path: Path, priv: Path) -> None:
    settings = _rules(tmp_path)
    ingest([priv / "internal"], settings)  # relative to this folder, no rule matches
    assert _audiences(settings) == {"bonus.md": ("public",)}
    ingest([priv], settings)
    assert _audiences(settings) == {"bonus.md": ("hr",), "salaries.md": ("public",)}
    ingest([priv / "internal"], settings)
    assert _audiences(settings) == {"bonus.md": ("hr",), "salaries.md": ("public",)}


def test_a_file_ingested_alone_then_deleted_or_renamed_is_dropped(tmp_path: Path) -> None:
    solo = tmp_path / "solo.md"
    _write(solo, "# Solo\n\nThe axolotl facts.\n")
    other = tmp_path / "other.md"
    _write(other, "# Other\n\nThe tapir facts.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([solo], settings)
    ingest([other], settings)
    index = KnowledgeIndex(settings.path)
    assert [s.filename for s in index.search("axolotl")] == ["solo.md"]

    solo.rename(tmp_path / "solo2.md")
    report = ingest([tmp_path / "solo2.md"], settings)
    assert (report.indexed, report.removed) == (1, 1)
    assert [s.filename for s in index.search("axolotl")] == ["solo2.md"]
    assert not index.has_file(solo)
    assert solo not in index.roots() and tmp_path / "solo2.md" in index.roots()

    (tmp_path / "solo2.md").unlink()
    report = ingest([other], settings)
    assert (report.unchanged, report.removed) == (1, 1)
    assert index.search("axolotl") == [] and index.stats().files == 1


def test_a_file_ingested_alone_that_became_unreadable_is_dropped(tmp_path: Path) -> None:
    solo = tmp_path / "solo.md"
    _write(solo, "---\naudience: staff\n---\nThe capybara plan.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([solo], settings)
    _write(solo, "---\naudience: staff\naudience: public\n---\nThe capybara plan, changed.\n")
    report = ingest([solo], settings)
    assert (report.removed, [s.path for s in report.skipped]) == (1, ["solo.md"])
    assert KnowledgeIndex(settings.path).search("capybara", ["staff"]) == []


def test_a_rule_for_the_parent_never_matches_the_shorter_path_inside_a_subfolder(
    tmp_path: Path,
) -> None:
    # "faq/*" (public) written for kb used to match internal/faq/salaries.md as faq/salaries.md
    # when kb/internal was re-ingested, and the staff file became public
    kb = tmp_path / "kb"
    _write(kb / "faq" / "hours.md", "# Hours\n\nThe narwhal desk opens at nine.\n")
    _write(kb / "internal" / "faq" / "pay.md", "# Pay\n\nThe narwhal pay band is B.\n")
    settings = IndexSettings(
        path=str(tmp_path / "i.db"),
        audience_rules=[
            AudienceRule(glob="faq/*", audience=["public"]),
            AudienceRule(glob="internal/*", audience=["staff"]),
        ],
    )
    ingest([kb], settings)
    ingest([kb / "internal"], settings)
    found = KnowledgeIndex(settings.path).search("narwhal", ["staff"], limit=10)
    assert {s.filename: s.audience for s in found} == {
        "hours.md": ("public",),
        "pay.md": ("staff",),
    }
    assert [s.filename for s in KnowledgeIndex(settings.path).search("narwhal")] == ["hours.md"]
