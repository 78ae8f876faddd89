"""Audience rules match a file's path inside every folder that holds it.

Found by QA: rules are matched against the path inside the outermost folder ever ingested, so
after one ``citecast ingest .`` from the config file's folder, ``hr/*`` (written for
``citecast ingest kb``) no longer matched ``kb/hr/bonus.md``: a file added later under
``kb/hr/`` and ingested with ``citecast ingest kb`` was public, without a word, and so was
every ``kb/hr/`` file of a first ``citecast ingest .``. The rules are now also tried against
the file's path inside each folder between the outermost one and the file, and such a match
only ever narrows the audience. A rule that applies to no file at all is warned of.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import AudienceRule, IndexSettings
from bot.knowledge import ingest
from tests.core.cli_runner import run_cli

RULES = (
    'index:\n  path: .citecast/index.db\n  audience_rules:\n    - glob: "hr/*"\n'
    "      audience: [hr]\n"
)


def _deploy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str = RULES) -> Path:
    """The QA's folder: config.yaml, kb/hr/pay.md and kb/guides/g.md; the working directory."""
    (tmp_path / "kb" / "hr").mkdir(parents=True)
    (tmp_path / "kb" / "guides").mkdir()
    (tmp_path / "config.yaml").write_text(config)
    (tmp_path / "kb" / "hr" / "pay.md").write_text("# Pay\n\nThe salary band token ZQPAY is 90k.\n")
    (tmp_path / "kb" / "guides" / "g.md").write_text(
        "# Guide\n\nThe install token ZQGUIDE is easy.\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _audiences(deploy: Path) -> dict[str, str]:
    """Each indexed file's path inside ``deploy`` -> its stored audience column."""
    conn = sqlite3.connect(deploy / ".citecast" / "index.db")
    try:
        rows = conn.execute(
            "SELECT f.path, c.audience FROM files f JOIN chunks c ON c.file_id = f.id GROUP BY f.id"
        ).fetchall()
    finally:
        conn.close()
    return {Path(str(path)).relative_to(deploy).as_posix(): str(aud) for path, aud in rows}


def _cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run_cli(monkeypatch, capsys, list(argv))
    assert code == 0, err
    return out


def test_the_qa_sequence_keeps_a_file_added_later_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deploy = _deploy(tmp_path, monkeypatch)
    _cli(monkeypatch, capsys, "ingest", "kb")
    assert "ZQPAY" not in _cli(monkeypatch, capsys, "ask", "What is the salary band token ZQPAY?")
    _cli(monkeypatch, capsys, "ingest", ".")
    (deploy / "kb" / "hr" / "bonus.md").write_text(
        "# Bonus\n\nThe bonus token ZQBONUS is 12 percent.\n"
    )
    out = _cli(monkeypatch, capsys, "ingest", "kb")
    assert "warning" not in out
    assert _audiences(deploy) == {
        "kb/hr/pay.md": "|hr|",
        "kb/hr/bonus.md": "|hr|",
        "kb/guides/g.md": "|public|",
    }
    public = _cli(monkeypatch, capsys, "ask", "What is the bonus token ZQBONUS?")
    assert "ZQBONUS" not in public
    assert "bonus.md" not in public
    hr = _cli(monkeypatch, capsys, "ask", "--audience", "hr", "What is the bonus token ZQBONUS?")
    assert "ZQBONUS" in hr


def test_a_first_ingest_of_the_config_folder_keeps_the_rule_s_files_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deploy = _deploy(tmp_path, monkeypatch)
    out = _cli(monkeypatch, capsys, "ingest", ".")
    assert "warning" not in out
    assert _audiences(deploy) == {"kb/hr/pay.md": "|hr|", "kb/guides/g.md": "|public|"}
    assert "ZQPAY" not in _cli(monkeypatch, capsys, "ask", "What is the salary band token ZQPAY?")


def test_an_unchanged_file_the_rule_now_matches_is_read_again_with_its_audience(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deploy = _deploy(tmp_path, monkeypatch, "index:\n  path: .citecast/index.db\n")
    _cli(monkeypatch, capsys, "ingest", ".")
    assert _audiences(deploy)["kb/hr/pay.md"] == "|public|"
    (deploy / "config.yaml").write_text(RULES)  # the rule written for kb, added later
    out = _cli(monkeypatch, capsys, "ingest", "kb")
    assert out.startswith("2 files: 1 indexed, 1 unchanged")
    assert _audiences(deploy) == {"kb/hr/pay.md": "|hr|", "kb/guides/g.md": "|public|"}


def test_a_rule_for_a_folder_below_only_narrows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``guides/*`` public never widens what ``--audience staff`` keeps for staff, and a rule
    giving no group ``--audience`` allows skips the file with the reason."""
    deploy = _deploy(tmp_path, monkeypatch)
    rules = [
        AudienceRule(glob="guides/*", audience=["public"]),
        AudienceRule(glob="hr/*", audience=["hr"]),
    ]
    settings = IndexSettings(path=str(deploy / ".citecast" / "index.db"), audience_rules=rules)
    report = ingest(["."], settings, audience=["staff"])
    assert [(s.path, s.reason) for s in report.skipped] == [
        (
            f"{deploy.name}/kb/hr/pay.md",
            "audience rule hr/* gives hr (as hr/pay.md) and --audience staff: "
            "no group may see both",
        )
    ]
    assert _audiences(deploy) == {"kb/guides/g.md": "|staff|"}


def test_rules_of_two_folders_both_narrow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each folder's path is matched on its own, as a run of that folder would: ``pay.md``
    for finance and ``hr/*`` for hr leave no group, whatever their order in the config."""
    deploy = _deploy(tmp_path, monkeypatch)
    rules = [
        AudienceRule(glob="pay.md", audience=["finance", "hr"]),
        AudienceRule(glob="hr/*", audience=["hr"]),
    ]
    settings = IndexSettings(path=str(deploy / ".citecast" / "index.db"), audience_rules=rules)
    ingest(["."], settings)
    assert _audiences(deploy)["kb/hr/pay.md"] == "|hr|"
    rules.reverse()
    ingest(["."], settings.model_copy(update={"audience_rules": rules}))
    assert _audiences(deploy)["kb/hr/pay.md"] == "|hr|"


def test_a_rule_written_before_a_catch_all_still_narrows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hr/*`` then ``*`` (staff by default): after ``citecast ingest .`` the catch-all matches
    ``kb/hr/pay.md`` first, and must not give hr's file to staff; ``guides/*`` keeps staff."""
    deploy = _deploy(tmp_path, monkeypatch)
    rules = [
        AudienceRule(glob="hr/*", audience=["hr"]),
        AudienceRule(glob="*", audience=["staff"]),
    ]
    settings = IndexSettings(path=str(deploy / ".citecast" / "index.db"), audience_rules=rules)
    ingest(["kb"], settings)
    assert _audiences(deploy) == {"kb/hr/pay.md": "|hr|", "kb/guides/g.md": "|staff|"}
    report = ingest(["."], settings)
    assert [(s.path, s.reason) for s in report.skipped] == [
        (
            f"{deploy.name}/kb/hr/pay.md",
            "audience rule * gives staff (as kb/hr/pay.md) and audience rule hr/* gives hr "
            "(as hr/pay.md): no group may see both",
        )
    ]
    assert _audiences(deploy) == {"kb/guides/g.md": "|staff|"}


def test_a_rule_that_applies_to_no_file_is_warned_of_in_every_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = RULES + '    - glob: "HR/*"\n      audience: [hr]\n'
    _deploy(tmp_path, monkeypatch, config)
    warning = (
        "warning: audience rule HR/* matched no file in this run nor applies to any other "
        "indexed file; globs match a file's path inside each folder that holds it, up to the "
        "working directory or the config file's folder\n"
    )
    first = _cli(monkeypatch, capsys, "ingest", "kb")
    assert warning in first
    assert "rule hr/*" not in first
    again = _cli(monkeypatch, capsys, "ingest", "kb")  # every file unchanged: said again
    assert again.startswith("2 files: 0 indexed, 2 unchanged")
    assert warning in again
    assert "rule hr/*" not in again


def test_a_rule_used_by_another_folder_of_the_index_is_not_warned_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``citecast ingest kb/guides`` reads no hr file: ``hr/*`` still applies to the index's
    ``kb/hr/pay.md``, so it is no mistake."""
    _deploy(tmp_path, monkeypatch)
    _cli(monkeypatch, capsys, "ingest", "kb")
    assert "warning" not in _cli(monkeypatch, capsys, "ingest", "kb/guides")
