"""Hostile and odd inbound mail: forged-looking sender names, MIME nested past the parser's
limits, the indented history of Yahoo and AOL replies, Gmail attributions without "wrote",
links in HTML-only mail, charset labels that name a stricter standard than the bytes follow."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from bot.connectors.email_parse import parse_mail
from bot.connectors.email_text import html_to_new_text, strip_quoted_text
from tests.connectors.email_flow_harness import EmailFlow, capture, flow
from tests.connectors.test_email_imap import CountingAnswerer, imap_connector, seen
from tests.fakes.email_world import inbound_mail
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture", "flow"]

# Display names whose encoded words decode to an address ("boss@corp.example", with a comma,
# in angle brackets), in front of the real addr-spec of the outside sender
FORGED_NAMES = (
    b"=?utf-8?q?boss=40corp=2Eexample?= <eve@outside.example>",
    b"=?utf-8?q?boss=40corp=2Eexample=2C?= <eve@outside.example>",
    b"=?utf-8?q?=3Cboss=40corp=2Eexample=3E?= <eve@outside.example>",
    b"=?utf-8?b?Ym9zc0Bjb3JwLmV4YW1wbGUs?= <eve@outside.example>",
)


def raw_from(sender: bytes) -> bytes:
    return b"From: " + sender + b"\r\nSubject: q\r\nMessage-ID: <f@outside.example>\r\n\r\nq?\r\n"


@pytest.mark.parametrize("sender", FORGED_NAMES)
def test_an_encoded_display_name_is_never_read_as_the_sender(sender: bytes) -> None:
    # RFC 2047: an encoded word is never part of an address. Decoding the header before
    # parsing it made the name's "boss@corp.example" the sender.
    mail = parse_mail(raw_from(sender))
    assert mail.sender == "eve@outside.example"
    assert "boss@corp.example" in mail.sender_name


def test_encoded_display_names_still_read_as_names() -> None:
    for sender, name, address in (
        (b"=?utf-8?q?M=C3=BCller=2C_J=C3=BCrgen?= <jm@example.com>", "Müller, Jürgen", "jm"),
        (b'"=?utf-8?q?M=C3=BCller=2C_J=C3=BCrgen?=" <jm@example.com>', "Müller, Jürgen", "jm"),
        (b"=?iso-8859-1?q?Ren=E9?= <Rene@Example.com>", "René", "rene"),
        ("Jörg <jorg@example.com>".encode(), "Jörg", "jorg"),
        # a broken mailer that encoded the whole header, address too: still read
        (b"=?utf-8?b?QW5uIDxhbm5AZXhhbXBsZS5jb20+?=", "Ann", "ann"),
    ):
        mail = parse_mail(raw_from(sender))
        assert (mail.sender_name, mail.sender) == (name, f"{address}@example.com")


async def test_a_forged_name_gets_neither_the_private_audience_nor_the_reply(
    flow: EmailFlow,
) -> None:
    async with flow.running(audience_by_domain={"corp.example": ["public", "staff"]}) as connector:
        outcome = await connector.handle_message(raw_from(FORGED_NAMES[1]))
        pending = connector.services.store.pending("email")
    assert outcome.status == "answered"
    assert [audience for _, audience, _ in flow.answerer.calls] == [frozenset({"public"})]
    assert [item.payload["recipients"] for item in pending] == [["eve@outside.example"]]


def nested_mime(depth: int) -> bytes:
    """A mail whose body is ``depth`` multiparts inside each other around one text part."""
    head = b"From: ann@example.com\r\nSubject: deep\r\nMessage-ID: <deep@example.com>\r\n"
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
        for i in range(depth)
    )
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nhello?\r\n" + closing


def test_mime_nested_past_the_parsers_recursion_limit_is_read_without_raising() -> None:
    assert parse_mail(nested_mime(20)).question == "hello?"
    mail = parse_mail(nested_mime(5000))
    assert (mail.sender, mail.message_id) == ("ann@example.com", "<deep@example.com>")
    # the body could not be read: no question, and not the subject in its place either
    assert mail.question == ""


async def test_imap_marks_a_deeply_nested_mail_seen_instead_of_retrying_it_for_ever(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer()
    await imap.start()
    deep = imap.deliver(nested_mime(5000))
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, idle=False)
    await connector.start()
    try:
        await wait_for(lambda: seen(imap, deep))
        after = imap.deliver(inbound_mail("Is backup on?", message_id="<ok@example.com>"))
        await wait_for(lambda: seen(imap, after))
    finally:
        await connector.stop()
        await imap.stop()
    assert answerer.questions == ["Is backup on?"]


YAHOO_TEXT = (
    "Thanks! And does it run on ARM?\n\n"
    "    On Monday, June 3, 2024 at 10:00:00 AM GMT+2, citecast <help@docs.example.org> wrote:  \n"
    " \n Install it with pip install citecast [1].\n \n Sources\n [1] Install guide\n"
)
YAHOO_HTML = (
    '<div class="ydp1"><div>Thanks! And does it run on ARM?</div></div>'
    '<div class="yahoo_quoted"><div>On Monday, June 3, 2024, citecast wrote:</div>'
    "<div>Install it with pip install citecast [1].</div></div>"
)


def test_indented_history_below_an_attribution_is_not_the_question() -> None:
    # Yahoo and AOL indent the earlier mail in their text part instead of quoting it with ">":
    # the whole previous answer used to be asked again as part of the question
    assert strip_quoted_text(YAHOO_TEXT) == "Thanks! And does it run on ARM?"
    mail = parse_mail(inbound_mail(YAHOO_TEXT, html=YAHOO_HTML))
    assert mail.question == "Thanks! And does it run on ARM?"


def test_attribution_without_own_text_above_or_before_quotes_keeps_the_rest() -> None:
    # bottom-posted and interleaved replies: the author's lines come after the attribution
    for body, question in (
        (
            "On Mon, 3 Jun 2024, citecast <help@docs.example.org> wrote:\n\nAnd on ARM?\n",
            "And on ARM?",
        ),
        (
            "Hi,\n\nOn Mon, 3 Jun 2024, citecast <help@docs.example.org> wrote:\n"
            "> Install it with pip.\nWhich pip?\n",
            "Hi,\nWhich pip?",
        ),
        (
            "Hi,\n\nOn Mon, 3 Jun 2024 the installer wrote:\nERROR 28\nWhat now?",
            "Hi,\nERROR 28\nWhat now?",
        ),
    ):
        assert strip_quoted_text(body) == question


def test_html_only_mail_keeps_the_address_of_a_link_in_the_question() -> None:
    # the text part mail clients write shows "text <url>"; from HTML-only mail the question
    # used to keep only "this page", so the assistant could not know which page was meant
    raw = (
        b"From: bob@example.com\r\nSubject: hi\r\nMessage-ID: <l@x>\r\n"
        b"Content-Type: text/html; charset=utf-8\r\n\r\n"
        b'<p>Is <a href="https://docs.example.org/upgrade">this page</a> still right?</p>'
        b'<blockquote><a href="https://old.example.org/x">old link</a></blockquote>\r\n'
    )
    assert parse_mail(raw).question == (
        "Is this page <https://docs.example.org/upgrade> still right?"
    )
    for html, question in (
        (
            '<p>See <a href="https://d.example.org/p/">d.example.org/p</a>?</p>',
            "See d.example.org/p?",
        ),
        ('<p>Mail <a href="mailto:ops@example.org">ops</a>?</p>', "Mail ops?"),
        ('<p><a href="https://d.example.org/i"><img src="cid:1"></a>Why?</p>', "Why?"),
        ('<p>Is <a href="javascript:x()">this</a> safe?</p>', "Is this safe?"),
    ):
        assert html_to_new_text(html) == question


GMAIL_ATTRIBUTIONS = (
    "пн, 3 июн. 2024 г. в 10:00, citecast <help@docs.example.org>:",
    "2024年6月3日(月) 10:00 citecast <help@docs.example.org>:",
    "citecast <help@docs.example.org> 于2024年6月3日周一 10:00写道：",
    "2024년 6월 3일 (월) 오전 10:00, citecast <help@docs.example.org>님이 작성:",
    "pon., 3 cze 2024 o 10:00 Very Long Sender Name From Somewhere Far Away <\n"
    "help@docs.example.org> napisał(a):",
)


@pytest.mark.parametrize("attribution", GMAIL_ATTRIBUTIONS)
def test_attributions_without_a_known_verb_are_removed(attribution: str) -> None:
    # Gmail in Russian, Japanese, Chinese or Korean writes no "wrote": the line stayed in the
    # question, and a reply with nothing but the quote got an answer to that line
    body = f"Does it run on ARM?\n\n{attribution}\n\n> Install it with pip.\n"
    assert strip_quoted_text(body) == "Does it run on ARM?"
    quote_only = inbound_mail(
        f"{attribution}\n> Install it with pip.\n", headers={"In-Reply-To": "<cc-1.2@x.org>"}
    )
    assert parse_mail(quote_only).question == ""


def test_an_address_and_a_colon_in_the_authors_own_lines_stay() -> None:
    # not above quoted lines, or after a line that ends a sentence: the author's own words
    for body in (
        "Write to ops@example.com:\nthey answer fast. Right?",
        "Does it run on ARM?\nThe log from ops@example.com:\nERROR 28",
    ):
        assert strip_quoted_text(body) == body
    assert strip_quoted_text("ARMで動きますか？\nログ ops@example.com:\n> ERROR 28\n") == (
        "ARMで動きますか？"
    )


@pytest.mark.parametrize(
    ("label", "codec", "question"),
    [
        ("windows-874", "cp874", "ติดตั้งบน Linux ได้อย่างไร?"),  # Thai Outlook
        ("ks_c_5601-1987", "cp949", "똠방각하 설치는 어떻게 하나요?"),  # Korean Outlook
        ("shift_jis", "cp932", "髙橋です。インストール方法は？"),  # Windows Japanese
        ("gb2312", "gbk", "朱镕基的索引怎么重建？"),  # GBK characters in "gb2312" mail
        ("big5", "big5hkscs", "請問「峯」字能搜尋嗎？"),
        ("x-mac-roman", "mac_roman", "Où est le guide ?"),
    ],
)
def test_charset_labels_read_as_mail_clients_write_them(
    label: str, codec: str, question: str
) -> None:
    # the label names a stricter standard than the bytes follow (or one Python does not know):
    # the question reached the assistant as mojibake
    header = f"=?{label}?b?{base64.b64encode(question.encode(codec)).decode()}?="
    raw = (
        f"From: ann@example.com\r\nSubject: {header}\r\nMessage-ID: <c@x>\r\n"
        f"Content-Type: text/plain; charset={label}\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    ).encode() + base64.encodebytes(question.encode(codec))
    mail = parse_mail(raw)
    assert (mail.question, mail.subject) == (question, question)
