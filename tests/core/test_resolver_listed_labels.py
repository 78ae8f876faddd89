"""A model's own footnote and source-list numbering never makes a wrong citation
(bot.listed_items, bot.resolver_listed).

The registry of the QA report: 1 Install guide, 2 FAQ, 3 Pricing (pdf), a hidden Salaries,
4 the record products/CC-TEAM, 5 Handbook (handbook.md); a model told to cite. Each case is
resolved at once and streamed in several splits (one character at a time included), which
must give the same Answer.
"""

from __future__ import annotations

import pytest

from bot.listed_items import read_item
from bot.models import Answer
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy
from bot.source_mentions import is_model_source_list, named_sources
from bot.source_model import Source
from tests.core.resolver_splits import resolved_alike

MODEL = ResolvePolicy(model_cites=True)
PRICING_PDF = "https://docs.example.com/pricing.pdf"


def registry() -> SourceRegistry:
    """1 install, 2 faq, 3 pricing, (salaries hidden), 4 a record, 5 handbook.md."""
    found = SourceRegistry(("public",), secret=b"listed-labels!!!")
    found.register_all(
        [
            Source(id="install", title="Install guide", url="https://docs.example.com/install"),
            Source(id="faq", title="FAQ", url="https://docs.example.com/faq"),
            Source(id="pricing", title="Pricing", url=PRICING_PDF),
            Source(id="salaries", title="Salaries", audience=("hr",)),
            Source(id="products/CC-TEAM", title="CC Team", kind="record", key="products/CC-TEAM"),
            Source(id="handbook.md", title="Handbook", filename="handbook.md"),
        ]
    )
    return found


def everywhere(raw: str, policy: ResolvePolicy = MODEL) -> Answer:
    """``resolve(raw)``, checked to equal every stream of it."""
    return resolved_alike(raw, registry, policy)


def cited(answer: Answer) -> list[str]:
    return [c.source.id for c in answer.citations]


TWO_FOOTNOTES = "The Team plan costs 49 EUR[^1]. Leave is 25 days[^2].\n\n"

CASES = [
    # the model numbers its own footnotes: each definition's title decides
    (
        TWO_FOOTNOTES + "[^1]: Pricing\n[^2]: Handbook",
        "The Team plan costs 49 EUR[^1]. Leave is 25 days[^2].",
        ["pricing", "handbook.md"],
    ),
    # ...or its URL, bare or in a link
    (
        f"Team costs 49 EUR[^1].\n\n[^1]: {PRICING_PDF}",
        "Team costs 49 EUR[^1].",
        ["pricing"],
    ),
    (
        f"Team costs 49 EUR[^1].\n\n[^1]: [Pricing]({PRICING_PDF})",
        "Team costs 49 EUR[^1].",
        ["pricing"],
    ),
    # a definition no marker uses cites the source it names, not its label's
    ("Team costs 49 EUR.\n\n[^1]: Pricing", "Team costs 49 EUR.[^1]", ["pricing"]),
    # an ordered list's own "1." is no source number
    ("Team costs 49 EUR.\n\nSources:\n1. Pricing", "Team costs 49 EUR.[^1]", ["pricing"]),
    (
        "Team costs 49 EUR [1]. Leave is 25 days [2].\n\nSources:\n1. Pricing\n2. Handbook",
        "Team costs 49 EUR [^1]. Leave is 25 days [^2].",
        ["pricing", "handbook.md"],
    ),
    # swapped labels: both follow their titles
    (
        "A [^1]. B [^2].\n\n[^1]: FAQ\n[^2]: Install guide",
        "A [^1]. B [^2].",
        ["faq", "install"],
    ),
    # a definition before the marker that uses it
    ("[^1]: Pricing\n\nTeam costs 49 EUR[^1].", "[^1]\n\nTeam costs 49 EUR[^1].", ["pricing"]),
    # the model's label out of range: its marker goes, the source its definition names stays
    ("Team costs 49 EUR[^7].\n\n[^7]: Pricing", "Team costs 49 EUR.[^1]", ["pricing"]),
    # unchanged: registry numbers with a list echoing them, and definitions naming nothing
    (
        "Install [1]. Retry [2].\n\nSources:\n1. Install guide\n2. FAQ",
        "Install [^1]. Retry [^2].",
        ["install", "faq"],
    ),
    (
        "Install [1].\n\nSources:\n- [1] Install guide\n- [3] Pricing",
        "Install [^1].[^2]",
        ["install", "pricing"],
    ),
    ("Install [^1].\n\n[^1]: the docs", "Install [^1].", ["install"]),
    ("Install [^2].\n\n[^2]: https://elsewhere.test/x", "Install [^1].", ["faq"]),
    # a title naming its label's source among others keeps the label
    ("Install [^1].\n\n[^1]: Install guide, see also the FAQ", "Install [^1].", ["install"]),
    # a definition naming a source another marker cites: no source gets two citations, so
    # the label keeps the source it named (the text is out before the definition comes)
    (
        "A [^1]. B [3].\n\n[^1]: Pricing",
        "A [^1]. B [^2].",
        ["install", "pricing"],
    ),
    # a hidden source is never named by its title
    ("Pay [^1].\n\n[^1]: Salaries", "Pay [^1].", ["install"]),
]


@pytest.mark.parametrize(("raw", "text", "sources"), CASES)
def test_a_definition_or_list_item_cites_what_its_title_or_url_names(
    raw: str, text: str, sources: list[str]
) -> None:
    answer = everywhere(raw)
    assert (answer.text, cited(answer)) == (text, sources)


def test_without_model_cites_the_titles_decide_too() -> None:
    answer = everywhere(TWO_FOOTNOTES + "[^1]: Pricing\n[^2]: Handbook", ResolvePolicy())
    assert cited(answer) == ["pricing", "handbook.md"]


def test_registry_numbering_keeps_the_written_number_for_a_relabeled_citation() -> None:
    answer = everywhere(
        "Team costs 49 EUR[^1].\n\n[^1]: Pricing", ResolvePolicy(numbering="registry")
    )
    assert answer.text == "Team costs 49 EUR[^1]."
    [citation] = answer.citations
    assert (citation.n, citation.source_number, citation.source.id) == (1, 3, "pricing")


def test_a_relabeled_citation_links_to_the_named_source() -> None:
    answer = everywhere("Team costs 49 EUR[^1].\n\n[^1]: Pricing")
    assert answer.citations[0].source.url == PRICING_PDF


RULES = [
    ("Install [^1].\n\n---\n[^1]: Install guide", "Install [^1]."),
    ("Install [^1].\n\n***\n\n[^1]: Install guide\n[^2]: FAQ\n", "Install [^1].[^2]"),
    ("Install.\n\n___\n[1]: https://docs.example.com/install\n", "Install.[^1]"),
    ("Install.\n\n---\n[^2]: FAQ\n    more about it\n", "Install.[^1]"),
    # text after the definitions, or no definition after the rule: the rule stays
    ("Install.\n\n---\n[^1]: Install guide\n\nMore text.", "Install.\n\n---\n[^1]\n\nMore text."),
    ("Install.\n\n---\n[x] a task", "Install.\n\n---\n[x] a task"),
]


@pytest.mark.parametrize(("raw", "text"), RULES)
def test_a_rule_right_above_removed_definitions_goes_with_them(raw: str, text: str) -> None:
    assert everywhere(raw).text == text


def test_reading_an_item() -> None:
    found = registry()
    assert read_item(found, "1. Pricing").cites(found) == 3
    assert read_item(found, "1. the docs").cites(found) is None
    assert read_item(found, "[^2]: the docs").cites(found) == 2
    assert read_item(found, "1. [2] Pricing").relabels() == (2, 3)
    assert read_item(found, "- [1] Install guide").relabels() is None
    assert read_item(found, f"[^1]: {PRICING_PDF}.").relabels() == (1, 3)
    assert read_item(found, "[^1]: handbook.md").relabels() == (1, 5)
    assert read_item(found, "1.5 GB of Pricing").label is None


def test_an_ordered_list_naming_nothing_is_no_model_source_list() -> None:
    found = registry()
    assert not is_model_source_list(found, ["1. the docs", "2. the faq page"])
    assert is_model_source_list(found, ["1. Pricing", "2. Handbook"])
    assert named_sources(found, ("1. Pricing", "2. Handbook")) == [3, 5]
    assert named_sources(found, ("[^1]:",)) == [1]
