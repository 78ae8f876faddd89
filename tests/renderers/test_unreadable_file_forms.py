"""A file the connector could not read (``file_size`` answers None: deleted since ingest) is
never attached, in any channel: it shows as its signed download link, else by name. A renderer
run that knows no sizes at all (no ``file_size``) still attaches, as before."""

from __future__ import annotations

import json

import pytest

from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from renderers.base import DEFAULT_CAPABILITIES, RenderContext, citation_form

SIGNED = "https://bot.example.com/files/t0k3n"
GONE = Source(
    id="kb/gone.pdf#1",
    title="Handbook",
    path="kb/gone.pdf",
    filename="gone.pdf",
    media_type="application/pdf",
)
CITATION = Citation(n=1, source=GONE, source_number=1)
ANSWER = Answer(text="Leave is 25 days.[^1]", citations=(CITATION,))
FILE_CHANNELS = [c for c in CHANNELS if DEFAULT_CAPABILITIES[c].native_files]


def unreadable(_source: Source) -> int | None:
    return None


def signer(_source: Source) -> str | None:
    return SIGNED


@pytest.mark.parametrize("channel", FILE_CHANNELS)
def test_an_unreadable_file_is_named_not_attached(channel: str) -> None:
    context = RenderContext(file_size=unreadable)
    form = citation_form(CITATION, DEFAULT_CAPABILITIES[channel], context)
    assert (form.kind, form.path) == ("name", None)
    payload = json.dumps(render(channel, ANSWER, context), ensure_ascii=False)
    assert "attached" not in payload, channel
    assert "gone.pdf" in payload, channel  # still named, to look it up by


@pytest.mark.parametrize("channel", FILE_CHANNELS)
def test_an_unreadable_file_gets_its_signed_link(channel: str) -> None:
    context = RenderContext(file_size=unreadable, signer=signer)
    form = citation_form(CITATION, DEFAULT_CAPABILITIES[channel], context)
    assert (form.kind, form.url) == ("download", SIGNED)
    payload = json.dumps(render(channel, ANSWER, context), ensure_ascii=False)
    assert "attached" not in payload, channel
    assert SIGNED in payload, channel


@pytest.mark.parametrize("channel", FILE_CHANNELS)
def test_a_readable_file_and_unknown_sizes_still_attach(channel: str) -> None:
    for context in (RenderContext(file_size=lambda _source: 1000), RenderContext()):
        form = citation_form(CITATION, DEFAULT_CAPABILITIES[channel], context)
        assert (form.kind, form.path, form.filename) == ("attachment", GONE.path, "gone.pdf")
