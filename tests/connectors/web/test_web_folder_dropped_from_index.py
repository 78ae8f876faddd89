"""A cited file whose folder the index no longer covers: ``citecast ingest --rebuild`` over the
other folders (the usual way to take a folder that was public by mistake out of the knowledge
base), or the index deleted and built again without it.

The README promises that once a cited file is "dropped from the index", links already shared
to the answer show nothing more. The rule (``web_file_access.visible_now`` / ``as_now``) used to
ask the index only about paths it still covers, so a file of a folder no longer ingested was
judged like a ``web.file_roots`` file, by the audience stored with the answer, and stayed shown
and shared. A passage the index found now counts as dropped with its folder; a file an
answerer cited from ``web.file_roots`` alone keeps the audience stored with it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.config import IndexSettings
from bot.connectors.web_file_access import as_now, visible_now
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.knowledge import KnowledgeIndex, ingest
from bot.models import Answer, Citation, Source
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import (
    PUBLIC_TEXT,
    QUESTION,
    REMOVED,
    ask_public,
    assert_refused,
    fetch_all,
    harness,
    reloaded,
)
from tests.connectors.web.test_web_share_made_private import MAIL, ask
from tests.connectors.web.test_web_share_made_private import harness as recording_harness

PUBLIC = frozenset({"public"})
SECRET = b"test-secret-0123456789abcdef"
HOW = ["rebuild", "index reset"]


def kb_with_hr_folder(tmp_path: Path) -> Path:
    """``kb/hr/roadmap.md`` (public by mistake) and ``kb/pub/welcome.md``."""
    kb = tmp_path / "kb"
    (kb / "hr").mkdir(parents=True)
    (kb / "pub").mkdir()
    (kb / "hr" / "roadmap.md").write_text(PUBLIC_TEXT, encoding="utf-8")
    (kb / "pub" / "welcome.md").write_text("# Welcome\n\nThe help desk answers mail.\n")
    return kb


def drop_hr_folder(kb: Path, index: IndexSettings, how: str) -> None:
    """Take ``kb/hr`` out of the knowledge base: rebuild the index from ``kb/pub`` alone."""
    if how == "rebuild":
        ingest([kb / "pub"], index, rebuild=True)
    else:  # the index deleted and built again from the public folder
        for leftover in Path(index.path).parent.glob(f"{Path(index.path).name}*"):
            leftover.unlink()
        ingest([kb / "pub"], index)


@pytest.mark.parametrize("how", [*HOW, "rebuild, kb also in web.file_roots"])
async def test_a_file_whose_folder_a_rebuild_left_out_is_no_longer_shown(
    tmp_path: Path, how: str
) -> None:
    kb = kb_with_hr_folder(tmp_path)
    index = make_settings(tmp_path).index
    ingest([kb], index)
    served: dict[str, Any] = {"file_roots": [str(kb)]} if "file_roots" in how else {}
    services, client = harness(tmp_path, **served)
    async with client:
        asked = await ask_public(client)
        turn, share = await reloaded(client, asked)
        assert share.status_code == 200 and "Leipzig" in share.text
        assert turn["share_url"] is not None

        drop_hr_folder(kb, index, how.partition(",")[0])
        if not served:
            # (a folder listed in web.file_roots is served on its token, as configured)
            assert_refused(await fetch_all(client, asked.file_path))
        turn, share = await reloaded(client, asked)
        assert share.status_code == 404 and "Leipzig" not in share.text, share.text[:300]
        assert turn["share_url"] is None
        [citation] = turn["citations"]
        assert citation["title"] == f"Roadmap {REMOVED}", citation
        assert citation["form"] == "name" and "/files/" not in turn["html"]
        [stored] = turn["answer"]["citations"]
        assert "quote" not in stored and "text" not in stored["source"]
    services.store.close()


@pytest.mark.parametrize("how", HOW)
async def test_an_answer_citing_a_dropped_folder_is_not_given_as_history_again(
    tmp_path: Path, how: str
) -> None:
    kb = kb_with_hr_folder(tmp_path)
    index = make_settings(tmp_path).index
    ingest([kb], index)
    services, answerer, client = recording_harness(tmp_path)
    async with client:
        roadmap = await ask(client, QUESTION)
        conversation = str(roadmap["conversation_id"])
        await ask(client, MAIL, conversation)
        assert [exchange.question for exchange in answerer.histories[-1]] == [QUESTION]
        assert "Leipzig" in answerer.histories[-1][0].answer

        drop_hr_folder(kb, index, how)
        await ask(client, MAIL, conversation)
        # the public answer after it is still history; the dropped file's answer is not
        assert [exchange.question for exchange in answerer.histories[-1]] == [MAIL]
        assert "Leipzig" not in str(answerer.histories[-1])
    services.store.close()


def test_only_a_passage_the_index_found_counts_as_dropped_with_its_folder(
    tmp_path: Path,
) -> None:
    kb = kb_with_hr_folder(tmp_path)
    index = make_settings(tmp_path).index
    ingest([kb], index)
    [found] = KnowledgeIndex(Path(index.path)).search("Leipzig depot")
    roadmap = str(kb / "hr" / "roadmap.md")
    assert found.path == roadmap
    # the same file cited by an answerer from web.file_roots (not from the index)
    own = Source(id="roadmap", title="Roadmap", path=roadmap, filename="roadmap.md", kind="file")
    files = IndexedFiles(index.path)
    visible = visible_now(files, PUBLIC)
    assert visible(found) and visible(own)

    ingest([kb / "pub"], index, rebuild=True)
    files = IndexedFiles(index.path)
    visible = visible_now(files, PUBLIC)
    assert not visible(found)
    assert visible(own)  # outside every ingested folder: its stored audience decides
    assert not visible(dataclasses.replace(own, audience=("staff",)))

    # re-rendered with kb/ served from web.file_roots: the passage is dropped, linked or not
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    answer = Answer(
        "Claim.[^1] Other.[^2]",
        (
            Citation(n=1, source=found, source_number=1, quote="Leipzig"),
            Citation(n=2, source=own, source_number=2, quote="Leipzig"),
        ),
    )
    for linking in (signer, None):
        gone, kept = as_now(answer, files, linking, PUBLIC).citations
        assert gone.source.title == f"Roadmap {REMOVED}" and gone.quote is None
        assert (gone.source.path, gone.source.text) == (None, None)
        assert kept == answer.citations[1]
