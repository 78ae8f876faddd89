"""The email's HTML part stays under its budget whatever the sources hold, its list still arrives.

A source title of 200,000 characters made a 200 KB HTML part, and sixty sources with 2 KB titles
and 1.5 KB URLs 220 KB (each marker carried its source's title and URL again), although the
README promises "email HTML under 100 KB". Titles are shortened as on the other channels, a long
URL is written once (in its entry), and the list is compacted before the body is shortened.
"""

from __future__ import annotations

import re

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.limits import EMAIL_MAX_HTML_BYTES
from tests.renderers.payload_checks import check_email

HUGE_TITLE = "word " * 40_000


def html_bytes(payload: dict[str, str]) -> int:
    return len(payload["html"].encode("utf-8"))


def sixty_long_sources() -> Answer:
    """Sixty sources, each with a ~2 KB title and a ~1.5 KB URL, each cited once."""
    citations = tuple(
        Citation(
            n,
            Source(
                id=f"s{n}",
                title=f"Title {n} " + "long " * 400,
                url=f"https://docs.example/{n}/" + "a" * 1500,
            ),
            n,
        )
        for n in range(1, 61)
    )
    text = " ".join(f"Claim number {n} holds [^{n}]." for n in range(1, 61))
    return Answer(text=text, citations=citations)


def test_a_huge_title_keeps_the_html_under_budget_and_shows_its_start() -> None:
    source = Source(id="a", title=HUGE_TITLE)
    payload = render("email", Answer(text="x [^1]. ", citations=(Citation(1, source, 1),)))
    check_email(payload)
    assert html_bytes(payload) < 5_000  # shortened like the other channels' titles
    assert "word word word" in payload["html"]
    assert "<ol" in payload["html"]  # its entry is still listed
    # the text part shortens the title too; it still lists the entry
    assert len(payload["text"]) < 1_000 and "[1] word word" in payload["text"]


def test_sixty_long_titles_and_urls_fit_with_the_whole_answer_and_every_entry() -> None:
    answer = sixty_long_sources()
    context = RenderContext(public_base_url="https://bot.example", turn_id="7-AbC")
    payload = render("email", answer, context)
    check_email(payload)
    html = payload["html"]
    assert "shortened" not in html  # the list was compacted, the answer kept whole
    assert all(f"Claim number {n} holds" in html for n in range(1, 61))
    assert len(re.findall(r"<li id=\"ref-\d+\"", html)) == 60  # every source still listed
    # a URL too long for the compacted list is named, and the text part carries it whole
    assert "(link too long to show)" in html
    for n in range(1, 61):
        assert f"https://docs.example/{n}/" + "a" * 1500 in payload["text"]


def test_a_marker_points_at_its_entry_instead_of_repeating_a_long_url() -> None:
    url = "https://docs.example/" + "b" * 1500
    source = Source(id="a", title="Guide " + "t" * 500, url=url)
    text = " ".join(["Fact [^1]."] * 20)
    payload = render("email", Answer(text=text, citations=(Citation(1, source, 1),)))
    html = payload["html"]
    assert html.count(url) == 1  # in the entry only
    assert html.count('href="#ref-1"') == 20
    tips = re.findall(r'<a href="#ref-1" title="([^"]*)"', html)
    assert len(tips) == 20 and all(len(tip) <= 120 for tip in tips)  # the tooltip is short
    assert "t" * 250 in html  # the entry shows more of the title


def test_a_short_link_is_still_linked_from_each_marker() -> None:
    source = Source(id="a", title="Guide", url="https://docs.example/guide")
    payload = render("email", Answer(text="Fact [^1].", citations=(Citation(1, source, 1),)))
    assert payload["html"].count('href="https://docs.example/guide"') == 2


def test_a_budget_tightened_in_config_cuts_the_list_and_links_the_whole_answer() -> None:
    caps = capabilities_for("email", {"max_chars": 6_000})
    linked = RenderContext(
        capabilities=caps, public_base_url="https://bot.example", turn_id="7-AbC"
    )
    payload = render("email", sixty_long_sources(), linked)
    check_email(payload)
    assert html_bytes(payload) < 6_000
    more = re.search(r'<a href="([^"]+)"[^>]*>and (\d+) more</a>', payload["html"])
    assert more is not None and more.group(1).startswith("https://bot.example/turns/7-AbC")
    shown = len(re.findall(r"<li id=", payload["html"]))
    assert shown > 0 and shown + int(more.group(2)) == 60
    # without a page for the answer, it says where the rest is
    bare = render("email", sixty_long_sources(), RenderContext(capabilities=caps))
    assert html_bytes(bare) < 6_000
    assert "(the plain-text version of this email lists them all)" in bare["html"]
    assert all(f"[{n}] Title {n}" in bare["text"] for n in range(1, 61))


def test_the_default_budget_is_the_readme_one() -> None:
    assert capabilities_for("email").max_chars == EMAIL_MAX_HTML_BYTES == 100_000
