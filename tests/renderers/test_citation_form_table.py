"""The one table of citation_form decisions: every combination of source, channel and context."""
# ruff: noqa: E501  (one row per case reads best as one line)

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.errors import ConfigError
from bot.models import Citation, Occurrence, RecordAction, Source
from renderers.base import (
    DEFAULT_CAPABILITIES,
    Capabilities,
    OccurrenceForm,
    RenderContext,
    capabilities_for,
    citation_form,
)

WEB = "https://docs.example/guide"
DEEP = "https://docs.example/guide.pdf#page=4"
SIGNED = "https://bot.example/files/tok"

PAGE = Source(id="p", title="Guide", url=WEB, page=4, section="Setup")
PDF = Source(
    id="f",
    title="Prices",
    filename="prices.pdf",
    path="kb/prices.pdf",
    media_type="application/pdf",
)
IMAGE = dataclasses.replace(PDF, id="i", filename="chart.png", media_type="image/png")
NOTE = Source(id="n", title="Call notes")
PRIVATE = Source(id="s", title="Salaries", url=WEB, audience=("hr",))
RECORD = Source(
    id="r",
    kind="record",
    label="Gateway G1",
    columns={"price": "$249", "stock": "12"},
    action=RecordAction("Buy", "https://shop.example/g1"),
)
RECORD_NO_ACTION = dataclasses.replace(RECORD, id="r2", action=None)

FILES = Capabilities(markup="mrkdwn", native_files=True, max_file_bytes=1000, max_files=2)
NO_FILES = Capabilities(markup="html")
PDF_ONLY = dataclasses.replace(FILES, media_types=("application/pdf",))
IMAGES_ONLY = dataclasses.replace(FILES, media_types=("image/*",))
BUTTONS = dataclasses.replace(FILES, buttons=True)
# links: false (a channel that cannot show a clickable link): no form has a URL
NO_LINKS = dataclasses.replace(FILES, links=False)
NO_LINKS_NO_FILES = dataclasses.replace(NO_FILES, links=False)
NO_LINKS_BUTTONS = dataclasses.replace(BUTTONS, links=False)
# masked_links and footnotes change how a renderer writes a form, not the form
BARE = dataclasses.replace(FILES, masked_links=False)
NO_FOOTNOTES = dataclasses.replace(FILES, footnotes=False)
TWO_MARKERS = (Occurrence("2 GB RAM", DEEP), Occurrence("8443", None))


def signer(source: Source) -> str | None:
    return SIGNED if source.path else None


def size(n: int) -> Any:
    return lambda source: n


CASES: list[tuple[str, Source, dict[str, Any], Capabilities, RenderContext, int, dict[str, Any]]] = [
    # public URL -> link, the deep link when there is one
    ("url-link", PAGE, {}, FILES, RenderContext(), 0, {"kind": "link", "url": WEB}),
    ("deep-link", PAGE, {"deep_link": DEEP}, FILES, RenderContext(), 0, {"kind": "link", "url": DEEP}),
    ("unsafe-deep-link", PAGE, {"deep_link": "javascript:x"}, FILES, RenderContext(), 0, {"kind": "link", "url": WEB}),
    ("url-wins-over-file", dataclasses.replace(PDF, url=WEB), {}, FILES, RenderContext(), 0, {"kind": "link", "url": WEB}),
    ("detail", PAGE, {}, FILES, RenderContext(), 0, {"detail": "p. 4, Setup"}),
    ("page-range", dataclasses.replace(PAGE, page_end=6), {}, FILES, RenderContext(), 0, {"detail": "pp. 4\u20136, Setup"}),
    # file without URL -> attachment where possible
    ("attach", PDF, {}, FILES, RenderContext(), 0, {"kind": "attachment", "path": "kb/prices.pdf", "filename": "prices.pdf"}),
    ("attach-size-ok", PDF, {}, FILES, RenderContext(file_size=size(1000)), 0, {"kind": "attachment"}),
    ("attach-type-ok", PDF, {}, PDF_ONLY, RenderContext(), 0, {"kind": "attachment"}),
    ("attach-wildcard-type", IMAGE, {}, IMAGES_ONLY, RenderContext(), 0, {"kind": "attachment"}),
    ("filename-from-path", dataclasses.replace(PDF, filename=None), {}, FILES, RenderContext(), 0, {"kind": "attachment", "filename": "prices.pdf"}),
    # ... else a signed download link
    ("no-native-files-signed", PDF, {}, NO_FILES, RenderContext(signer=signer), 0, {"kind": "download", "url": SIGNED}),
    ("attach-off-signed", PDF, {}, FILES, RenderContext(signer=signer, attach_files=False), 0, {"kind": "download", "url": SIGNED}),
    ("too-many-files-signed", PDF, {}, FILES, RenderContext(signer=signer), 2, {"kind": "download"}),
    ("too-big-signed", PDF, {}, FILES, RenderContext(signer=signer, file_size=size(1001)), 0, {"kind": "download"}),
    ("type-refused-signed", PDF, {}, IMAGES_ONLY, RenderContext(signer=signer), 0, {"kind": "download"}),
    ("unknown-type-refused", dataclasses.replace(PDF, media_type=None), {}, PDF_ONLY, RenderContext(signer=signer), 0, {"kind": "download"}),
    # ... else its name
    ("no-native-files-name", PDF, {}, NO_FILES, RenderContext(), 0, {"kind": "name", "title": "Prices", "filename": "prices.pdf"}),
    ("too-many-files-name", PDF, {}, FILES, RenderContext(), 2, {"kind": "name"}),
    ("too-big-name", PDF, {}, FILES, RenderContext(file_size=size(5000)), 0, {"kind": "name"}),
    ("unsafe-signed-url-name", PDF, {}, NO_FILES, RenderContext(signer=lambda s: "javascript:x"), 0, {"kind": "name", "url": None}),
    ("signer-declines-name", NOTE, {}, FILES, RenderContext(signer=signer), 0, {"kind": "name", "title": "Call notes"}),
    # audience
    ("private-hidden", PRIVATE, {}, FILES, RenderContext(), 0, {"kind": "hidden", "url": None, "title": "restricted source"}),
    ("private-visible-to-hr", PRIVATE, {}, FILES, RenderContext(audience=frozenset({"hr"})), 0, {"kind": "link"}),
    # records: label, attributed columns (only ones in the source), action as a button where possible
    ("record-button", RECORD, {"columns": ("price", "bogus")}, BUTTONS, RenderContext(), 0, {"kind": "name", "record.label": "Gateway G1", "record.columns": (("price", "$249"),), "record.button": True}),
    ("record-no-buttons", RECORD, {"columns": ("stock",)}, FILES, RenderContext(), 0, {"record.columns": (("stock", "12"),), "record.button": False, "record.action": RecordAction("Buy", "https://shop.example/g1")}),
    ("record-no-action", RECORD_NO_ACTION, {}, BUTTONS, RenderContext(), 0, {"record.columns": (), "record.button": False, "record.action": None}),
    ("record-with-url", dataclasses.replace(RECORD, url=WEB), {}, BUTTONS, RenderContext(), 0, {"kind": "link", "url": WEB, "record.button": True}),
    ("passage-no-record", PAGE, {}, BUTTONS, RenderContext(), 0, {"record": None}),
    # support
    ("weak", PAGE, {"support": 0.2}, FILES, RenderContext(), 0, {"weak": True}),
    ("at-threshold-not-weak", PAGE, {"support": 0.35}, FILES, RenderContext(), 0, {"weak": False}),
    ("unchecked-not-weak", PAGE, {}, FILES, RenderContext(), 0, {"weak": False}),
    ("custom-threshold", PAGE, {"support": 0.5}, FILES, RenderContext(weak_below=0.6), 0, {"weak": True}),
    ("quote-kept", PAGE, {"quote": "2 GB RAM"}, FILES, RenderContext(), 0, {"quote": "2 GB RAM"}),
    # links: false -> no URL: a page is named, a file attached where it can be, else named
    ("no-links-url-name", PAGE, {}, NO_LINKS, RenderContext(), 0, {"kind": "name", "url": None, "title": "Guide", "detail": "p. 4, Setup"}),
    ("no-links-deep-link-name", PAGE, {"deep_link": DEEP}, NO_LINKS, RenderContext(), 0, {"kind": "name", "url": None}),
    ("no-links-url-file-attached", dataclasses.replace(PDF, url=WEB), {}, NO_LINKS, RenderContext(), 0, {"kind": "attachment", "url": None, "path": "kb/prices.pdf"}),
    ("no-links-file-attached", PDF, {}, NO_LINKS, RenderContext(signer=signer), 0, {"kind": "attachment"}),
    ("no-links-no-signed-link", PDF, {}, NO_LINKS_NO_FILES, RenderContext(signer=signer), 0, {"kind": "name", "url": None, "filename": "prices.pdf"}),
    ("no-links-too-many-files-name", PDF, {}, NO_LINKS, RenderContext(signer=signer), 2, {"kind": "name", "url": None}),
    ("no-links-markers-without-urls", PAGE, {"quote": "2 GB RAM", "occurrences": TWO_MARKERS}, NO_LINKS, RenderContext(), 0, {"kind": "name", "occurrences": (OccurrenceForm("2 GB RAM", None, False, "p. 4, Setup"), OccurrenceForm("8443", None, False, "p. 4, Setup"))}),
    ("no-links-action-dropped", RECORD, {}, NO_LINKS, RenderContext(), 0, {"record.action": None, "record.button": False, "record.label": "Gateway G1"}),
    ("no-links-action-button-kept", RECORD, {}, NO_LINKS_BUTTONS, RenderContext(), 0, {"record.action": RecordAction("Buy", "https://shop.example/g1"), "record.button": True}),
    ("no-links-private-hidden", PRIVATE, {}, NO_LINKS, RenderContext(), 0, {"kind": "hidden"}),
    ("no-links-weak", PAGE, {"support": 0.2}, NO_LINKS, RenderContext(), 0, {"kind": "name", "weak": True}),
    # masked_links: false and footnotes: false keep the form (the renderer writes it differently)
    ("bare-links-keep-link", PAGE, {"deep_link": DEEP}, BARE, RenderContext(), 0, {"kind": "link", "url": DEEP}),
    ("bare-links-keep-signed", PDF, {}, dataclasses.replace(NO_FILES, masked_links=False), RenderContext(signer=signer), 0, {"kind": "download", "url": SIGNED}),
    ("no-footnotes-keep-link", PAGE, {}, NO_FOOTNOTES, RenderContext(), 0, {"kind": "link", "url": WEB}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("source", "extra", "caps", "context", "files_used", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_citation_form(
    source: Source,
    extra: dict[str, Any],
    caps: Capabilities,
    context: RenderContext,
    files_used: int,
    expected: dict[str, Any],
) -> None:
    citation = Citation(n=3, source=source, source_number=7, **extra)
    form = citation_form(citation, caps, context, files_used=files_used)
    assert form.n == 3
    for key, value in expected.items():
        target: Any = form
        for part in key.split("."):
            target = getattr(target, part)
        assert target == value, key


def test_every_channel_has_defaults() -> None:
    assert set(DEFAULT_CAPABILITIES) == {"web", "slack", "email", "discord", "discourse"}
    assert DEFAULT_CAPABILITIES["discord"].max_chars == 2000
    assert DEFAULT_CAPABILITIES["discourse"].max_chars == 32_000
    assert DEFAULT_CAPABILITIES["slack"].max_blocks == 50
    assert not DEFAULT_CAPABILITIES["web"].native_files


def test_capabilities_overrides() -> None:
    caps = capabilities_for("slack", {"max_files": 3, "media_types": ["image/*"], "buttons": False})
    assert (caps.max_files, caps.media_types, caps.buttons) == (3, ("image/*",), False)
    assert capabilities_for("discourse", None) is DEFAULT_CAPABILITIES["discourse"]


@pytest.mark.parametrize(
    ("channel", "overrides", "message"),
    [
        ("teams", {}, "unknown channel"),
        ("slack", {"max_filez": 1}, "capabilities.slack.max_filez: unknown capability"),
        ("slack", {"max_files": -1}, "non-negative integer"),
        ("slack", {"max_files": True}, "non-negative integer"),
        ("slack", {"buttons": "yes"}, "true or false"),
        ("web", {"markup": "rtf"}, "html|mrkdwn|markdown|plain"),
        ("web", {"streaming": "fast"}, "native|edit|none"),
        ("web", {"media_types": "image/png"}, "list of strings"),
        # what no renderer honours (tests/core/test_config_capability_refusals.py: the lines)
        ("slack", {"markup": "plain"}, "capabilities.slack.markup: describes the Slack renderer"),
        ("discord", {"streaming": "none"}, "capabilities.discord.streaming: the Discord connector"),
        (
            "web",
            {"max_chars": 300},
            "capabilities.web.max_chars: the web page shows an answer whole",
        ),
        ("slack", {"footnotes": True}, "capabilities.slack.footnotes: Slack has no footnotes"),
        ("email", {"links": False}, "capabilities.email.links: an HTML email always shows links"),
        ("web", {"masked_links": False}, "capabilities.web.masked_links: an HTML link always"),
        ("discord", {"max_chars": 199}, "capabilities.discord.max_chars: must be at least 200"),
        ("slack", {"max_chars": 99}, "capabilities.slack.max_chars: must be at least 100"),
        ("slack", {"max_blocks": 4}, "capabilities.slack.max_blocks: must be at least 5"),
        ("discord", {"max_chars": 2001}, "capabilities.discord.max_chars: must be at most 2000"),
    ],
)
def test_capabilities_bad_overrides(channel: str, overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("|", r"\|")):
        capabilities_for(channel, overrides)


@pytest.mark.parametrize(
    ("channel", "overrides"),
    [
        ("slack", {"links": False, "masked_links": False, "markup": "mrkdwn", "max_blocks": 5}),
        ("discord", {"links": False, "masked_links": False, "max_chars": 200}),
        ("discourse", {"links": False, "masked_links": False, "footnotes": False}),
        ("web", {"footnotes": True, "streaming": "native", "max_chars": 1_000_000}),
    ],
)
def test_overrides_a_renderer_honours_apply(channel: str, overrides: dict[str, Any]) -> None:
    caps = capabilities_for(channel, overrides)
    assert {key: getattr(caps, key) for key in overrides} == overrides


def test_the_bounds_are_the_platform_limits() -> None:
    from renderers import capabilities, limits

    assert capabilities.BOUNDS["discord", "max_chars"][1] == limits.DISCORD_MAX_CONTENT
    assert capabilities.BOUNDS["slack", "max_chars"][1] == limits.SLACK_MAX_SECTION_CHARS
    assert capabilities.BOUNDS["slack", "max_blocks"][1] == limits.SLACK_MAX_BLOCKS


def test_full_list_url() -> None:
    assert RenderContext().full_list_url() is None
    assert RenderContext(public_base_url="https://b.example").full_list_url() is None
    ctx = RenderContext(public_base_url="https://b.example/", turn_id="42")
    assert ctx.full_list_url() == "https://b.example/turns/42#sources"
    assert RenderContext(sources_url="https://x.example/s").full_list_url() == "https://x.example/s"
    assert RenderContext(sources_url="javascript:x").full_list_url() is None


def test_a_record_value_over_several_lines_shows_on_one_line_everywhere() -> None:
    # a table may hold an address over two lines; in a source line or a footnote definition a
    # line break would end the entry (Discourse) or break its indentation (email text)
    from bot.models import Answer, Citation
    from renderers import render_all

    shop = dataclasses.replace(RECORD, columns={"address": "12 Main St\nSpringfield"})
    answer = Answer(
        text="It ships from there.[^1]", citations=(Citation(1, shop, 1, columns=("address",)),)
    )
    payloads = render_all(answer, RenderContext())
    assert "address: 12 Main St Springfield" in payloads["email"]["text"]
    assert "12 Main St Springfield" in payloads["discourse"]["raw"]
    assert "12 Main St\nSpringfield" not in str(payloads)
