"""SourceRegistry: two documents never share a number, whatever URL they share (DESIGN §4)."""

from __future__ import annotations

from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve

FAQ = "https://docs.example.com/faq"


def first_passage(name: str, url: str, text: str = "") -> Source:
    """An index passage as search_docs returns it: its id is ``relpath#chunk``."""
    return Source(
        id=f"kb/{name}.md#1",
        title=f"{name.title()} FAQ",
        url=url,
        filename=f"{name}.md",
        path=f"/srv/kb/{name}.md",
        chunk=1,
        text=text or f"What the {name} connector needs.",
    )


def anchored_faqs() -> tuple[SourceRegistry, Source, Source]:
    # two Markdown files whose front matter url is one page's anchors
    registry = SourceRegistry()
    discord = first_passage("discord", f"{FAQ}#discord", "Discord needs a bot token.")
    slack = first_passage("slack", f"{FAQ}#slack", "Slack needs chat:write.")
    assert registry.register_all([discord, slack]) == [1, 2]
    return registry, discord, slack


def test_two_files_whose_urls_differ_only_by_anchor_are_shown_under_their_own_numbers() -> None:
    registry = SourceRegistry()
    discord = first_passage("discord", f"{FAQ}#discord", "Discord needs a bot token.")
    slack = first_passage("slack", f"{FAQ}#slack", "Slack needs chat:write.")
    shown = registry.format_passages([discord, slack])
    assert shown.count("[cite: 1]") == 1 and shown.count("[cite: 2]") == 1
    assert "[cite: 2] Slack FAQ\nSlack needs chat:write." in shown
    assert registry.get(2) == slack


def test_a_number_written_for_the_second_file_cites_it() -> None:
    registry, _, _ = anchored_faqs()
    answer = resolve(
        "Discord needs a bot token [1]. Slack needs chat:write [2].",
        registry,
        ResolvePolicy(model_cites=True),
    )
    assert [c.source.id for c in answer.citations] == ["kb/discord.md#1", "kb/slack.md#1"]
    assert answer.dropped == ()


def test_a_file_id_tag_naming_the_second_file_cites_it() -> None:
    registry, _, slack = anchored_faqs()
    assert registry.number_for_id(slack.id) == 2
    answer = resolve(f"Slack needs chat:write <CIT {slack.id} />.", registry)
    [citation] = answer.citations
    assert citation.source == slack and citation.source_number == 2


def test_files_sharing_one_canonical_url_keep_their_own_numbers() -> None:
    # an HTML page and its print copy with one <link rel="canonical">; two versions of a page
    # given one URL by a {stem} url template
    registry = SourceRegistry()
    url = "https://docs.example.com/install.html"
    page = first_passage("install", url)
    copy = first_passage("install-print", url)
    v1 = Source(
        "v1/install.md#1", url=url, chunk=1, path="/kb/v1/install.md", filename="install.md"
    )
    v2 = Source(
        "v2/install.md#1", url=url, chunk=1, path="/kb/v2/install.md", filename="install.md"
    )
    assert registry.register_all([page, copy, v1, v2]) == [1, 2, 3, 4]
    assert registry.numbers_for_url(url) == [1, 2, 3, 4]


def test_the_same_passage_from_two_tools_keeps_one_number() -> None:
    registry = SourceRegistry()
    found = first_passage("slack", f"{FAQ}#slack")
    again = Source(
        "fetch:slack-1", url=f"{FAQ}#slack", path=found.path, filename=found.filename, chunk=1
    )
    assert registry.register_all([found, again]) == [1, 1]
    assert registry.number_for_id("fetch:slack-1") == 1
    assert len(registry) == 1


def test_a_web_page_returned_with_and_without_an_anchor_keeps_one_number() -> None:
    registry = SourceRegistry()
    numbers = registry.register_all(
        [
            Source("w1", url="https://blog.example/post#comments"),
            Source("w2", url="https://Blog.example/post?utm_source=feed"),
            Source("w3", url="https://blog.example/post#:~:text=retries%20back%20off"),
        ]
    )
    assert numbers == [1, 1, 1]


def test_two_anchors_of_one_web_page_get_two_numbers() -> None:
    registry = SourceRegistry()
    numbers = registry.register_all(
        [
            Source("w1", url=f"{FAQ}#discord", text="Discord needs a bot token."),
            Source("w2", url=f"{FAQ}#slack", text="Slack needs chat:write."),
            Source("w3", url=f"{FAQ}#slack:~:text=chat"),
        ]
    )
    assert numbers == [1, 2, 2]


def test_a_fragment_less_duplicate_does_not_join_two_anchors() -> None:
    # "#discord" and "" agree, "" and "#slack" agree, but "#discord" and "#slack" do not
    registry = SourceRegistry()
    numbers = registry.register_all(
        [Source("a", url=f"{FAQ}#discord"), Source("b", url=FAQ), Source("c", url=f"{FAQ}#slack")]
    )
    assert numbers == [1, 1, 2]


def test_numbers_for_url_keeps_the_anchor() -> None:
    registry, _, _ = anchored_faqs()
    assert registry.numbers_for_url(f"{FAQ}#slack") == [2]
    assert registry.numbers_for_url(f"{FAQ}#discord") == [1]
    assert registry.numbers_for_url(f"{FAQ}#slack:~:text=chat%3Awrite") == [2]
    assert registry.numbers_for_url("HTTPS://DOCS.example.com/faq?utm_medium=x#slack") == [2]
    assert registry.numbers_for_url(f"{FAQ}#telegram") == []


def test_numbers_for_url_without_an_anchor_names_every_source_of_the_page() -> None:
    registry, _, _ = anchored_faqs()
    assert registry.numbers_for_url(FAQ) == [1, 2]
    assert registry.numbers_for_url(f"{FAQ}#:~:text=needs") == [1, 2]


def test_numbers_for_url_reads_a_section_link_to_a_whole_page_source() -> None:
    registry = SourceRegistry()
    registry.register_all([Source("g", url="https://docs.example.com/guide")])
    registry.register_all([Source("i", url="https://docs.example.com/guide#install", page=2)])
    assert registry.numbers_for_url("https://docs.example.com/guide#install") == [2, 1]
    assert registry.numbers_for_url("https://docs.example.com/guide#upgrade") == [1]


def test_a_link_to_the_second_anchor_cites_the_second_file() -> None:
    registry, _, _ = anchored_faqs()
    answer = resolve(
        f"Slack needs chat:write [[7]]({FAQ}#slack).", registry, ResolvePolicy(model_cites=True)
    )
    [citation] = answer.citations
    assert citation.source.id == "kb/slack.md#1"


def test_number_of_tells_the_two_files_apart() -> None:
    registry, discord, slack = anchored_faqs()
    stranger = Source("kb/other.md#1", url=f"{FAQ}#slack", chunk=1, path="/srv/kb/other.md")
    same_file = Source(
        "again", url=f"{FAQ}#slack", chunk=1, path=slack.path, filename=slack.filename
    )
    assert registry.number_of(stranger) is None
    assert registry.number_of(same_file) == 2
    assert registry.number_of(discord) == 1
