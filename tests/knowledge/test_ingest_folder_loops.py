"""A symlinked folder that links to a folder holding it (``a/up -> ..``) is a loop: the summary
lists it with the reason, as it lists a file symlink loop; an alias of a folder inside the root
is walked where its folder lies, with nothing to say."""

from __future__ import annotations

from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.knowledge.ingest import Skipped

FOLDER_LOOP = "symlink loop (it links to a folder that holds it)"


def test_a_folder_symlink_loop_is_listed(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    (docs / "a").mkdir(parents=True)
    (docs / "a" / "guide.md").write_text("Okapi guide.\n", encoding="utf-8")
    (docs / "a" / "up").symlink_to("..")
    (docs / "a" / "self").symlink_to(docs / "a")
    (docs / "alias").symlink_to(docs / "a")  # an alias: read where it lies, no message
    report = ingest([docs], IndexSettings(path=str(tmp_path / "i.db")))
    assert report.indexed == 1
    assert report.folders_skipped == [
        Skipped("kb/a/self/", FOLDER_LOOP),
        Skipped("kb/a/up/", FOLDER_LOOP),
    ]
