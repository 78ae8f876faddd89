"""Record table errors name their key as config.yaml's other errors do (``index.records.0``),
give the system's reason in words, and name the config file when the command knows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.records import check_tables


def _table(**fields: object) -> RecordTable:
    return RecordTable.model_validate({"name": "plans", **fields})


def test_a_missing_csv_is_named_with_a_dotted_key_and_the_reason_in_words(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "nope.csv"
    with pytest.raises(ConfigError) as caught:
        check_tables([_table(csv=str(missing))])
    assert str(caught.value) == (
        f"index.records.0.csv: cannot read {missing}: no such file or directory"
    )


def test_the_config_file_is_named_first_when_given(tmp_path: Path) -> None:
    # a relative csv path is taken from the config file's folder: the file says which folder
    missing = tmp_path / "nope.csv"
    with pytest.raises(ConfigError) as caught:
        check_tables([_table(csv=str(missing))], origin="site/config.yaml")
    assert str(caught.value) == (
        f"site/config.yaml: index.records.0.csv: cannot read {missing}: no such file or directory"
    )


def test_a_second_table_of_the_same_name_points_at_the_first_by_its_dotted_key(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.csv").write_text("sku,name\nA1,One\n", encoding="utf-8")
    tables = [_table(csv=str(tmp_path / "a.csv")), _table(csv=str(tmp_path / "a.csv"))]
    with pytest.raises(ConfigError) as caught:
        check_tables(tables, origin="config.yaml")
    assert str(caught.value) == (
        "config.yaml: index.records.1.name: 'plans' is already the name of index.records.0"
    )


def test_a_blank_audience_is_named_with_a_dotted_key(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("sku,name\nA1,One\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^index\.records\.0\.audience: "):
        check_tables([_table(csv=str(tmp_path / "a.csv"), audience=["staff,"])])


def test_a_table_s_key_has_the_form_of_the_config_loader_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the loader names an unknown key "index.records.0.bogus"; a table it reads, the same way
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    config = tmp_path / "config.yaml"
    config.write_text("index:\n  records:\n    - name: t\n      bogus: 1\n", encoding="utf-8")
    assert main(["ask", "What does it cost?"]) == 2
    loader = capsys.readouterr().err
    assert "index.records.0.bogus: unknown key" in loader
    config.write_text("index:\n  records:\n    - name: t\n      csv: nope.csv\n", encoding="utf-8")
    assert main(["ask", "What does it cost?"]) == 2
    err = capsys.readouterr().err
    assert "index.records.0.csv: cannot read nope.csv: no such file or directory" in err
    assert "[0]" not in err
