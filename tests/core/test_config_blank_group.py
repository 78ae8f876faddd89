"""A blank group name is refused in every audience setting, in one line naming the key.

``web.audience: [""]``, or ``web.audience: ${GROUP}`` with ``GROUP`` unset, was taken as is:
a blank group matches no document's group, so the viewer read as the public while the
operator believed a group applied. A ``|`` in a group name was already refused the same way
(``tests/core/test_config_group_bar.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import AudienceRule
from bot.config_file import load_settings
from bot.errors import ConfigError
from tests.core.config_refusals import refused

HINT = "name each group, or write public"


@pytest.mark.parametrize(
    ("yaml", "key", "groups"),
    [
        ('web:\n  audience: [""]\n', "web.audience", [""]),
        ('web:\n  audience: ""\n', "web.audience", [""]),
        ('web:\n  audience: [public, " "]\n', "web.audience", ["public", " "]),
        ('slack:\n  public_audience: [""]\n', "slack.public_audience", [""]),
        (
            'slack:\n  audience_by_channel:\n    C1: [staff, ""]\n',
            "slack.audience_by_channel.C1",
            ["staff", ""],
        ),
        ('discord:\n  audience_by_role:\n    "123": ""\n', "discord.audience_by_role.123", [""]),
        (
            'discourse:\n  audience_by_category:\n    12: ""\n',
            "discourse.audience_by_category.12",
            [""],
        ),
        ('email:\n  default_audience: [""]\n', "email.default_audience", [""]),
        (
            'index:\n  records:\n    - name: plans\n      csv: plans.csv\n      audience: ""\n',
            "index.records.0.audience",
            [""],
        ),
        (
            'index:\n  audience_rules:\n    - glob: "hr/*"\n      audience: [""]\n',
            "index.audience_rules.0.audience",
            [""],
        ),
    ],
)
def test_a_blank_group_is_refused_in_one_line_naming_the_key(
    tmp_path: Path, yaml: str, key: str, groups: list[str]
) -> None:
    path, message = refused(tmp_path, yaml)
    assert message == f"{path}: {key}: empty group name in {groups!r}; {HINT}"


def test_a_group_variable_left_unset_is_refused_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITECAST_TEST_GROUP", raising=False)
    path = tmp_path / "config.yaml"
    path.write_text("web:\n  audience: ${CITECAST_TEST_GROUP}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert str(caught.value) == (
        f"{path}: web.audience: empty group name in ['']; {HINT} "
        "(${CITECAST_TEST_GROUP} is not set)"
    )


def test_a_group_variable_that_is_set_still_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECAST_TEST_GROUP", "staff")
    path = tmp_path / "config.yaml"
    path.write_text("web:\n  audience: [public, '${CITECAST_TEST_GROUP}']\n", encoding="utf-8")
    assert load_settings(path).web.audience == ["public", "staff"]


def test_an_audience_rule_keeps_its_own_words_for_naming_no_group() -> None:
    # Groups refuses a blank name and a "|"; a rule of no group at all is the rule's own check
    with pytest.raises(ValueError, match="names no group; write public if everyone may read"):
        AudienceRule(glob="hr/*", audience=[])
    with pytest.raises(ValueError, match=r"\| in group name 'a\|b'"):
        AudienceRule(glob="hr/*", audience=["a|b"])
    assert AudienceRule.model_validate({"glob": "hr/*", "audience": "hr"}).audience == ["hr"]


def test_the_shipped_configs_still_load() -> None:
    root = Path(__file__).resolve().parents[2]
    shipped = [root / "config.yaml", *sorted((root / "examples").rglob("*.yaml"))]
    for path in shipped:
        load_settings(path)
