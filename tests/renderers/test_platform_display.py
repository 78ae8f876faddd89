"""What each platform actually displays: Discord quotes, markers after bare URLs, file names on
the web, and markers when no source list is shown (QA pass on rendered output)."""

from __future__ import annotations

import re

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext
from renderers.preview import mrkdwn_to_html

GUIDE = Source(id="g", title="Install guide", url="https://docs.example/install")
NOTES = Source(id="n", title="Admin notes", url="https://docs.example/admin")
FILE = Source(
    id="f", kind="file", title="Windows notes", filename="win_notes.pdf", path="kb/win_notes.pdf"
)


def answer(text: str, *sources: Source) -> Answer:
    return Answer(text=text, citations=tuple(Citation(n, s, n) for n, s in enumerate(sources, 1)))


def discord_contents(text: str, *sources: Source) -> list[str]:
    return [m["content"] for m in render("discord", answer(text, *sources))["messages"]]


# --- Discord quotes: every line "> ", one level ------------------------------------------------
# Discord quotes a line only when it starts with "> " (a space after the ">"), and never nests:
# a bare ">" line shows as ">" and ends the quote, "> > x" shows the second ">".


def quote_lines(content: str) -> list[str]:
    return [line for line in content.split("\n") if line.startswith(">")]


def test_discord_quote_of_two_paragraphs_keeps_every_line_quoted() -> None:
    text = "> Leave is 16 weeks.[^1]\n>\n> It can be split.[^2]\n\nAfter."
    content = discord_contents(text, GUIDE, NOTES)[0]
    assert content.startswith("> Leave is 16 weeks.\\[1\\]\n> \n> It can be split.\\[2\\]\n\n")
    assert all(line.startswith("> ") for line in quote_lines(content))


def test_discord_code_block_with_a_blank_line_stays_inside_its_quote() -> None:
    content = discord_contents("> ```\n> a = 1\n>\n> b = 2\n> ```")[0]
    assert content == "> ```\n> a = 1\n> \n> b = 2\n> ```"


@pytest.mark.parametrize(
    "text",
    [
        "> Outer.[^1]\n>\n> > Inner.[^2]",
        "> - item\n>\n>   > inner under an item",
        "> > > three levels",
    ],
)
def test_discord_quote_inside_a_quote_shows_at_one_level(text: str) -> None:
    content = discord_contents(text, GUIDE, NOTES)[0]
    body = content.split("\n\n**Sources**")[0]
    assert all(line.startswith("> ") for line in body.split("\n"))
    assert ">" not in body.replace("\n> ", "\n").removeprefix("> ")  # no second level


def test_discourse_keeps_nested_quotes() -> None:
    raw = render("discourse", answer("> Outer.[^1]\n>\n> > Inner.", GUIDE))["raw"]
    assert raw.startswith("> Outer.[^1]\n>\n> > Inner.")


def test_a_long_discord_quote_split_in_messages_never_shows_a_bare_marker() -> None:
    text = "\n>\n".join(f"> Paragraph {i} " + "word " * 60 for i in range(12))
    contents = discord_contents(text)
    assert len(contents) > 1
    for content in contents:
        lines = content.split("\n")
        assert all(line.startswith("> ") for line in lines), content
        # Discord trims a message, so an empty last line would end it in a bare ">"
        assert lines[0].strip(" >") and lines[-1].strip(" >")


# --- a citation right after a bare URL stays a citation ------------------------------------
# Discord links "https://x.example/dl\[1\" (its URL pattern runs on through the escapes) and
# Discourse's markdown-it links "https://x.example/dl[^1]" whole, eating the marker; a mail
# client may link "[1]" into the URL of the text part.

URL_THEN_MARKERS = (
    "Download it from https://get.example/dl[^1], or see (https://get.example/a).[^2]"
)


@pytest.mark.parametrize(
    ("channel", "expected"),
    [
        ("discord", "from https://get.example/dl \\[1\\], or see (https://get.example/a). \\[2\\]"),
        ("discourse", "from https://get.example/dl [^1], or see (https://get.example/a). [^2]"),
        ("email", "from https://get.example/dl [1], or see (https://get.example/a). [2]"),
    ],
)
def test_a_marker_after_a_bare_url_is_set_apart_from_it(channel: str, expected: str) -> None:
    payload = render(channel, answer(URL_THEN_MARKERS, GUIDE, NOTES))
    if channel == "discord":
        assert expected in payload["messages"][0]["content"]
    else:
        assert expected in payload["raw" if channel == "discourse" else "text"]


@pytest.mark.parametrize(
    ("channel", "expected"),
    [
        ("discord", "See [the guide](<https://docs.example/g>)\\[1\\] and the guide\\[2\\]."),
        ("discourse", "See [the guide](https://docs.example/g)[^1] and the guide[^2]."),
    ],
)
def test_a_marker_after_a_link_or_a_word_keeps_its_place(channel: str, expected: str) -> None:
    text = "See [the guide](https://docs.example/g)[^1] and the guide[^2]."
    payload = render(channel, answer(text, GUIDE, NOTES))
    out = payload["raw"] if channel == "discourse" else payload["messages"][0]["content"]
    assert out.startswith(expected)


def test_the_email_text_part_sets_a_marker_apart_from_an_autolink_only() -> None:
    text = "Go to <https://get.example/dl>[^1] or [the guide](https://docs.example/g)[^2]."
    email = render("email", answer(text, GUIDE, NOTES))["text"]
    assert "Go to https://get.example/dl [1] or the guide <https://docs.example/g>[2]." in email


# --- the web shows the name of a file it cannot link ----------------------------------------


def test_web_source_list_names_a_file_without_a_url() -> None:
    html = render("web", answer("Details.[^1]", FILE))["html"]
    assert '<span class="source-name">Windows notes</span>' in html
    assert '<span class="filename">(win_notes.pdf)</span>' in html


# --- show: none leaves no marker pointing at a list that is not there ------------------------


def test_web_markers_without_a_source_list_point_at_nothing_missing() -> None:
    payload = render("web", answer("A.[^1] B.[^2]", GUIDE, FILE), RenderContext(show="none"))
    html = payload["html"]
    assert "sources" not in html and payload["citations"] == []
    ids = set(re.findall(r' id="([^"]+)"', html))
    for target in re.findall(r'href="#([^"]+)"', html) + re.findall(
        r'aria-describedby="([^"]+)"', html
    ):
        assert target in ids, target
    assert 'href="https://docs.example/install"' in html  # the marker leads to the source
    assert 'title="Windows notes" data-n="2"' in html  # and still names it on hover


def test_email_markers_without_references_point_at_nothing_missing() -> None:
    html = render("email", answer("A.[^1] B.[^2]", GUIDE, FILE), RenderContext(show="none"))["html"]
    assert "#ref-" not in html and "Sources" not in html
    assert 'href="https://docs.example/install"' in html
    assert '<sup style="font-size:11px;line-height:0;">\u2060[2]</sup>' in html


def test_listed_markers_still_point_into_the_list() -> None:
    html = render("web", answer("A.[^1] B.[^2]", GUIDE, FILE))["html"]
    ids = set(re.findall(r' id="([^"]+)"', html))
    targets = re.findall(r'href="#([^"]+)"', html)
    assert len(targets) == 2 and all(t in ids for t in targets)


# --- Discord masked links: no backslash in a label, no URL as a label, http(s) only -----------
# Discord turns escaping off inside a masked link's label (a backslash shows as itself), shows
# "[https://a.example](<https://a.example>)" as text (a label that is a URL), and links only
# http(s) in a masked link.


def discord_source_line(source: Source) -> str:
    content = discord_contents("Text.[^1]", source)[-1]
    return content.split("**Sources**\n")[1].split("\n")[0]


@pytest.mark.parametrize(
    ("title", "label"),
    [
        ("Pricing (2024)", "Pricing (2024)"),
        ("Install | Guide > v2!", "Install | Guide > v2!"),
        ("C# and C++ notes_v2", "C# and C++ notes_v2"),
        ("Admin notes [draft]", "Admin notes (draft)"),
        (
            "**Bold** ~~old~~ ||secret||",
            "*\u200b*Bold*\u200b* ~\u200b~old~\u200b~ |\u200b|secret|\u200b|",
        ),
        # an empty code box cannot be escaped in a label (no backslash): look-alike accents
        ("` `.pdf", "\u02cb \u02cb.pdf"),
        ("The `config` key", "The `config` key"),
    ],
)
def test_discord_source_titles_show_without_backslashes(title: str, label: str) -> None:
    line = discord_source_line(Source(id="t", title=title, url="https://docs.example/p"))
    assert line == f"\\[1\\] [{label}](<https://docs.example/p>)"


def test_discord_source_known_only_by_its_url_is_an_autolink() -> None:
    line = discord_source_line(Source(id="u", url="https://docs.example/a_(b)"))
    assert line == "\\[1\\] <https://docs.example/a_(b)>"


def test_discord_answer_links_show_as_links() -> None:
    text = (
        "See <https://get.example/dl>, [https://get.example](https://other.example), "
        "[mail us](mailto:help@get.example) or <help@get.example>."
    )
    content = discord_contents(text)[0]
    # a label that reads as another address is no masked link: the real one follows it
    assert content == (
        "See <https://get.example/dl>, https://get.example (<https://other.example>), "
        "mail us (help@get.example) or help@get.example."
    )


# --- Discourse: a line opening with a citation and a colon is not a footnote definition ------


def test_discourse_line_opening_with_a_citation_and_colon_cites_it() -> None:
    text = "[^1]: the short version.\n\nIn short [^1]: yes,\n[^2]: on a line of its own."
    raw = render("discourse", answer(text, GUIDE, NOTES))["raw"]
    assert raw.startswith(
        "[^1]\\: the short version.\n\nIn short\u00a0[^1]: yes,\n[^2]\\: on a line of its own.\n\n"
        "[^1]: [Install guide]"
    )


# --- a pipe in a table cell's code is written "\|" (GFM) and shown "|" ----------------------

PIPE_TABLE = "| Command | Does |\n|---|---|\n| `ps aux \\| grep x`[^1] | finds x |"


@pytest.mark.parametrize(
    ("channel", "shown"),
    [
        ("web", "<code>ps aux | grep x</code>"),
        ("email", "ps aux | grep x</code>"),
        # the columns apart by "│", as the cell holds a "|" (renderers.escaping.table_bars)
        ("slack", "ps aux | grep x[1] \u2502 finds x"),
        ("discord", "ps aux | grep x[1] \u2502 finds x"),
    ],
)
def test_code_with_a_pipe_in_a_table_cell_shows_the_pipe(channel: str, shown: str) -> None:
    payload = render(channel, answer(PIPE_TABLE, GUIDE))
    if channel == "slack":
        text = payload["messages"][0]["blocks"][0]["text"]["text"]
        assert "ps aux | grep x" in payload["messages"][0]["text"]
    elif channel == "discord":
        text = payload["messages"][0]["content"]
    else:
        text = payload["html"]
    assert shown in text and "\\|" not in text
    if channel == "email":
        assert "`ps aux | grep x`[1] \u2502 finds x" in payload["text"]


def test_discourse_table_keeps_the_escaped_pipe_in_code() -> None:
    raw = render("discourse", answer(PIPE_TABLE, GUIDE))["raw"]
    assert "| `ps aux \\| grep x`[^1] | finds x |" in raw


# --- the preview draws a nested Slack bullet indented, as Slack shows it --------------------


def test_preview_keeps_the_indent_of_a_nested_slack_bullet() -> None:
    html = mrkdwn_to_html("\u2022 outer\n    \u2022 inner")
    assert "\u2022 outer<br>\n&nbsp;&nbsp;&nbsp;&nbsp;\u2022 inner<br>" in html


# --- an answer in a right-to-left script reads right to left --------------------------------


@pytest.mark.parametrize("channel", ["web", "email"])
def test_html_answer_takes_its_direction_from_its_text(channel: str) -> None:
    html = render(channel, answer("שלום עולם.[^1]", GUIDE))["html"]
    assert re.search(r'<p dir="auto"[^>]*>שלום עולם\.', html)


# --- a backtick shown as text does not hide a link from the splitter ------------------------


def test_a_slack_link_after_a_literal_backtick_is_never_cut() -> None:
    long_url = "https://kb.example/p?q=" + "u" * 2900
    text = "Start \\` " + "word " * 30 + "[^1] and then \\` end."  # backticks as text
    payload = render("slack", answer(text, Source(id="l", title="Long", url=long_url)))
    sections = [
        block["text"]["text"]
        for message in payload["messages"]
        for block in message["blocks"]
        if block["type"] == "section"
    ]
    assert len(sections) > 1  # the paragraph is longer than a section
    for section in sections:
        assert "<" not in re.sub(r"<[^<>]*>", "", section), section[:80]
    assert any(f"<{long_url}|[1]>" in section for section in sections)
