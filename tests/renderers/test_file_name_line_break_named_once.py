"""A file called by a file name holding a line break is named once, as it arrives.

Its attachment name is on one line ("report Bcc.pdf") while its title kept the raw name
("report\\nBcc.pdf"), so the two differed and Slack, Discord and Discourse showed both:
"report Bcc.pdf (attached: report Bcc.pdf)". ``citation_form`` now titles such a file by its
attachment name, for every channel at once; a file with a title of its own keeps it, and its
name beside it.
"""

from __future__ import annotations

import json

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for, citation_form

BROKEN = Citation(
    1, Source(id="a", path="kb/report.pdf", filename="report\nBcc.pdf", kind="file"), 1
)
TITLED = Citation(
    2,
    Source(id="b", title="Q3\nfigures", path="kb/q3.pdf", filename="q3\r\nfinal.pdf", kind="file"),
    2,
)
ANSWER = Answer(text="See the report [^1] and the figures [^2].", citations=(BROKEN, TITLED))


def sent(channel: str) -> str:
    """What the channel sends, as JSON text (a line break shows as ``\\n``)."""
    return json.dumps(render(channel, ANSWER, RenderContext()), ensure_ascii=False)


@pytest.mark.parametrize("channel", ["slack", "discord", "email", "discourse"])
def test_the_attachment_form_titles_an_untitled_file_by_its_attachment_name(channel: str) -> None:
    caps = capabilities_for(channel)
    form = citation_form(BROKEN, caps, RenderContext())
    assert form.kind == "attachment"
    assert (form.title, form.filename) == ("report Bcc.pdf", "report Bcc.pdf")
    titled = citation_form(TITLED, caps, RenderContext(), files_used=1)
    assert (titled.title, titled.filename) == ("Q3\nfigures", "q3 final.pdf")


@pytest.mark.parametrize(
    ("channel", "entry"),
    [
        ("slack", "[1] report Bcc.pdf (attached)"),
        ("discord", "] report Bcc.pdf (attached)"),
        ("email", "[1] report Bcc.pdf (attached)\\n"),
        ("discourse", "[^1]: [report Bcc.pdf|attachment](citecast-upload://1)"),
    ],
)
def test_a_file_name_with_a_line_break_is_named_once(channel: str, entry: str) -> None:
    text = sent(channel)
    assert entry in text
    assert "report\\nBcc.pdf" not in text  # neither beside the name nor in the e-mail's HTML
    assert "attached: report Bcc.pdf" not in text
    # the file with a title of its own still names the file beside it
    assert "q3 final.pdf" in text.replace("\\\\_", "_")


def test_the_web_names_such_a_file_once() -> None:
    # the web sends no files: the entry is the source's name alone, never "name (name)"
    text = sent("web")
    assert "(report" not in text
    assert "report" in text
