"""``public`` in another case (``Public``, ``PUBLIC``) is refused wherever a group is written.

An older release read ``PUBLIC`` as a group of that name, so an operator may have named a
private group so. Read as everyone, its files and record tables were published on upgrade
without a word (the tables at once, with no re-ingest); read as a group, a page meant for
everyone stayed hidden. Neither is guessed: the setting, flag or file is refused with one
reason naming it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings, RecordTable
from bot.config_file import load_settings
from bot.errors import ConfigError, ValidationError
from bot.knowledge import ingest
from bot.knowledge.records import check_tables
from tests.core.config_refusals import refused

REASON = (
    "write public in lower case for everyone, or choose a group name that is not public in "
    "another case"
)


@pytest.mark.parametrize(
    ("yaml", "key", "name"),
    [
        ("web:\n  audience: [public, PUBLIC]\n", "web.audience", "PUBLIC"),
        ("slack:\n  public_audience: Public\n", "slack.public_audience", "Public"),
        (
            "slack:\n  audience_by_channel:\n    C1: [staff, PUBLIC]\n",
            "slack.audience_by_channel.C1",
            "PUBLIC",
        ),
        (
            'discord:\n  audience_by_role:\n    "123": Public\n',
            "discord.audience_by_role.123",
            "Public",
        ),
        ("discord:\n  public_audience: PUBLIC\n", "discord.public_audience", "PUBLIC"),
        (
            "discourse:\n  audience_by_category:\n    12: PUBLIC\n",
            "discourse.audience_by_category.12",
            "PUBLIC",
        ),
        ("email:\n  default_audience: Public\n", "email.default_audience", "Public"),
        (
            "index:\n  records:\n    - name: plans\n      csv: plans.csv\n      audience: PUBLIC\n",
            "index.records.0.audience",
            "PUBLIC",
        ),
        (
            'index:\n  audience_rules:\n    - glob: "hr/*"\n      audience: " Public "\n',
            "index.audience_rules.0.audience",
            "Public",
        ),
    ],
)
def test_a_configured_group_public_in_another_case_is_refused_naming_the_key(
    tmp_path: Path, yaml: str, key: str, name: str
) -> None:
    path, message = refused(tmp_path, yaml)
    assert message == f"{path}: {key}: group {name!r}: {REASON}"


def test_public_in_lower_case_and_groups_merely_like_it_still_load(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("web:\n  audience: [public, Publicity, publics]\n", encoding="utf-8")
    assert load_settings(path).web.audience == ["public", "Publicity", "publics"]


def test_a_record_table_for_public_in_another_case_is_refused_at_start(tmp_path: Path) -> None:
    """``"staff, PUBLIC"`` is two groups, split after the config is loaded."""
    csv = tmp_path / "t.csv"
    csv.write_text("sku,name\nK1,Kettle\n", encoding="utf-8")
    table = RecordTable(
        name="t", csv=str(csv), id_column="sku", label_column="name", audience=["staff, PUBLIC"]
    )
    with pytest.raises(ConfigError) as caught:
        check_tables([table])
    assert str(caught.value) == f"index.records.0.audience: audience 'PUBLIC': {REASON}"


def test_an_ingest_audience_public_in_another_case_is_refused(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "minutes.md").write_text("Walrus board minutes.\n", encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    with pytest.raises(ValidationError) as caught:
        ingest([docs], settings, audience=["staff", "PUBLIC"])
    assert str(caught.value) == f"audience 'PUBLIC': {REASON}"
    assert not (tmp_path / "index.db").exists()
