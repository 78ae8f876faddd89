"""The one table of citation_form decisions: every combination of source, channel and context."""
# ruff: noqa: E501  (one row per case reads best as one line)

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.errors import ConfigError
from bot.models import Citation, RecordAction, Source
from renderers.base import (
    DEFAULT_CAPABILITIES,
    Capabilities,
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
    ],
)
def test_capabilities_bad_overrides(channel: str, overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("|", r"\|")):
        capabilities_for(channel, overrides)


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
