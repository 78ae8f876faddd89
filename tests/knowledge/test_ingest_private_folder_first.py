"""Ingesting a private folder itself keeps it private.

``index.audience_rules`` globs match a file's path inside the folder ingested, so ``internal/*``
never matched ``pay.md`` when ``docs/internal`` (or ``docs/internal/pay.md``, or ``internal``
from ``docs``) was the first thing ingested: the file was indexed as public. The rules are now
also tried against the file's paths inside the folders above, up to the working directory, and
such a match only ever narrows the audience.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import AudienceRule, IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from tests.core.cli_runner import run_cli

SECRET = "walrus salary"


def _docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, IndexSettings]:
    docs = tmp_path / "docs"
    (docs / "internal").mkdir(parents=True)
    (docs / "faq").mkdir()
    (docs / "internal" / "pay.md").write_text("The walrus salary is 9000 euros.\n")
    (docs / "faq" / "hours.md").write_text("The heron desk opens at nine.\n")
    monkeypatch.chdir(tmp_path)
    settings = IndexSettings(
        path=str(tmp_path / "index.db"),
        audience_rules=[AudienceRule(glob="internal/*", audience=["staff"])],
    )
    return docs, settings


def _audiences(settings: IndexSettings, query: str) -> list[tuple[str, ...]]:
    index = KnowledgeIndex(settings.path)
    try:
        return [source.audience for source in index.search(query, audience={"staff", "hr"})]
    finally:
        index.close()


@pytest.mark.parametrize("path", ["docs/internal", "docs/internal/pay.md"])
def test_the_private_folder_ingested_alone_stays_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    _, settings = _docs(tmp_path, monkeypatch)
    assert ingest([path], settings).indexed == 1
    assert KnowledgeIndex(settings.path).search(SECRET) == []
    assert _audiences(settings, SECRET) == [("staff",)]


def test_the_private_folder_ingested_from_its_parent_stays_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs, settings = _docs(tmp_path, monkeypatch)
    monkeypatch.chdir(docs)  # cd docs && citecast ingest internal
    ingest(["internal"], settings)
    assert _audiences(settings, SECRET) == [("staff",)]


def test_a_public_folder_ingested_alone_stays_public(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, settings = _docs(tmp_path, monkeypatch)
    ingest(["docs/faq"], settings)
    assert _audiences(settings, "heron desk") == [("public",)]


def test_a_rule_above_the_folder_never_widens_the_audience_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, settings = _docs(tmp_path, monkeypatch)
    rules = [AudienceRule(glob="docs/*", audience=["public"])]
    ingest(
        ["docs/internal"], settings.model_copy(update={"audience_rules": rules}), audience=["staff"]
    )
    assert _audiences(settings, SECRET) == [("staff",)]


def test_a_rule_above_the_folder_sharing_no_group_with_the_audience_given_skips_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, settings = _docs(tmp_path, monkeypatch)
    report = ingest(["docs/internal"], settings, audience=["hr"])
    assert [(s.path, s.reason) for s in report.skipped] == [
        (
            "internal/pay.md",
            "audience rule internal/* gives staff (as internal/pay.md) and --audience hr: "
            "no group may see both",
        )
    ]
    assert _audiences(settings, SECRET) == []


def test_a_file_indexed_as_public_before_is_made_private_on_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, settings = _docs(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path / "docs" / "internal")  # no folder above: as the old code saw it
    ingest(["."], settings)
    assert _audiences(settings, SECRET) == [("public",)]
    monkeypatch.chdir(tmp_path)
    assert ingest(["docs/internal"], settings).indexed == 1
    assert _audiences(settings, SECRET) == [("staff",)]


def test_a_rule_matching_the_ingested_path_decides_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A private-by-default config (``"*"`` last) keeps its public folder public when the
    folder above it is ingested: the path inside the ingested folder decides first."""
    docs, settings = _docs(tmp_path, monkeypatch)
    rules = [
        AudienceRule(glob="faq/*", audience=["public"]),
        AudienceRule(glob="*", audience=["staff"]),
    ]
    ingest([docs], settings.model_copy(update={"audience_rules": rules}))
    assert _audiences(settings, "heron desk") == [("public",)]
    assert _audiences(settings, SECRET) == [("staff",)]


def test_a_root_outside_the_working_directory_names_the_rules_that_matched_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs, settings = _docs(tmp_path, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert ingest([docs / "internal"], settings).unmatched_rules == ["internal/*"]
    assert ingest([docs], settings).unmatched_rules == []
    monkeypatch.chdir(tmp_path)
    assert ingest([docs / "internal"], settings).unmatched_rules == []


def test_the_ingest_command_warns_of_a_rule_that_matched_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    docs, _ = _docs(tmp_path, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # not above docs either: the config file's folder is tried as the working directory is
    config = elsewhere / "config.yaml"
    config.write_text(
        "index:\n  audience_rules:\n    - glob: 'internal/*'\n      audience: [staff]\n"
    )
    monkeypatch.chdir(elsewhere)
    argv = ["--config", str(config), "ingest", str(docs / "internal")]
    code, out, _ = run_cli(monkeypatch, capsys, argv)
    assert code == 0
    assert (
        "warning: audience rule internal/* matched no file in this run; globs match paths "
        "inside the folder ingested (run citecast from a folder above it)\n"
    ) in out
