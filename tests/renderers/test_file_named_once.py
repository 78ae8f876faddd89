"""A file without a title of its own is named once in its source entry.

Its title is its file name, so "notes_v2.md (attached: notes_v2.md)" said the name twice (Slack,
Discord, both parts of the e-mail), and a download "manual.pdf (manual.pdf)" (web, Slack,
Discord, e-mail). A file whose title differs keeps its name beside it: that is the name to look
the attachment up by.
"""

from __future__ import annotations

import json

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for

UNTITLED = Citation(
    1, Source(id="a", path="kb/notes_v2.md", filename="notes_v2.md", kind="file"), 1
)
TITLED = Citation(
    2,
    Source(id="b", title="Release notes", path="kb/notes.md", filename="notes.md", kind="file"),
    2,
)
ANSWER = Answer(text="See the notes [^1] and the release notes [^2].", citations=(UNTITLED, TITLED))


def signer(source: Source) -> str | None:
    return f"https://bot.example/files/tok-{source.id}"


def shown(channel: str, context: RenderContext | None = None) -> str:
    """Everything the channel sends, as text (Discord's escaped underscores read plain)."""
    payload = render(channel, ANSWER, context)
    return json.dumps(payload, ensure_ascii=False).replace("\\\\_", "_")


ATTACHED = {
    "slack": ("[1] notes_v2.md (attached)", "[2] Release notes (attached: notes.md)"),
    "discord": ("] notes_v2.md (attached)\\n", "] Release notes (attached: notes.md)"),
    "email": ("[1] notes_v2.md (attached)\\n", "[2] Release notes (attached: notes.md)"),
}


@pytest.mark.parametrize("channel", ["slack", "discord", "email"])
def test_an_attached_file_without_a_title_is_named_once(channel: str) -> None:
    text = shown(channel)
    untitled, titled = ATTACHED[channel]
    assert untitled in text
    assert titled in text
    assert "attached: notes_v2.md" not in text  # the e-mail's HTML part too


@pytest.mark.parametrize("channel", ["web", "slack", "discord", "email"])
def test_a_downloaded_file_without_a_title_is_named_once(channel: str) -> None:
    # no attachments allowed: each file is a signed download link
    context = RenderContext(
        capabilities=capabilities_for(channel, {"native_files": False}), signer=signer
    )
    text = shown(channel, context)
    assert "https://bot.example/files/tok-a" in text
    assert "(notes_v2.md)" not in text
    assert "download: notes_v2.md" not in text
    # a titled file still says which file it is
    assert "(notes.md)" in text or "(download: notes.md)" in text
