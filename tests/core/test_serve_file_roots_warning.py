"""``citecast serve`` names a ``web.file_roots`` entry that is not a folder when it starts.

Found by QA: ``web.file_roots: [/nonexistent]`` was accepted without a word, and a mistyped
path only showed later as cited files that never got a download link.
"""

from __future__ import annotations

from pathlib import Path

from bot.commands.serve_warnings import missing_file_roots
from bot.config import Settings
from tests.core.serve_process import serving


def test_a_real_serve_names_a_missing_root_and_a_file_given_as_a_root(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "notes.txt").write_text("not a folder\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(
        "web:\n  port: 0\n  file_roots: [docs, missing/folder, notes.txt]\n", encoding="utf-8"
    )
    with serving(config, tmp_path) as lines:
        pass
    warnings = [line.partition(": ")[2].strip() for line in lines if "web.file_roots" in line]
    assert warnings == [
        f"web.file_roots: {tmp_path}/missing/folder does not exist: files cited from it get no "
        "download link until it does",
        f"web.file_roots: {tmp_path}/notes.txt is not a folder: no file is served from it",
    ], "".join(lines)


def test_folders_that_exist_give_no_warning(tmp_path: Path) -> None:
    settings = Settings.model_validate({"web": {"file_roots": [str(tmp_path)]}})
    assert missing_file_roots(settings) == []
    assert missing_file_roots(Settings()) == []
