"""Bidi override and isolate controls (Trojan Source) never reach a channel; RTL text does, whole.

``"\\u202e91$"`` displays as ``$19`` and an override left open reverses the rest of the line, a
link or a footnote definition. Documents and model text may hold them: every renderer drops the
nine controls (U+202A–U+202E, U+2066–U+2069) from what it shows, percent-encodes them in URLs,
and keeps the direction marks and joiners Arabic, Hebrew and Persian text uses.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.bidi_controls import BIDI_CONTROLS, without_bidi_controls
from bot.markdown import parse, split_blocks
from bot.models import Answer, Citation, CitationAdded, RecordAction, Source, TextDelta
from renderers import CHANNELS, render
from renderers.base import RenderContext, attachment_name
from renderers.streaming import StreamRenderer
from renderers.url_encoding import encoded_url
from tests.renderers.payload_checks import CHECKS, check_no_bidi_controls, shown_strings
from tests.renderers.test_renderer_properties import answers, contexts

RLO = "\u202e"
PDF = "\u202c"
ANSWER_TEXT = (
    f"The fee is {RLO}91$[^1] per seat, see the invoice[^2].\n\n"
    f"- In code: `total{RLO} = 19`[^3]\n\n"
    f'```\nif access_level != "user{RLO}\u2066// check if admin\u2069\u2066":\n```\n\n'
    f"| Plan{RLO} | Price |\n|---|---|\n| Team | {RLO}91${PDF} |\n\n"
    f"[the price{RLO} list](https://prices.example/{RLO}list)[^4]\n"
)


def hostile_answer() -> Answer:
    """An RLO in the answer text, every source title, a section, a quote, a file name, a
    record's label, columns and action, and the URLs."""
    price = Source(
        id="p",
        title=f"Price{RLO} list",
        url=f"https://docs.example/{RLO}prices",
        section=f"Fees{RLO} > Seats",
        page=3,
    )
    invoice = Source(
        id="f",
        title=f"Invoice {RLO}2024",
        path="kb/invoice.pdf",
        filename=f"invoice{RLO}fdp.exe",
        media_type="application/pdf",
    )
    row = Source(
        id="r",
        kind="record",
        label=f"Team{RLO} plan",
        columns={"price": f"{RLO}91$"},
        action=RecordAction(f"Buy{RLO} now", f"https://shop.example/{RLO}buy"),
    )
    manual = Source(id="m", title=f"Manual {RLO}", path="kb/manual.pdf", filename=f"m{RLO}.pdf")
    sources = (price, invoice, row, manual)
    citations = tuple(
        Citation(
            n=n,
            source=source,
            source_number=n,
            quote=f"seat fee {RLO}91$",
            columns=("price",) if source.kind == "record" else (),
        )
        for n, source in enumerate(sources, 1)
    )
    return Answer(text=ANSWER_TEXT, citations=citations)


CONTEXTS = {
    # files attached where the channel can send them
    "attached": RenderContext(public_base_url="https://bot.example", turn_id="t1"),
    # no attachments: signed download links, and a reply to a hostile mail subject
    "signed": RenderContext(
        attach_files=False,
        subject=f"Re: price{RLO} question",
        signer=lambda s: f"https://bot.example/files/{RLO}{s.id}" if s.path else None,
    ),
    # no attachments, no signer: file names only
    "names": RenderContext(attach_files=False),
}


def blob(payload: dict[str, Any]) -> str:
    return "\n".join(text for _, text in shown_strings(payload))


@pytest.mark.parametrize("context_name", sorted(CONTEXTS))
@pytest.mark.parametrize("channel", CHANNELS)
def test_no_channel_shows_a_bidi_override_from_answer_title_or_file_name(
    channel: str, context_name: str
) -> None:
    payload = render(channel, hostile_answer(), CONTEXTS[context_name])
    CHECKS[channel](payload)
    check_no_bidi_controls(payload)
    shown = blob(payload)
    # the text around each control is all still there, only the control is gone
    assert "91$" in shown
    assert "Price list" in shown
    assert "Invoice 2024" in shown


@pytest.mark.parametrize("channel", CHANNELS)
def test_attached_files_travel_under_their_name_without_an_override(channel: str) -> None:
    payload = render(channel, hostile_answer(), CONTEXTS["attached"])
    files = payload.get("files") or payload.get("attachments") or payload.get("uploads") or []
    names = {f["filename"] for f in files}
    if channel != "web":
        assert "invoicefdp.exe" in names
    assert all(f["path"] in ("kb/invoice.pdf", "kb/manual.pdf") for f in files)  # read as given


def test_urls_keep_their_address_with_the_control_percent_encoded() -> None:
    payload = render("web", hostile_answer(), CONTEXTS["attached"])
    urls = {c.get("url") for c in payload["citations"]}
    assert "https://docs.example/%E2%80%AEprices" in urls
    assert encoded_url("https://a.example/\u2066x") == "https://a.example/%E2%81%A6x"
    assert encoded_url("https://a.example/x") == "https://a.example/x"


def test_attachment_name_drops_the_override_that_disguises_an_extension() -> None:
    assert attachment_name(f"kb/invoice{RLO}fdp.exe") == "invoicefdp.exe"
    assert attachment_name(f"{RLO}") == "attachment"


def test_without_bidi_controls_drops_exactly_the_nine() -> None:
    kept = "\u200e\u200f\u061c\u200d\u200c\u200b"  # LRM RLM ALM ZWJ ZWNJ ZWSP
    assert without_bidi_controls(f"a{BIDI_CONTROLS}b{kept}") == f"ab{kept}"
    assert len(BIDI_CONTROLS) == 9
    # nothing copied when nothing changes: ASCII and right-to-left text come back as they are
    for text in ("plain ascii", "قم بتثبيت\u200f", "הפעל\u200e", "می\u200cخواهم\u061c"):
        assert without_bidi_controls(text) is text


@pytest.mark.parametrize("channel", ["web", "slack", "discord"])
def test_a_streamed_render_with_overrides_equals_the_one_shot_render(channel: str) -> None:
    answer = hostile_answer()
    stream = StreamRenderer(channel, CONTEXTS["attached"])
    stream.feed([CitationAdded(c) for c in answer.citations])
    for i in range(0, len(answer.text), 3):
        update = stream.feed([TextDelta(answer.text[i : i + 3])])
        assert not any(ch in BIDI_CONTROLS for piece in update.appended for ch in piece)
        assert not any(ch in stream.text() for ch in BIDI_CONTROLS)
    assert stream.finish(answer) == render(channel, answer, CONTEXTS["attached"])


# A line holding only controls is blank to the parser, so the block splitter must read it so too:
# else "  continued" below starts a chunk of its own (indented code) instead of continuing the item.
@pytest.mark.parametrize(
    "text",
    [
        f"- item\n\n{RLO}\n\n  continued\n\nnext\n",
        f"para\n\n{RLO}\u2066\n\n    code\n\nend\n",
        f"{RLO}[r]: https://r.example\n\nsee [r]\n\nmore\n",
    ],
)
def test_split_blocks_reads_a_line_of_controls_as_the_parser_does(text: str) -> None:
    chunks, tail = split_blocks(text)
    assert "".join(chunks) + tail == text
    pieces = [t for chunk in [*chunks, tail] for t in parse(chunk)]
    assert pieces == parse(text)


ARABIC = "قم بتثبيت الحزمة\u200f أولاً، ثم شغّل الخادم على المنفذ 8443."
HEBREW = "הפעל את השרת\u200e (port 8443)\u200f ואז פתח את הדפדפן."
PERSIAN = "می\u200cخواهم سرور را راه\u200cاندازی کنم\u061c."  # ZWNJ and ALM are spelling
RTL_SOURCES = (
    Source(id="ar", title="دليل التثبيت\u200f", url="https://docs.example/ar", section="البدء"),
    Source(id="he", title="מדריך\u200e התקנה", url="https://docs.example/he"),
    Source(id="fa", title="راه\u200cاندازی", path="kb/fa.pdf", filename="راه\u200cاندازی.pdf"),
)


def rtl_answer() -> Answer:
    text = f"{ARABIC}[^1]\n\n{HEBREW}[^2]\n\n- {PERSIAN}[^3]\n"
    citations = tuple(
        Citation(n=n, source=s, source_number=n, quote=s.title)
        for n, s in enumerate(RTL_SOURCES, 1)
    )
    return Answer(text=text, citations=citations)


@pytest.mark.parametrize("channel", CHANNELS)
def test_rtl_text_without_overrides_keeps_every_mark_and_joiner(channel: str) -> None:
    payload = render(channel, rtl_answer(), CONTEXTS["names"])
    shown = json.dumps(payload, ensure_ascii=False)
    for word in ("الحزمة\u200f", "השרת\u200e", "می\u200cخواهم", "کنم\u061c", "دليل التثبيت"):
        assert word in shown, (channel, word)


CONTROL = st.sampled_from(list(BIDI_CONTROLS))


@st.composite
def with_controls(draw: st.DrawFn, text: str) -> str:
    """``text`` with up to three bidi controls inserted anywhere."""
    for at in sorted(draw(st.lists(st.integers(0, len(text)), max_size=3)), reverse=True):
        text = text[:at] + draw(CONTROL) + text[at:]
    return text


@st.composite
def clean_and_overridden(draw: st.DrawFn) -> tuple[Answer, Answer]:
    """An answer without bidi controls, and the same answer with controls inserted into its
    text (after a fixed first line: web anchors derive from it) and every source text."""
    drawn = draw(answers())
    strip = without_bidi_controls
    body = strip(drawn.text)
    pairs = []
    for c in drawn.citations:
        s = c.source
        texts = {k: getattr(s, k) for k in ("title", "filename", "section", "label")}
        clean: dict[str, Any] = {k: strip(v) if v else v for k, v in texts.items()}
        dirty: dict[str, Any] = {k: draw(with_controls(v)) if v else v for k, v in clean.items()}
        columns = {k: strip(v) for k, v in (s.columns or {}).items()} if s.columns else None
        dirty_columns = {k: draw(with_controls(v)) for k, v in columns.items()} if columns else None
        action = s.action and RecordAction(strip(s.action.label), s.action.url)
        dirty_action = action and RecordAction(draw(with_controls(action.label)), action.url)
        quote = c.quote and strip(c.quote)
        clean_source = dataclasses.replace(s, **clean, columns=columns, action=action)
        dirty_source = dataclasses.replace(s, **dirty, columns=dirty_columns, action=dirty_action)
        pairs.append(
            (
                dataclasses.replace(c, source=clean_source, quote=quote),
                dataclasses.replace(
                    c, source=dirty_source, quote=quote and draw(with_controls(quote))
                ),
            )
        )
    dirty_body = draw(with_controls(body))
    return (
        Answer(text=f"Intro.\n\n{body}", citations=tuple(p[0] for p in pairs)),
        Answer(text=f"Intro.\n\n{dirty_body}", citations=tuple(p[1] for p in pairs)),
    )


@settings(max_examples=60, deadline=None)
@given(both=clean_and_overridden(), context=contexts)
def test_bidi_controls_change_nothing_but_themselves(
    both: tuple[Answer, Answer], context: RenderContext
) -> None:
    """Dropping the controls is all they do: every channel renders an answer and its sources
    with controls inserted exactly as without them (RTL text and marks untouched)."""
    clean, dirty = both
    for channel in CHANNELS:
        payload = render(channel, dirty, context)
        check_no_bidi_controls(payload)
        assert payload == render(channel, clean, context), channel
