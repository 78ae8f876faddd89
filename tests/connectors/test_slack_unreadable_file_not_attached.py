"""A cited file deleted from disk since ingest cannot be uploaded, so Slack's source list never
says "(attached: …)" for it: it is named (or linked signed), and a file that is there still
travels (README: the answer never says "(attached: …)" for a file it could not upload)."""

from __future__ import annotations

from pathlib import Path

from bot.models import Answer, Citation
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    context_texts,
    mention,
    slack_world,
    source,
)


def _citing_file(path: Path, name: str) -> Answer:
    handbook = source(
        1,
        url=None,
        path=str(path),
        filename=name,
        media_type="application/pdf",
        title="Handbook",
    )
    citation = Citation(n=1, source=handbook, source_number=1)
    return Answer(text="Leave is 25 days.[^1]", citations=(citation,))


async def test_a_file_gone_from_disk_is_named_not_attached(tmp_path: Path) -> None:
    answer = _citing_file(tmp_path / "gone.pdf", "gone.pdf")
    async with slack_world(tmp_path, CannedAnswerer(answer)) as world:
        await world.post_event(mention("leave?", ts="1600000000.000600"))
        assert world.fake.calls_to("files.completeUploadExternal") == []
        [entry] = context_texts(world.fake.bot_messages(PUBLIC))
        assert "attached" not in entry, entry
        assert "Handbook" in entry and "gone.pdf" in entry, entry


async def test_a_file_still_on_disk_is_attached(tmp_path: Path) -> None:
    # the other side of the line: a readable file is uploaded and named as attached
    (tmp_path / "here.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    answer = _citing_file(tmp_path / "here.pdf", "here.pdf")
    async with slack_world(tmp_path, CannedAnswerer(answer)) as world:
        await world.post_event(mention("leave?", ts="1600000000.000700"))
        assert len(world.fake.calls_to("files.completeUploadExternal")) == 1
        [entry] = context_texts(world.fake.bot_messages(PUBLIC))
        assert "(attached: here.pdf)" in entry, entry
