"""The question from format=flowed text (RFC 3676) and from HTML ``<pre>`` blocks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.email_parse import parse_mail
from bot.connectors.email_text import html_to_new_text, strip_quoted_text


def flowed_mail(body: str, params: str = "format=flowed", encoding: str = "7bit") -> bytes:
    """A raw text/plain mail; ``body`` is sent as written (its trailing spaces included)."""
    head = (
        "From: Ann Example <ann@example.com>\r\nTo: help@docs.example.org\r\n"
        "Subject: Uploads\r\nMessage-ID: <f1@example.com>\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: text/plain; charset=utf-8; {params}\r\n"
        f"Content-Transfer-Encoding: {encoding}\r\n\r\n"
    )
    return (head + body.replace("\n", "\r\n")).encode()


# Thunderbird/Apple Mail style: soft breaks end in a space; " > 2 GB" and " From here" are
# space-stuffed (the sender's own text, not a quote); the history is quoted with ">".
FLOWED_REPLY = (
    "Uploads of files larger than \n"
    "2 GB fail with this message:\n"
    " > 2 GB is not allowed\n"
    " From here on nothing works.\n"
    "\n"
    "Which limit \n"
    "applies?\n"
    "\n"
    "On Mon, 3 Jun 2024 at 10:00, citecast <help@docs.example.org> \n"
    "wrote:\n"
    "> The upload limit is set in the admin \n"
    "> settings [1].\n"
    ">> Where is the \n"
    ">> limit?\n"
)
FLOWED_QUESTION = (
    "Uploads of files larger than 2 GB fail with this message:\n"
    "> 2 GB is not allowed\n"
    "From here on nothing works.\n"
    "\n"
    "Which limit applies?"
)


def test_flowed_text_is_decoded_before_quotes_are_removed() -> None:
    assert strip_quoted_text(FLOWED_REPLY, flowed=True) == FLOWED_QUESTION
    assert parse_mail(flowed_mail(FLOWED_REPLY)).question == FLOWED_QUESTION


def test_a_space_stuffed_quote_mark_is_text_not_a_quote() -> None:
    body = "The log says:\n > 2 GB\nWhy?\n"
    assert strip_quoted_text(body, flowed=True) == "The log says:\n> 2 GB\nWhy?"
    assert parse_mail(flowed_mail(body)).question == "The log says:\n> 2 GB\nWhy?"
    # the same lines in a fixed (not flowed) part: " > 2 GB" is a quote there, as before
    assert parse_mail(flowed_mail(body, params="format=fixed")).question == "The log says:\nWhy?"


def test_delsp_yes_removes_the_space_of_a_soft_break() -> None:
    # DelSp=yes (Apple Mail): the sender may break inside a word and adds the space itself
    body = "Where is the configura \ntion file kept? \nThanks\n"
    wanted = "Where is the configuration file kept?Thanks"
    assert parse_mail(flowed_mail(body, "format=flowed; delsp=yes")).question == wanted
    # parameter names and values are case-insensitive; quoted values are values too
    assert parse_mail(flowed_mail(body, 'Format="Flowed"; DelSp=Yes')).question == wanted
    without = "Where is the configura tion file kept? Thanks"
    assert parse_mail(flowed_mail(body, "format=flowed")).question == without


def test_quoted_printable_flowed_text_keeps_its_soft_breaks() -> None:
    # trailing spaces often travel encoded (=20) so that no relay strips them
    body = "Can I resize the=20\nindex online?=20\nOr offline only?\n"
    mail = flowed_mail(body, encoding="quoted-printable")
    assert parse_mail(mail).question == "Can I resize the index online? Or offline only?"


def test_signature_and_mobile_footer_are_still_removed_from_flowed_text() -> None:
    signed = (
        "Does the export include \nattachments?\n\nThanks,\nAnn\n-- \nAnn Example \nACME Support\n"
    )
    wanted = "Does the export include attachments?\n\nThanks,\nAnn"
    assert parse_mail(flowed_mail(signed)).question == wanted
    assert parse_mail(flowed_mail(signed, "format=flowed; delsp=yes")).question == (
        "Does the export includeattachments?\n\nThanks,\nAnn"
    )
    # the separator is a hard line even right after a soft break (RFC 3676 §4.3)
    run_on = "Does the export include \nattachments? \n-- \nAnn Example\n"
    assert parse_mail(flowed_mail(run_on)).question == "Does the export include attachments?"
    mobile = "Is there a dark \nmode?\n\nSent from my iPhone\n"
    assert parse_mail(flowed_mail(mobile)).question == "Is there a dark mode?"


def test_quoted_flowed_lines_stay_quotes_at_every_depth() -> None:
    # a soft break never joins lines of different depths (RFC 3676 §4.5), so a flowed quote
    # line does not swallow the reply written right below it
    body = (
        "> Which version do you \n"
        "run?\n"
        ">> And which \n"
        ">> OS?\n"
        "3.11 on Debian \n"
        "12\n"
        "> > spaced quote marks are quotes too\n"
    )
    assert parse_mail(flowed_mail(body)).question == "run?\n3.11 on Debian 12"


_WORDS = st.sampled_from(["From", ">", ">>", "2", "GB", "upload", "fails", "", " ", "x>y"])


def _paragraph() -> st.SearchStrategy[str]:
    text = st.lists(_WORDS, min_size=1, max_size=30).map(" ".join)
    return text.filter(lambda p: bool(p.strip()) and not p.endswith(" "))


def _encode_flowed(paragraph: str, width: int, delsp: bool) -> list[str]:
    """A sender's flowed lines for one paragraph: wrapped at ``width`` (after a space, or
    anywhere with DelSp=yes), each line space-stuffed when it starts with " ", ">" or "From "."""
    lines: list[str] = []
    rest = paragraph
    while len(rest) > width:
        if delsp:
            cut = width
            line, rest = rest[:cut] + " ", rest[cut:]
        else:
            cut = rest.find(" ", width - 1) + 1
            if cut <= 0 or cut >= len(rest):
                break
            line, rest = rest[:cut], rest[cut:]
        lines.append(line)
    lines.append(rest)
    return [" " + line if line.startswith((" ", ">", "From ")) else line for line in lines]


@given(
    st.lists(_paragraph(), min_size=1, max_size=5),
    st.integers(min_value=4, max_value=30),
    st.booleans(),
)
def test_flowed_decoding_restores_what_the_sender_wrote(
    paragraphs: list[str], width: int, delsp: bool
) -> None:
    # whatever the sender wrapped or stuffed, the question is their text, none of it a quote
    encoded = [line for p in paragraphs for line in _encode_flowed(p, width, delsp)]
    decoded = strip_quoted_text("\r\n".join(encoded) + "\r\n", flowed=True, delsp=delsp)
    assert decoded == "\n".join(p.rstrip() for p in paragraphs).strip()


# -- HTML <pre> ----------------------------------------------------------------------------------

PRE_MAIL = (
    "<div>The service does not start with this config:</div>"
    "<pre>\n"
    "server:\n"
    "  port: 8080\n"
    "  tls:\n"
    "    cert: /etc/ssl/a.pem\n"
    "\n"
    "\n"
    "&gt; not a quote, a shell prompt\n"
    "-- \n"
    "Sent from my iPhone\n"
    "</pre>"
    "<div>What   is\n  wrong?</div>"
)
PRE_QUESTION = (
    "The service does not start with this config:\n"
    "\n"
    "server:\n"
    "  port: 8080\n"
    "  tls:\n"
    "    cert: /etc/ssl/a.pem\n"
    "\n"
    "\n"
    "> not a quote, a shell prompt\n"
    "--\n"
    "Sent from my iPhone\n"
    "\n"
    "What is\n"
    "wrong?"
)


def test_pre_block_keeps_its_lines_and_indentation() -> None:
    assert html_to_new_text(PRE_MAIL) == PRE_QUESTION
    raw = (
        "From: bob@example.com\r\nTo: help@docs.example.org\r\nSubject: config\r\n"
        "Message-ID: <p@x>\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
    ) + PRE_MAIL.replace("\n", "\r\n")
    assert parse_mail(raw.encode()).question == PRE_QUESTION


def test_pre_block_with_markup_inside_and_at_the_start_of_the_mail() -> None:
    # the newline right after <pre> is not content; <code>/<span>/<br> inside keep the layout
    html = (
        "<pre><code>\tdef f():\n"
        '        <span style="color:red">return</span> 1<br>    # done</code></pre>'
        "<p>Why is <b>f</b>   None?</p>"
    )
    assert html_to_new_text(html) == ("\tdef f():\n        return 1\n    # done\n\nWhy is f None?")


def test_pre_block_header_lines_do_not_cut_the_question() -> None:
    # pasted mail headers in a <pre> are the asker's material, not a quoted reply block
    html = (
        "<p>This mail bounced:</p><pre>From: a@example.com\nDate: Mon, 3 Jun 2024 10:00\n"
        "To: b@example.com\nSubject: test</pre><p>Why?</p>"
    )
    assert html_to_new_text(html).endswith("Subject: test\n\nWhy?")


def test_own_pre_block_is_kept_and_quoted_ones_are_still_skipped() -> None:
    html = (
        "<div>And on ARM with this?</div><pre>  arch: arm64\n  cpus: 4</pre>"
        '<blockquote type="cite"><pre>  old config\n  lines</pre></blockquote>'
        '<div class="gmail_quote"><pre>  more old</pre></div>'
    )
    assert html_to_new_text(html) == "And on ARM with this?\n\n  arch: arm64\n  cpus: 4"


def test_non_breaking_spaces_keep_gmail_code_indentation() -> None:
    # Gmail's monospace "code" is lines of divs indented with &nbsp;, which a browser never
    # collapses; ordinary spaces still collapse as before
    html = (
        '<div><font face="monospace">def f():</font></div>'
        '<div><font face="monospace">&nbsp; &nbsp; return&nbsp; 1</font></div>'
        "<div>Why   does it fail?</div>"
    )
    assert html_to_new_text(html) == "def f():\n\n    return  1\n\nWhy does it fail?"
