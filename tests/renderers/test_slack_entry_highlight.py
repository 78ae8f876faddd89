"""A Slack source entry too long for a context element gives up its quote highlight first.

Such an entry (a long page URL with a text fragment of up to ``MAX_FRAGMENT_CHARS``) lost its
whole link, while Discord and email drop only the ``#:~:text=`` directive first: the page link
without it still leads to the source. Only a page URL too long by itself shows the title alone,
saying so, as Discord and email do.
"""

from __future__ import annotations

import pytest

from bot.deeplinks import MAX_FRAGMENT_CHARS, deep_link
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.limits import SLACK_MAX_CONTEXT_TEXT
from tests.renderers.payload_checks import check_slack, slack_context_texts

# A quote whose fragment is close to the longest allowed: a Japanese sentence whole (nine
# encoded characters a letter), a Russian one by its edge words (six a letter).
JAPANESE = (
    "本規程は入館証の発行と更新と紛失時の再発行および返却の手続きを定めるものであり"
    "全ての従業員と常駐する委託先の担当者に適用される"
)
RUSSIAN = (
    "Удостоверение сотрудника действительно двенадцать календарных месяцев "
    "после первоначальной регистрации"
)
SITE = "https://handbook.example.org/policies?path="


def entry_for(page: str, quote: str) -> tuple[str, str]:
    """The Slack source entry of one citation of ``page`` at ``quote``, and its deep link."""
    source = Source(id="s1", title="Badge rules", url=page)
    link = deep_link(source, quote)
    assert link is not None and link.startswith(page + "#:~:text=")
    citation = Citation(1, source, 1, quote=quote, deep_link=link)
    payload = render("slack", Answer("Badges are renewed yearly.[^1]", (citation,)))
    check_slack(payload)
    [entry] = slack_context_texts(payload)
    return entry, link


@pytest.mark.parametrize("quote", [JAPANESE, RUSSIAN], ids=["japanese", "russian"])
def test_an_entry_too_long_with_its_highlight_keeps_the_page_link(quote: str) -> None:
    page = SITE + "building-access/" * 90  # 1,483 characters: fits alone, not with the fragment
    entry, link = entry_for(page, quote)
    assert len(link.partition("#")[2]) > MAX_FRAGMENT_CHARS - 100
    assert len(f"<{link}|[1] Badge rules>") > SLACK_MAX_CONTEXT_TEXT
    assert entry == f"<{page}|[1] Badge rules>"


@pytest.mark.parametrize("quote", [JAPANESE, RUSSIAN], ids=["japanese", "russian"])
def test_an_entry_that_fits_keeps_its_highlight(quote: str) -> None:
    page = SITE + "building-access/" * 60
    entry, link = entry_for(page, quote)
    assert entry == f"<{link}|[1] Badge rules>"
    assert len(entry) <= SLACK_MAX_CONTEXT_TEXT


def test_a_page_url_too_long_by_itself_shows_the_title_and_says_why() -> None:
    page = SITE + "building-access/" * 130
    entry, _ = entry_for(page, JAPANESE)
    assert entry == "[1] Badge rules (link too long to show)"
