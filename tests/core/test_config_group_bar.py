"""A group name holding ``|`` is refused in every audience setting and in ``--audience``.

The index joins a document's groups with ``|`` (``bot.knowledge.schema``), so documents'
audiences, ``ingest --audience`` and ``index.audience_rules`` already refused one. A viewer's
group ``staff|hr`` (``web.audience``, the channels' audience maps, ``citecast ask --audience``)
matched no document's group and was dropped without a word: the viewer read as the public,
while the operator believed the groups applied. A security review found it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from tests.core.cli_runner import run_cli
from tests.core.config_refusals import refused

REASON = "| in group name {name!r}; list each group on its own"


@pytest.mark.parametrize(
    ("yaml", "key", "name"),
    [
        ('web:\n  audience: "staff|hr"\n', "web.audience", "staff|hr"),
        ('web:\n  audience: [public, "staff|hr"]\n', "web.audience", "staff|hr"),
        ('slack:\n  public_audience: "a|b"\n', "slack.public_audience", "a|b"),
        (
            'slack:\n  audience_by_channel:\n    C1: [staff, "hr|public"]\n',
            "slack.audience_by_channel.C1",
            "hr|public",
        ),
        (
            'slack:\n  audience_by_email_domain:\n    example.com: "a|b"\n',
            "slack.audience_by_email_domain.example.com",
            "a|b",
        ),
        (
            'discord:\n  audience_by_role:\n    "123": "a|b"\n',
            "discord.audience_by_role.123",
            "a|b",
        ),
        ('discord:\n  public_audience: "a|b"\n', "discord.public_audience", "a|b"),
        (
            'discourse:\n  audience_by_category:\n    12: "mods|public"\n',
            "discourse.audience_by_category.12",
            "mods|public",
        ),
        ('email:\n  default_audience: "a|b"\n', "email.default_audience", "a|b"),
        (
            'email:\n  audience_by_address:\n    boss@example.com: "a|b"\n',
            "email.audience_by_address.boss@example.com",
            "a|b",
        ),
        (
            'index:\n  records:\n    - name: plans\n      csv: plans.csv\n      audience: "a|b"\n',
            "index.records.0.audience",
            "a|b",
        ),
        (
            'index:\n  audience_rules:\n    - glob: "hr/*"\n      audience: "a|b"\n',
            "index.audience_rules.0.audience",
            "a|b",
        ),
    ],
)
def test_a_bar_in_a_configured_group_is_refused_in_one_line_naming_the_key(
    tmp_path: Path, yaml: str, key: str, name: str
) -> None:
    path, message = refused(tmp_path, yaml)
    assert message == f"{path}: {key}: {REASON.format(name=name)}"


def test_groups_without_a_bar_still_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "web:\n  audience: [public, staff]\nslack:\n  audience_by_channel:\n    C1: hr\n",
        encoding="utf-8",
    )
    settings = load_settings(path)
    assert settings.web.audience == ["public", "staff"]
    assert settings.slack.audience_by_channel == {"C1": ["hr"]}


@pytest.mark.parametrize("command", ["ask", "resolve", "render"])
@pytest.mark.parametrize("value", ["hr|public", "staff,hr|public"])
def test_a_bar_in_an_audience_flag_is_refused_as_ingest_refuses_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    value: str,
) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "s.json").write_text("[]", encoding="utf-8")
    argv = {
        "ask": ["ask", "What are the pay scales?"],
        "resolve": ["resolve", "--sources", "s.json"],
        "render": ["render", "--channel", "discourse"],
    }[command]
    code, out, err = run_cli(monkeypatch, capsys, [*argv, "--audience", value], "")
    assert (code, out) == (2, "")
    assert err == (
        f"citecast {command}: | in a group name in --audience {value!r}; "
        "separate groups with commas\n"
    )
