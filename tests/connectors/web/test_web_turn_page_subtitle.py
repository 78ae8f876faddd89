"""The share page (``/turns/{key}``) says what it shows: "An answer and every source it cites."
only above an answer that cites sources, not above "You're welcome!" or an answer that found
nothing to cite (bot/connectors/web_turn_page.py)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.connectors.web_turn_page import turn_page
from bot.filetokens import FileSigner
from bot.models import Answer
from renderers import render
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage


def subtitle(page: str) -> str:
    found = re.search(r'<p class="cc-subtitle">([^<]*)</p>', page)
    assert found is not None
    return found.group(1)


def tab_title(page: str) -> str:
    found = re.search(r"<title>([^<]*)</title>", page)
    assert found is not None
    return found.group(1)


async def share_page(tmp_path: Path, answer: Answer, question: str = "how do I install it?") -> str:
    signer = FileSigner(b"k" * 32, "http://citecast.test", 3600)
    _, client = build_harness(tmp_path, CannedAnswerer(answer), signer=signer)
    async with client:
        body = (await client.post("/api/ask", json={"question": question})).json()
        page = await client.get(f"/turns/{signer.turn_key(body['turn_id'])}")
    assert page.status_code == 200
    return page.text


async def test_an_answer_with_sources_is_called_one(tmp_path: Path) -> None:
    page = await share_page(tmp_path, cited_answer(passage(1)))
    assert subtitle(page) == "An answer and every source it cites."
    assert tab_title(page) == "citecast — answer and sources"


async def test_an_answer_that_cites_nothing_does_not_promise_sources(tmp_path: Path) -> None:
    page = await share_page(tmp_path, Answer(text="I could not find that in the documentation."))
    assert subtitle(page) == "An answer that cites no sources."
    assert tab_title(page) == "citecast — answer"
    assert "every source" not in page


async def test_the_shared_reply_to_a_thanks_says_it_is_one(tmp_path: Path) -> None:
    page = await share_page(tmp_path, Answer(text="You're welcome!"), question="thanks!")
    assert subtitle(page) == "A reply to a greeting or a thank-you: there was nothing to look up."


def test_a_reply_to_small_talk_says_so() -> None:
    rendered = str(render("web", Answer(text="You're welcome!"))["html"])
    page = turn_page(rendered, "Acme help", small_talk=True)
    assert subtitle(page) == "A reply to a greeting or a thank-you: there was nothing to look up."
    assert tab_title(page) == "Acme help — reply"
    assert '<p dir="auto">You\'re welcome!</p>' in page
    # an answer that cites a source is never small talk, whatever the caller says
    cited = str(render("web", cited_answer(passage(1)))["html"])
    assert subtitle(turn_page(cited, small_talk=True)) == "An answer and every source it cites."
