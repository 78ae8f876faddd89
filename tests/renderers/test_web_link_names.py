"""The names the web source list gives links that would read alike in a list of links
(``renderers.web_link_names``), as the sanitized HTML carries them."""

from __future__ import annotations

import re

from bot.models import Answer, Citation, RecordAction, Source
from renderers import render
from renderers.base import RenderContext


def answer_citing(*sources: Source, quotes: tuple[str | None, ...] = ()) -> Answer:
    citations = tuple(
        Citation(
            n=n,
            source=source,
            source_number=n,
            quote=quotes[n - 1] if quotes else source.text,
        )
        for n, source in enumerate(sources, 1)
    )
    text = " ".join(f"Claim {n}.[^{n}]" for n in range(1, len(sources) + 1))
    return Answer(text=text, citations=citations)


def source_links(answer: Answer) -> list[tuple[str | None, str]]:
    """Each link of the source list: its aria-label (None without one) and its words."""
    html = str(render("web", answer, RenderContext())["html"])
    listed = html.split('<ol class="sources"', 1)[1]
    found = []
    for attrs, words in re.findall(r"<a ([^>]*)>([^<]*)</a>", listed):
        label = re.search(r'aria-label="([^"]*)"', attrs)
        found.append((label.group(1) if label else None, words))
    return found


def page(n: int, title: str = "Guide", section: str | None = None) -> Source:
    return Source(
        id=f"s{n}",
        title=title,
        url=f"https://docs.example.com/{n}",
        section=section,
        text=f"Passage {n} says so.",
    )


def test_a_title_no_other_link_shows_keeps_its_own_words() -> None:
    links = source_links(answer_citing(page(1, "Install guide"), page(2, "Upgrade guide")))
    assert links == [(None, "Install guide"), (None, "Upgrade guide")]


def test_one_documents_passages_are_told_apart_by_section_then_quote_then_number() -> None:
    by_section = source_links(answer_citing(page(1, section="Install"), page(2, section="Usage")))
    assert by_section == [("Guide, Install", "Guide"), ("Guide, Usage", "Guide")]
    # one section: the start of each quote (the list shows each quote, the names now too)
    quotes = ("Run the installer first.", "Then restart the service.")
    same = answer_citing(page(1, section="Setup"), page(2, section="Setup"), quotes=quotes)
    assert [name for name, _ in source_links(same)] == [
        "Guide, Setup, \u201cRun the installer first.\u201d",
        "Guide, Setup, \u201cThen restart the service.\u201d",
    ]
    # the same quote: their numbers
    twice = ("Run it.", "Run it.")
    alike = answer_citing(page(1, section="Setup"), page(2, section="Setup"), quotes=twice)
    names = [name for name, _ in source_links(alike)]
    assert len(set(names)) == 2
    assert all(name and name.startswith("Guide, Setup") for name in names)


def test_every_action_link_names_its_record_and_is_escaped() -> None:
    def plan(n: int, name: str) -> Source:
        action = RecordAction("See plan", f"https://example.com/plan/{n}")
        return Source(id=f"r{n}", title=name, kind="record", label=name, action=action)

    links = source_links(answer_citing(plan(1, "Team"), plan(2, 'Pro "<b>"')))
    assert links == [
        ("See plan: Team", "See plan"),
        ("See plan: Pro &quot;&lt;b&gt;&quot;", "See plan"),
    ]
    # two records of one title: their numbers too
    twins = [name for name, _ in source_links(answer_citing(plan(1, "Team"), plan(2, "Team")))]
    assert twins == ["See plan: Team, source 1", "See plan: Team, source 2"]
