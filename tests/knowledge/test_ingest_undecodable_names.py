"""Names that are not UTF-8 are shown with their undecodable bytes escaped (``lat\\xe9.md``).

Found in a QA pass: ``lat\\xe9.md`` and ``lat\\xe8.md`` were both reported as ``lat`` U+FFFD
``.md``, so a summary of several such files could not say which one to rename.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge.walk import BAD_NAME, shown, utf8_name


def test_two_undecodable_names_are_told_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "kb6"
    docs.mkdir()
    for raw in (b"lat\xe9.md", b"lat\xe8.md"):
        (docs / os.fsdecode(raw)).write_text("Okapi.\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text(f"index:\n  path: {tmp_path / 'index.db'}\n")
    assert main(["--config", str(tmp_path / "config.yaml"), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert f"skipped kb6/lat\\xe8.md: {BAD_NAME}" in out
    assert f"skipped kb6/lat\\xe9.md: {BAD_NAME}" in out
    assert "\ufffd" not in out


def test_a_shown_name_keeps_valid_text_and_stores_as_utf8() -> None:
    name = os.fsdecode("Größe/".encode() + b"\xff\xfe.md")
    assert shown(name) == "Größe/\\xff\\xfe.md"
    shown(name).encode("utf-8")  # storable: no lone surrogate left
    assert not utf8_name(name) and utf8_name("Größe/lat\\xe9.md")
