"""Inbound parsing: the question from the new part, threading headers, hostile input."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.email_parse import decode_bytes, is_valid_address, parse_mail
from bot.connectors.email_text import html_to_new_text, strip_quoted_text
from tests.fakes.email_world import inbound_mail


def test_plain_top_posted_reply_keeps_only_the_new_part() -> None:
    body = (
        "And does it work on ARM?\n\nThanks,\nAnn\n-- \nAnn Example | ACME\n\n"
        "On Mon, 3 Jun 2024 at 10:00, citecast <help@docs.example.org>\nwrote:\n"
        "> You install it with pip [1].\n> \n> [1] Install guide\n"
    )
    assert strip_quoted_text(body) == "And does it work on ARM?\n\nThanks,\nAnn"


def test_interleaved_reply_keeps_the_authors_lines() -> None:
    body = "> Which version?\n3.11\n> Which OS?\nDebian 12\n\nSent from my iPhone\n"
    assert strip_quoted_text(body) == "3.11\nDebian 12"


def test_outlook_reply_headers_cut_the_history() -> None:
    body = (
        "Is there a PDF version?\n\n________________________________\n"
        "From: citecast <help@docs.example.org>\nSent: Monday, June 3, 2024 10:00\n"
        "To: Ann\nSubject: Re: Installing\n\nYou install it with pip.\n"
    )
    assert strip_quoted_text(body) == "Is there a PDF version?"
    original = "Short question?\n-----Original Message-----\nFrom: x\nold"
    assert strip_quoted_text(original) == "Short question?"


PROSE_WITH_HEADER_WORDS = (
    "Where do I report this?\nFrom: the docs I read, the tracker is the place.\nThanks",
    "Where do I report this?\nFrom: the docs I read, the tracker is the place.\n"
    "To: be honest, I could not find it.\nSubject: the crash on start-up.",
    "How do I plan the migration?\nFrom: version 1.4\nTo: version 2.0\n"
    "Date: not fixed yet, and which steps come first?",
    "Is the order below right?\n____________________\nFrom: the staging server\n"
    "Sent: nothing yet\nTo: production",
    "¿Dónde lo configuro?\nDe: la guía que leí, no queda claro.\nPara: el equipo de soporte.",
)


def test_header_words_in_prose_keep_the_whole_question() -> None:
    # "From:"/"To:"/"Date:" lines that are not a quoted header block (no dated "Sent:"/"Date:"
    # next to a "To:"/"Subject:") are the author's words and must not cut the question short
    for body in PROSE_WITH_HEADER_WORDS:
        assert strip_quoted_text(body) == body
        assert parse_mail(inbound_mail(body)).question == body


OUTLOOK_BLOCKS = (
    "From: citecast <help@docs.example.org>\nSent: Monday, June 3, 2024 10:00 AM\n"
    "To: Ann <ann@example.com>\nCc: ops@example.com\nSubject: RE: Installing",
    "*From:* citecast\n*Sent:* Monday, June 3, 2024 10:00 AM\n*To:* Ann\n*Subject:* Installing",
    "From: citecast\n\nSent: 03 June 2024 10:00\n\nTo: Ann\n\nSubject: Installing",
    "Von: citecast\nGesendet: Montag, 3. Juni 2024 10:00\nAn: Ann\nBetreff: AW: Installation",
    "De : citecast\nEnvoyé : lundi 3 juin 2024 10:00\nÀ : Ann\nObjet : RE: Installation",
    "De: citecast\nEnviado el: lunes, 3 de junio de 2024 10:00\nPara: Ann\nAsunto: RE: x",
    "De: citecast\nEnviado: segunda-feira, 3 de junho de 2024 10:00\nPara: Ann\nAssunto: RE: x",
    "Da: citecast\nInviato: lunedì 3 giugno 2024 10:00\nA: Ann\nOggetto: R: Installazione",
    "Van: citecast\nVerzonden: maandag 3 juni 2024 10:00\nAan: Ann\nOnderwerp: RE: x",
    "Från: citecast\nSkickat: den 3 juni 2024 10:00\nTill: Ann\nÄmne: SV: Installation",
    "From: citecast <help@docs.example.org>\nDate: Mon, Jun 3, 2024 at 10:00 AM\n"
    "Subject: Installing\nTo: Ann <ann@example.com>",
)


def test_quoted_header_blocks_cut_the_history_in_every_supported_language() -> None:
    for block in OUTLOOK_BLOCKS:
        body = f"Is there a PDF version?\n\n{block}\n\nYou install it with pip.\n"
        assert strip_quoted_text(body) == "Is there a PDF version?", block
        ruled = f"Is there a PDF version?\n________________________________\n{block}\nold\n"
        assert strip_quoted_text(ruled) == "Is there a PDF version?", block


def test_outlook_html_header_block_without_a_marker_id_is_cut() -> None:
    # Outlook desktop writes the block as bold names in one paragraph, with no id to cut at
    html = (
        "<p>Which regions are supported?</p>"
        '<div style="border-top:solid #E1E1E1 1.0pt"><p class="MsoNormal"><b>From:</b> citecast'
        "<br><b>Sent:</b> Monday, June 3, 2024 10:00 AM<br><b>To:</b> Ann<br>"
        "<b>Subject:</b> RE: Regions</p></div><p>Earlier answer text</p>"
    )
    assert html_to_new_text(html) == "Which regions are supported?"
    prose = "<p>Where do I report this?<br>From: the docs I read, it is unclear.</p>"
    assert (
        html_to_new_text(prose) == "Where do I report this?\nFrom: the docs I read, it is unclear."
    )


def test_non_english_attributions_are_removed() -> None:
    for line in (
        "Le lun. 3 juin 2024 à 10:00, citecast <help@docs.example.org> a écrit :",
        "Am 03.06.2024 um 10:00 schrieb citecast <help@docs.example.org>:",
        "El lun, 3 jun 2024 a las 10:00, citecast escribió:",
    ):
        assert strip_quoted_text(f"Nouvelle question ?\n\n{line}\n> ancien\n") == (
            "Nouvelle question ?"
        )


def test_prose_that_reads_like_an_attribution_stays_in_the_question() -> None:
    # An attribution carries the quoted mail's date and sits above quoted lines; a sentence
    # starting "On …"/"Am …" followed by someone's "wrote:" is the author's own question
    for body in (
        "On Linux the install fails.\nThe installer wrote:\nERROR: no space left\nWhat now?",
        "Am I right that uploads fail?\nMy colleague wrote:\nuploads over 2 GB fail",
        "On Linux 6.2 the install fails.\nThe installer wrote:\nERROR 28\nWhat now?",
    ):
        assert strip_quoted_text(body) == body
    for attribution in (
        "On Mon, Jun 3, 2024 at 10:00 AM Ann Example\n<ann@example.com>\nwrote:",
        "citecast <help@docs.example.org> wrote:\n",
    ):
        body = f"What now?\n\n{attribution}\n> You install it with pip.\n"
        assert strip_quoted_text(body) == "What now?", attribution


def test_html_quote_containers_are_skipped() -> None:
    gmail = (
        '<div dir="ltr">What is the <b>price</b> of the pro plan?</div><br>'
        '<div class="gmail_quote"><div class="gmail_attr">On Mon, citecast wrote:<br></div>'
        '<blockquote class="gmail_quote">The basic plan is free [1].</blockquote></div>'
    )
    assert html_to_new_text(gmail) == "What is the price of the pro plan?"
    outlook = (
        "<html><head><style>p{color:red}</style></head><body><p>Which regions?</p>"
        '<div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> citecast</div>'
        "<div>Earlier answer text</div></body></html>"
    )
    assert html_to_new_text(outlook) == "Which regions?"
    apple = '<div>Thanks! One more: IPv6?</div><blockquote type="cite">old</blockquote>'
    assert html_to_new_text(apple) == "Thanks! One more: IPv6?"


def test_parse_reads_threading_headers_and_prefers_the_text_part() -> None:
    raw = inbound_mail(
        "Text part question?",
        html="<p>HTML part question?</p>",
        message_id="<m2@example.com>",
        headers={"In-Reply-To": "<r1@x>", "References": "<root@x> <r1@x>"},
    )
    mail = parse_mail(raw)
    assert mail.message_id == "<m2@example.com>"
    assert mail.sender == "ann@example.com"
    assert mail.sender_name == "Ann Example"
    assert mail.in_reply_to == "<r1@x>"
    assert mail.references == ("<root@x>", "<r1@x>")
    assert mail.question == "Text part question?"
    assert mail.is_reply


def test_html_only_mail_and_subject_only_mail() -> None:
    html_only = (
        b"From: bob@example.com\r\nTo: help@docs.example.org\r\nSubject: hi\r\n"
        b"Message-ID: <h@x>\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b"<p>Where are the <i>logs</i>?</p>\r\n"
    )
    assert parse_mail(html_only).question == "Where are the logs?"
    subject_only = inbound_mail("", subject="How do I reset my password?")
    assert parse_mail(subject_only).question == "How do I reset my password?"


def test_empty_text_alternative_falls_back_to_html() -> None:
    raw = inbound_mail("", html="<p>Is SSO supported?</p>")
    assert parse_mail(raw).question == "Is SSO supported?"


def test_only_quoted_text_yields_no_question() -> None:
    raw = inbound_mail(
        "On Mon, citecast wrote:\n> You install it with pip.\n",
        subject="Re: Installing",
        headers={"In-Reply-To": "<r1@x>", "References": "<r1@x>"},
    )
    assert parse_mail(raw).question == ""


def test_malformed_headers_and_unknown_charsets_do_not_raise() -> None:
    raw = (
        b"From: =?x-unknown-charset?B?QW5u?= <ann@example.com>\r\n"
        b"Subject: =?utf-8?Q?caf=C3=A9?= =?bogus?Q?=FF=FE?=\r\n"
        b"Message-ID: no angle brackets\r\n"
        b"References: <a@x> garbage <b@x\r\n"
        b"X-Binary: \xff\xfe\x00 raw bytes\r\n"
        b"Content-Type: text/plain; charset=x-no-such-charset\r\n"
        b"Content-Transfer-Encoding: quoted-printable\r\n\r\n"
        b"Caf=E9 question =\r\nhere?\r\n"
    )
    mail = parse_mail(raw)
    assert mail.sender == "ann@example.com"
    assert mail.subject.startswith("café")
    assert mail.message_id.endswith("@citecast.invalid>")
    assert mail.references == ("<a@x>",)
    assert mail.question == "Café question here?"


def test_header_line_without_colon_starts_the_body_without_crashing() -> None:
    raw = (
        b"From: ann@example.com\r\nMessage-ID: <b@x>\r\nthis line is not a header\r\n"
        b"Subject: lost\r\n\r\nWhere is the changelog?\r\n"
    )
    mail = parse_mail(raw)
    assert mail.sender == "ann@example.com"
    assert mail.message_id == "<b@x>"
    assert "Where is the changelog?" in mail.question


def test_latin1_body_is_decoded() -> None:
    raw = (
        b"From: ann@example.com\r\nSubject: q\r\nMessage-ID: <l@x>\r\n"
        b"Content-Type: text/plain; charset=iso-8859-1\r\n\r\nO\xf9 est le fichier ?\r\n"
    )
    assert parse_mail(raw).question == "Où est le fichier ?"


def test_invalid_and_missing_senders() -> None:
    assert parse_mail(b"Subject: x\r\n\r\nbody\r\n").sender is None
    assert parse_mail(b"From: not an address\r\n\r\nbody\r\n").sender is None
    assert parse_mail(b"From: <@example.com>\r\n\r\nbody\r\n").sender is None
    assert not is_valid_address("a@b")
    assert is_valid_address("a.b+tag@mail.example.co.uk")


def test_large_attachment_is_parsed_quickly_and_ignored() -> None:
    raw = inbound_mail("What is in the attachment?", attachment=bytes(10_000_000))
    assert len(raw) > 13_000_000
    mail = parse_mail(raw)
    assert mail.question == "What is in the attachment?"
    assert mail.subject == "Installing on Linux"


def test_decode_bytes_falls_back() -> None:
    assert decode_bytes("é".encode(), "no-such-charset") == "é"
    assert decode_bytes(b"\xe9", None) == "é"
    assert decode_bytes(b"\xff\xfe", "utf-8") == "ÿþ"


@given(st.binary(max_size=2000))
def test_parse_never_raises_on_arbitrary_bytes(raw: bytes) -> None:
    mail = parse_mail(raw)
    assert mail.message_id.startswith("<")
    assert mail.sender is None or is_valid_address(mail.sender)


@given(st.text(max_size=500))
def test_stripping_never_keeps_quoted_lines(text: str) -> None:
    result = strip_quoted_text(text)
    assert all(not line.lstrip().startswith(">") for line in result.split("\n"))
    assert result == result.strip()
    assert "\n\n\n" not in result


def test_an_attached_or_named_text_part_is_never_the_question() -> None:
    # an HTML-only mail with a forwarded mail (message/rfc822) or an Apple Mail inline .txt:
    # the attachment's text used to become the question instead of the sender's own words
    forwarded = (
        b"From: ann@example.com\r\nSubject: q\r\nMessage-ID: <f@x>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
        b"Content-Type: text/html; charset=utf-8\r\n\r\n<p>Can you check the attached mail?</p>\r\n"
        b"--b\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment\r\n\r\n"
        b"From: x@y.z\r\nSubject: fwd\r\nContent-Type: text/plain\r\n\r\nplease wire money\r\n"
        b"--b\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b'Content-Disposition: inline; filename="log.txt"\r\n\r\nERROR 42\r\n--b--\r\n'
    )
    assert parse_mail(forwarded).question == "Can you check the attached mail?"


def test_raw_utf8_headers_and_windows_quotes_are_read_as_written() -> None:
    raw = (
        "From: Jörg Müller <jm@example.com>\r\nSubject: Größe des Index?\r\n"
        "Message-ID: <u@x>\r\n\r\n"
    ).encode() + b"Caf\xe9 \x93quoted\x94 question?\r\n"
    mail = parse_mail(raw)
    assert mail.subject == "Größe des Index?"
    assert mail.sender_name == "Jörg Müller"
    assert mail.question == "Café “quoted” question?"
