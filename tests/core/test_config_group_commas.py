"""A comma in a configured group name is refused, as ``|`` is.

Found by QA: ``public_audience: public, staff`` (or ``audience_by_role: {"…": "staff, hr"}``)
loaded as one group ``public, staff`` without a word, while ``citecast ask --audience
'nobody, staff'`` and front matter split groups at commas: no document could name that group,
and the viewer read as the public while the operator believed staff applied. A record table's
``audience`` is a document's audience and keeps reading ``"staff, hr"`` as two groups.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from tests.core.cli_runner import run_cli
from tests.core.config_refusals import refused


@pytest.mark.parametrize(
    ("yaml", "key", "name"),
    [
        ("web:\n  audience: public, staff\n", "web.audience", "public, staff"),
        ("slack:\n  public_audience: public, staff\n", "slack.public_audience", "public, staff"),
        (
            'discord:\n  audience_by_role:\n    "123": "staff, hr"\n',
            "discord.audience_by_role.123",
            "staff, hr",
        ),
        ('discord:\n  public_audience: ["a,b"]\n', "discord.public_audience", "a,b"),
        ("email:\n  default_audience: staff, hr\n", "email.default_audience", "staff, hr"),
        (
            'index:\n  audience_rules:\n    - glob: "hr/*"\n      audience: "hr, board"\n',
            "index.audience_rules.0.audience",
            "hr, board",
        ),
    ],
)
def test_a_comma_in_a_configured_group_is_refused_in_one_line_naming_the_key(
    tmp_path: Path, yaml: str, key: str, name: str
) -> None:
    path, message = refused(tmp_path, yaml)
    listed = ", ".join(part.strip() for part in name.split(","))
    assert message == (
        f"{path}: {key}: , in group name {name!r}; write several groups as a YAML list: [{listed}]"
    )


def test_groups_written_as_a_list_still_load(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "web:\n  audience: [public, staff]\n"
        'discord:\n  audience_by_role:\n    "123": [staff, hr]\n',
        encoding="utf-8",
    )
    settings = load_settings(path)
    assert settings.web.audience == ["public", "staff"]
    assert settings.discord.audience_by_role == {"123": ["staff", "hr"]}


def test_a_record_table_audience_still_splits_at_commas(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "index:\n  records:\n    - name: plans\n      csv: plans.csv\n"
        '      audience: "staff, hr"\n',
        encoding="utf-8",
    )
    assert load_settings(path).index.records[0].audience == ["staff, hr"]


def test_the_audience_flags_still_split_at_commas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "config.yaml").write_text("index:\n  path: index.db\n", encoding="utf-8")
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "pay.md").write_text("# Pay\n\nThe walrus salary is 9000 euros.\n")
    code, _, err = run_cli(monkeypatch, capsys, ["ingest", "kb", "--audience", "hr, board"])
    assert code == 0, err
    question = ["ask", "What is the walrus salary?"]
    code, out, err = run_cli(monkeypatch, capsys, [*question, "--audience", "nobody, board"])
    assert code == 0, err
    assert "9000" in out
    code, out, err = run_cli(monkeypatch, capsys, [*question, "--audience", "nobody, staff"])
    assert code == 0, err
    assert "9000" not in out
