"""Discourse: a file type the forum refuses is not sent again while the connector runs.

The forum's default *authorized extensions* are images only, so every ``.md`` source is refused
with 422 "not authorized": after the first refusal such files are shown by name (or linked) at
once, with one warning naming the settings that change it. A refusal of one file (too big) is
not remembered. Driven through the real connector against the loopback fake forum.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.connectors.discourse_errors import DiscourseAPIError
from bot.connectors.discourse_upload_types import refused_by_type
from bot.models import Source
from tests.connectors.discourse_harness import PUBLIC, Harness, footnotes, forum, harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]


def sources(tmp_path: Path) -> list[Source]:
    made: list[Source] = []
    for name, media_type in [
        ("setup.md", "text/markdown"),
        ("faq.md", "text/markdown"),
        ("chart.png", "image/png"),
        ("notes.md", "text/markdown"),
    ]:
        path = tmp_path / name
        path.write_bytes(f"contents of {name}".encode())
        made.append(
            Source(id=name, title=f"About {name}", path=str(path), filename=name,
                   media_type=media_type, kind="file")
        )  # fmt: skip
    return made


def upload_statuses(forum: FakeDiscourse) -> list[int]:
    return [status for _, path, status in forum.requests if path == "/uploads.json"]


async def ask(h: Harness, tmp_path: Path, question: str) -> str:
    h.script(sources(tmp_path), f"{question}: setup [1], the FAQ [2], a chart [3], notes [4].")
    topic = h.forum.new_topic(question, f"{question}, please?", category_id=PUBLIC)
    await h.deliver(topic)
    return str(h.forum.bot_posts()[-1]["raw"])


async def test_a_refused_type_is_tried_once_and_warned_about_once(
    harness: Harness, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors")
    first = await ask(harness, tmp_path, "Setting up")
    second = await ask(harness, tmp_path, "Getting started")
    # one refused .md upload in all, and the chart uploaded for each answer
    assert upload_statuses(harness.forum) == [422, 200, 200]
    for raw in (first, second):
        _, links = footnotes(raw)
        assert links["1"] == [] and links["2"] == [] and links["4"] == []
        assert "[^1]: About setup.md: setup.md" in raw.splitlines()
        assert "[^4]: About notes.md: notes.md" in raw.splitlines()
        [(text, url)] = links["3"]
        assert text == "chart.png|attachment" and url.startswith("upload://")
    warnings = [r for r in caplog.records if "refuses .md uploads" in r.getMessage()]
    assert [r.levelno for r in warnings] == [logging.WARNING]
    message = warnings[0].getMessage()
    assert "discourse.allowed_upload_extensions" in message
    assert "web.public_base_url" in message
    assert "not authorized" in message  # the forum's own words
    assert not [r for r in caplog.records if "refused upload of" in r.getMessage()]


async def test_a_file_too_big_is_tried_again_for_each_answer(
    harness: Harness, tmp_path: Path
) -> None:
    harness.forum.authorized_extensions = ("png", "md")
    harness.forum.max_attachment_bytes = 5  # every file is too big: a refusal of one file
    await ask(harness, tmp_path, "Setting up")
    await ask(harness, tmp_path, "Getting started")
    assert upload_statuses(harness.forum) == [422] * 8


def refusal(*errors: str) -> DiscourseAPIError:
    return DiscourseAPIError("POST /uploads.json answered 422", 422, errors)


@pytest.mark.parametrize(
    ("message", "by_type"),
    [
        (
            "Sorry, the file you are trying to upload is not authorized (authorized extensions:"
            " jpg, jpeg, png, gif).",
            True,
        ),
        (
            "Die Datei, die du hochladen möchtest, ist leider nicht erlaubt (erlaubte"
            " Dateiendungen: jpg, jpeg, png, gif).",
            True,
        ),
        ("Désolé, ce fichier n'est pas autorisé (extensions autorisées : .jpg, .png).", True),
        ("上传的文件未被授权（授权的扩展名：jpg、png）。", True),
        ("not authorized (authorized extensions: ).", True),  # an empty list
        ("(authorized extensions: jpg, md, png)", False),
        ("(authorized extensions: *)", False),
        ("Sorry, the file you are trying to upload is too big (maximum size is 4 MB).", False),
        ("Die Datei ist leider zu groß (maximale Größe: 4096KB).", False),
        ("Le fichier est trop volumineux (taille maximale : 4 Mo).", False),
    ],
)
def test_a_refusal_of_md_files_by_type_is_told_from_others(message: str, by_type: bool) -> None:
    assert refused_by_type(refusal(message), "md") is by_type


def test_only_a_422_is_a_refusal_by_type() -> None:
    error = DiscourseAPIError("413", 413, ["not authorized (authorized extensions: png)"])
    assert not refused_by_type(error, "md")
    assert not refused_by_type(refusal("not authorized (authorized extensions: png)"), "")


class StaticSigner:
    """Stands in for FileSigner (web.public_base_url set): a signed link per source."""

    def url_for(self, source: Source, audience: frozenset[str]) -> str | None:
        return f"https://citecast.example/files/{source.id}"

    def turn_key(self, turn_id: int) -> str:
        return f"{turn_id}-signed"


async def test_with_signed_links_the_warning_says_so(
    harness: Harness, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    harness.connector.services.signer = StaticSigner()
    caplog.set_level(logging.WARNING, logger="bot.connectors")
    first = await ask(harness, tmp_path, "Setting up")
    second = await ask(harness, tmp_path, "Getting started")
    assert upload_statuses(harness.forum) == [422, 200, 200]
    for raw in (first, second):
        _, links = footnotes(raw)
        assert links["2"] == [("faq.md", "https://citecast.example/files/faq.md")]
    [warning] = [r.getMessage() for r in caplog.records if "refuses .md uploads" in r.getMessage()]
    assert "signed download link" in warning and "web.public_base_url" not in warning
