"""A ``|`` in a group name is refused wherever a document's groups are written.

The index keeps a document's groups joined by ``|``: ``audience: "staff|public"`` was stored
as ``|staff|public|`` and read back as two groups, one of them ``public``, so a document
meant for one odd group was shown to everyone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.config import AudienceRule, IndexSettings
from bot.config_file import parse_settings
from bot.errors import ConfigError, KnowledgeIndexError, ValidationError
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.audience import document_audience, viewer_audience
from bot.knowledge.schema import audience_column
from tests.core.cli_runner import run_cli


def _kb(tmp_path: Path, front_matter: str = "") -> Path:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pay.md").write_text(f"{front_matter}The walrus salary is 9000 euros.\n")
    return kb


def test_front_matter_naming_a_group_with_a_bar_skips_the_file(tmp_path: Path) -> None:
    kb = _kb(tmp_path, '---\naudience: "staff|public"\n---\n')
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    report = ingest([kb], settings)
    assert [s.path for s in report.skipped] == ["kb/pay.md"]
    assert "| in a group name" in report.skipped[0].reason
    assert KnowledgeIndex(settings.path).search("walrus salary") == []


def test_an_html_meta_tag_naming_a_group_with_a_bar_skips_the_file(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pay.html").write_text(
        '<html><head><meta name="citecast:audience" content="staff|public"></head>'
        "<body><p>The walrus salary is 9000 euros.</p></body></html>\n"
    )
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    report = ingest([kb], settings)
    assert [s.path for s in report.skipped] == ["kb/pay.html"]
    assert KnowledgeIndex(settings.path).search("walrus salary") == []


def test_an_audience_argument_with_a_bar_is_refused(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    with pytest.raises(ValidationError, match=r"\| in a group name in audience"):
        ingest([kb], settings, audience=["board|public"])
    assert not Path(settings.path).exists()


def test_the_ingest_command_refuses_a_bar_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = _kb(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(monkeypatch, capsys, ["ingest", str(kb), "--audience", "board|public"])
    assert (code, out) == (2, "")
    assert err == (
        "citecast ingest: | in a group name in --audience 'board|public'; "
        "separate groups with commas\n"
    )


@pytest.mark.parametrize("written", ["'staff|public'", "[staff, 'board|public']"])
def test_a_config_rule_with_a_bar_is_refused(written: str) -> None:
    rule = {"glob": "internal/*", "audience": yaml.safe_load(written)}
    data = {"index": {"audience_rules": [rule]}}
    with pytest.raises(ConfigError, match=r"index\.audience_rules\.0\.audience: \| in group"):
        parse_settings(data)


@pytest.mark.parametrize("groups", [[], [""], [" "]])
def test_a_config_rule_naming_no_group_is_refused(groups: list[str]) -> None:
    """It was taken as is: every matching file was stored for no one, without a word."""
    with pytest.raises(ValueError, match="group"):
        AudienceRule(glob="internal/*", audience=groups)


def test_comma_separated_groups_still_read_as_several() -> None:
    assert document_audience("staff, hr") == ("staff", "hr")


def test_a_viewer_group_with_a_bar_matches_no_document_for_both_halves(tmp_path: Path) -> None:
    kb = _kb(tmp_path, "---\naudience: [staff, hr]\n---\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([kb], settings)
    assert viewer_audience(["staff|hr"]) == {"public"}
    index = KnowledgeIndex(settings.path)
    assert index.search("walrus salary", audience={"staff|hr"}) == []
    assert len(index.search("walrus salary", audience={"hr"})) == 1


def test_the_index_never_stores_a_group_with_a_bar() -> None:
    with pytest.raises(KnowledgeIndexError):
        audience_column(("staff|public",))
    assert audience_column(("staff", "hr")) == "|staff|hr|"
