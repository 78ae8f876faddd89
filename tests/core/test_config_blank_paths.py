"""A blank file path in config.yaml (an unset ``${NAME}``) is one line naming the key.

Found in a QA pass of the configuration: ``index.path: ${INDEX_PATH}`` with the variable unset
became the config file's folder; ``citecast ask`` then said "cannot open .: disk I/O error" and
``citecast ingest --rebuild`` ended in a ValueError traceback. A blank ``web.file_roots`` entry
quietly named the config file's folder as a root to serve files from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config_file import load_settings
from bot.errors import ConfigError


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    monkeypatch.delenv("CITECAST_TEST_UNSET", raising=False)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("index:\n  path: ${CITECAST_TEST_UNSET}\n", "index.path"),
        ("store:\n  path: '  '\n", "store.path"),
        ("web:\n  file_roots: [docs, '${CITECAST_TEST_UNSET}']\n", "web.file_roots.1"),
    ],
    ids=["index", "store", "file-roots"],
)
def test_a_blank_path_is_refused(tmp_path: Path, text: str, where: str) -> None:
    (tmp_path / "config.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value).startswith(f"config.yaml: {where}: must not be blank")


def test_ingest_rebuild_with_a_blank_index_path_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.yaml").write_text(
        "index:\n  path: ${CITECAST_TEST_UNSET}\n", encoding="utf-8"
    )
    (tmp_path / "guide.md").write_text("# Guide\n\nHerons wade.\n", encoding="utf-8")
    assert main(["ingest", "--rebuild", "guide.md"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "citecast ingest: config.yaml: index.path: must not be blank "
        "(${CITECAST_TEST_UNSET} is not set)\n"
    )


def test_paths_that_name_something_still_load(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "index:\n  path: i.db\nstore:\n  path: s.db\nweb:\n  file_roots: [docs]\n",
        encoding="utf-8",
    )
    settings = load_settings()
    assert (settings.index.path, settings.store.path) == ("i.db", "s.db")
    assert settings.web.file_roots == ["docs"]
