"""Several cited passages of one file without a public URL: the file travels once."""

from __future__ import annotations

import dataclasses

from bot.models import Answer, Citation, Source
from renderers import render_all
from renderers.base import Capabilities, RenderContext, capabilities_for
from renderers.document import decide_forms

GUIDE = Source(
    id="guide#1",
    title="Operations guide",
    filename="guide.pdf",
    path="kb/guide.pdf",
    media_type="application/pdf",
    page=2,
)
GUIDE_PAGE_9 = dataclasses.replace(GUIDE, id="guide#7", page=9)
PRICES = Source(id="prices", title="Prices", filename="prices.csv", path="kb/prices.csv")
ANSWER = Answer(
    text="Back up daily.[^1] Keep 30 copies.[^2] Plans are listed.[^3]",
    citations=(Citation(1, GUIDE, 1), Citation(2, GUIDE_PAGE_9, 2), Citation(3, PRICES, 3)),
)


def test_a_file_already_attached_does_not_count_again_against_max_files() -> None:
    one_file = Capabilities(markup="mrkdwn", native_files=True, max_files=1)
    forms = decide_forms(ANSWER.citations, one_file, RenderContext())
    assert [forms[n].kind for n in (1, 2, 3)] == ["attachment", "attachment", "name"]


def test_each_channel_sends_the_file_once_and_cites_it_twice() -> None:
    payloads = render_all(ANSWER, RenderContext())
    for channel, key in (("slack", "files"), ("discord", "files"), ("email", "attachments")):
        files = payloads[channel][key]
        assert [(f["n"], f["path"]) for f in files] == [(1, "kb/guide.pdf"), (3, "kb/prices.csv")]
    # both citations of the guide still name it in the source lines
    slack_sources = str(payloads["slack"]["messages"][-1]["blocks"][-1])
    assert "[1] Operations guide" in slack_sources and "[2] Operations guide" in slack_sources
    assert slack_sources.count("attached: guide.pdf") == 2
    # Discourse: each footnote has its own placeholder; the connector uploads a file once
    discourse = payloads["discourse"]
    assert [u["n"] for u in discourse["uploads"]] == [1, 2, 3]
    assert all(u["placeholder"] in discourse["raw"] for u in discourse["uploads"])


def test_passages_of_one_file_under_two_names_name_the_file_that_travels() -> None:
    # the same file reached under another display name (a renamed copy in another folder's
    # front matter, say): it is attached once, so every reference must name that one file
    renamed = dataclasses.replace(GUIDE_PAGE_9, filename="ops-guide-v2.pdf")
    answer = dataclasses.replace(
        ANSWER, citations=(Citation(1, GUIDE, 1), Citation(2, renamed, 2), Citation(3, PRICES, 3))
    )
    payloads = render_all(answer, RenderContext())
    assert [f["filename"] for f in payloads["email"]["attachments"]] == ["guide.pdf", "prices.csv"]
    for part in ("text", "html"):
        assert "ops-guide-v2.pdf" not in payloads["email"][part]
        assert payloads["email"][part].count("attached: guide.pdf") == 2
    slack_sources = str(payloads["slack"]["messages"][-1]["blocks"][-1])
    assert slack_sources.count("attached: guide.pdf") == 2
    assert "ops-guide-v2.pdf" not in str(payloads["discord"]["messages"])


def test_two_files_of_one_name_travel_under_distinct_names() -> None:
    # two different files that are both called guide.pdf: each reference must say which one
    other = Source(id="old#1", title="Old guide", filename="guide.pdf", path="old/guide.pdf")
    answer = dataclasses.replace(
        ANSWER, citations=(Citation(1, GUIDE, 1), Citation(2, other, 2), Citation(3, PRICES, 3))
    )
    payloads = render_all(answer, RenderContext())
    names = [f["filename"] for f in payloads["email"]["attachments"]]
    assert names == ["guide.pdf", "guide (2).pdf", "prices.csv"]
    assert "attached: guide (2).pdf" in payloads["email"]["text"]
    assert [f["filename"] for f in payloads["slack"]["files"]] == names


def test_an_attachment_is_named_as_mail_clients_will_save_it() -> None:
    # folder parts, control characters and trailing dots never reach a file name, so the
    # name a reference shows is the name the file arrives under
    odd = dataclasses.replace(PRICES, filename="../notes\x07.\n")
    nameless = dataclasses.replace(PRICES, id="x", filename="...", path="kb/...")
    email = capabilities_for("email")
    forms = decide_forms([Citation(1, odd, 1), Citation(2, nameless, 2)], email, RenderContext())
    assert [(f.kind, f.filename) for f in forms.values()] == [
        ("attachment", "notes"),
        ("attachment", "attachment"),
    ]
