"""``index.url_templates`` globs match a file's paths as audience rules do.

Found by QA: with ``audience_rules: [{glob: "many/*", audience: [staff]}]`` and ``url_templates:
{"many/*.md": …}``, ``citecast ingest docs/many`` applied the rule (tried against the file's
path inside every folder holding it) but not the template (tried against ``x.md``, the path
inside the folder ingested): the file had no URL, mail attached it instead of linking the public
page, and nothing said why. Templates now see the same paths, the first path a glob matches
decides (the path inside the outermost ingested folder, then the innermost folder's), and
``{path}``/``{stem}`` are that path; a glob that gives no file a URL is warned of.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.knowledge.glob_paths import glob_paths
from tests.core.cli_runner import run_cli
from tests.knowledge.older_reader import as_an_older_citecast_read_it

QA_CONFIG = (
    "index:\n  path: index.db\n  audience_rules:\n"
    '    - glob: "many/*"\n      audience: [staff]\n'
    "  url_templates:\n"
    '    "many/*.md": "https://docs.example.org/{stem}.html"\n'
)
UNUSED = (
    "warning: url_templates glob {} gave no file in this run nor any other indexed file its "
    "URL; globs match a file's path inside each folder that holds it, up to the working "
    "directory or the config file's folder, and the first path a glob matches decides\n"
)


@pytest.fixture
def deploy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The QA's folder, the working directory: ``docs/many/x.md`` and ``docs/top.md``."""
    (tmp_path / "docs" / "many").mkdir(parents=True)
    (tmp_path / "docs" / "many" / "x.md").write_text("# X\n\nThe xylophone token ZQX.\n")
    (tmp_path / "docs" / "top.md").write_text("# Top\n\nThe topaz token ZQTOP.\n")
    (tmp_path / "config.yaml").write_text(QA_CONFIG)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _stored(deploy: Path) -> dict[str, tuple[str, str | None]]:
    """Each indexed file's path inside ``deploy`` -> (stored audience, stored URL)."""
    conn = sqlite3.connect(deploy / "index.db")
    try:
        rows = conn.execute(
            "SELECT f.path, c.audience, c.url FROM files f JOIN chunks c ON c.file_id = f.id "
            "GROUP BY f.id"
        ).fetchall()
    finally:
        conn.close()
    return {Path(str(p)).relative_to(deploy).as_posix(): (str(a), u) for p, a, u in rows}


def _cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run_cli(monkeypatch, capsys, list(argv))
    assert code == 0, err
    return out


def _settings(deploy: Path, templates: dict[str, str]) -> IndexSettings:
    return IndexSettings(path=str(deploy / "index.db"), url_templates=templates)


def test_the_qa_sequence_links_the_file_the_audience_rule_applies_to(
    deploy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _cli(monkeypatch, capsys, "ingest", "docs/many")
    assert "warning" not in out
    assert _stored(deploy) == {
        "docs/many/x.md": ("|staff|", "https://docs.example.org/many/x.html"),
    }


def test_placeholders_are_the_path_the_glob_matched(deploy: Path) -> None:
    """``{path}`` and ``{stem}`` are the inner folder's path the glob matched (``many/x.md``),
    not the path inside the folder ingested (``x.md``) nor inside the working directory."""
    template = "https://docs.example.org/{path}?stem={stem}"
    ingest(["docs/many"], _settings(deploy, {"many/*.md": template}))
    assert _stored(deploy)["docs/many/x.md"][1] == (
        "https://docs.example.org/many/x.md?stem=many/x"
    )


def test_an_inner_folders_path_is_matched_below_the_outermost_one_too(deploy: Path) -> None:
    """After ``citecast ingest .`` the outermost path is ``docs/many/x.md``: ``many/*.md``
    matches the path inside ``docs``, as ``hr/*`` does for audience rules."""
    ingest(["."], _settings(deploy, {"many/*.md": "https://docs.example.org/{stem}.html"}))
    stored = _stored(deploy)
    assert stored["docs/many/x.md"][1] == "https://docs.example.org/many/x.html"
    assert stored["docs/top.md"][1] is None


def test_a_subfolders_run_keeps_the_url_its_parents_run_gave(deploy: Path) -> None:
    """The path inside the outermost ingested folder is tried first: ``citecast ingest
    docs/many`` after ``citecast ingest docs`` no longer stems ``x.md`` (a dead link)."""
    settings = _settings(deploy, {"*.md": "https://docs.example.org/{stem}.html"})
    ingest(["docs"], settings)
    assert _stored(deploy)["docs/many/x.md"][1] == "https://docs.example.org/many/x.html"
    report = ingest(["docs/many"], settings)
    assert (report.indexed, report.unchanged) == (0, 1)
    assert _stored(deploy)["docs/many/x.md"][1] == "https://docs.example.org/many/x.html"


def test_the_outermost_folders_path_decides_then_the_innermost_folders(deploy: Path) -> None:
    """Deterministic whatever the config order: a glob matching the path inside the outermost
    ingested folder wins (``*.md`` matches ``x.md``); else the innermost folder's path a glob
    matches (``many/x.md`` before ``docs/many/x.md``), of its globs the first in config order."""
    both = {"many/*.md": "https://a.example/{stem}", "*.md": "https://b.example/{stem}"}
    ingest(["docs/many"], _settings(deploy, both))
    assert _stored(deploy)["docs/many/x.md"][1] == "https://b.example/x"
    inner = {"*/x.md": "https://a.example/{path}", "docs/*": "https://c.example/{path}"}
    ingest(["docs/many"], _settings(deploy, inner))
    assert _stored(deploy)["docs/many/x.md"][1] == "https://a.example/many/x.md"
    file = deploy / "docs" / "many" / "x.md"
    assert glob_paths(file, "x.md", [deploy / "docs" / "many"], deploy) == (
        "x.md",
        "many/x.md",
        "docs/many/x.md",
    )


def test_a_glob_that_gives_no_file_a_url_is_warned_of_in_every_run(
    deploy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = QA_CONFIG + '    "Many/*.md": "https://docs.example.org/{path}"\n'
    (deploy / "config.yaml").write_text(config)
    first = _cli(monkeypatch, capsys, "ingest", "docs/many")
    assert UNUSED.format("Many/*.md") in first
    assert "glob many/*.md" not in first
    again = _cli(monkeypatch, capsys, "ingest", "docs/many")  # unchanged: said again
    assert again.startswith("1 file: 0 indexed, 1 unchanged")
    assert UNUSED.format("Many/*.md") in again


def test_a_glob_another_folder_of_the_index_uses_is_not_warned_of(
    deploy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``citecast ingest docs/top.md`` reads no file of ``many/``: ``many/*.md`` still gives
    the index's ``docs/many/x.md`` its URL. A glob always beaten by an earlier one is no use."""
    config = QA_CONFIG + '    "*.md": "https://docs.example.org/{path}"\n'
    config += '    "top.md": "https://never.example/"\n'
    (deploy / "config.yaml").write_text(config)
    _cli(monkeypatch, capsys, "ingest", "docs")
    out = _cli(monkeypatch, capsys, "ingest", "docs/top.md")
    assert "glob many/*.md" not in out
    assert "glob *.md" not in out
    assert UNUSED.format("top.md") in out


def test_a_file_an_older_citecast_read_is_linked_as_a_run_of_its_folder_links_it(
    deploy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make serve``'s ``ingest examples --if-missing`` re-reads the user's files with the
    URL their folder's run gives them, from the paths above that folder too."""
    samples = deploy / "samples"
    samples.mkdir()
    (samples / "s.md").write_text("# S\n\nSample.\n")
    assert main(["--config", "config.yaml", "ingest", "docs/many"]) == 0
    as_an_older_citecast_read_it(deploy / "index.db")
    capsys.readouterr()
    assert main(["--config", "config.yaml", "ingest", str(samples), "--if-missing"]) == 0
    assert "1 re-read" in capsys.readouterr().out
    assert _stored(deploy) == {
        "docs/many/x.md": ("|staff|", "https://docs.example.org/many/x.html"),
    }
