"""An audience rule written ``./internal/*`` or ``/internal/*`` is the rule ``internal/*``.

Found by a security QA pass: globs are matched against paths inside the ingested folder, which
never start with ``./`` or ``/``, so such a rule matched nothing and the files it was written
to keep private were indexed public (with a warning that it matched no file).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import AudienceRule, IndexSettings
from bot.config_file import load_settings
from bot.errors import ConfigError
from bot.knowledge import KnowledgeIndex, ingest


@pytest.mark.parametrize("glob", ["./internal/*", "/internal/*", ".//internal/*", " internal/* "])
def test_a_rule_written_from_the_folder_keeps_its_files_private(tmp_path: Path, glob: str) -> None:
    kb = tmp_path / "kb"
    (kb / "internal").mkdir(parents=True)
    (kb / "internal" / "pay.md").write_text("The walrus salary is 9000 euros.\n")
    (kb / "guide.md").write_text("The ferry leaves at noon.\n")
    rule = AudienceRule(glob=glob, audience=["staff"])
    assert rule.glob == "internal/*"
    settings = IndexSettings(path=str(tmp_path / "i.db"), audience_rules=[rule])
    report = ingest([kb], settings)
    assert report.unused_rules == []
    index = KnowledgeIndex(settings.path)
    assert index.search("walrus salary") == []
    assert [s.id for s in index.search("walrus salary", audience=frozenset({"staff"}))]
    assert [s.id for s in index.search("ferry")]


@pytest.mark.parametrize("glob", ["./", "/", "  "])
def test_a_rule_that_names_no_file_is_refused(tmp_path: Path, glob: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        f'index:\n  audience_rules:\n    - glob: "{glob}"\n      audience: [staff]\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="names no file; write a glob such as internal/\\*"):
        load_settings(config)
