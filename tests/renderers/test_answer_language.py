"""``RenderContext.language`` (``assistant.language``): the web and email HTML mark the answer
and its sources as in that language and the chat's own words ("Sources") as English; without
one nothing is marked (the golden files)."""

from __future__ import annotations

import re

from renderers import render
from renderers.base import RenderContext
from tests.connectors.web.conftest import cited_answer, passage

ANSWER = cited_answer(passage(1), passage(2), text="Erstens.[^1]\n\nZweitens.[^2]\n")


def test_the_web_answer_and_its_sources_are_marked_and_the_heading_is_english() -> None:
    html = render("web", ANSWER, RenderContext(language="de"))["html"]
    assert re.search(r'<div class="answer" id="answer-\w+" lang="de">', html), html
    assert '<section class="sources" aria-label="Sources" lang="en">' in html
    assert re.search(r'<ol class="sources" id="sources-\w+" lang="de">', html), html


def test_the_email_html_marks_the_answer_and_the_source_list_but_not_its_own_words() -> None:
    mail = render("email", ANSWER, RenderContext(language="pt-BR"))
    html = mail["html"]
    assert '<html lang="en">' in html  # "Sources", "This answer was shortened …"
    assert '<title lang="pt-BR">Erstens.</title>' in html  # the subject is the answer's
    body = html.index('<div lang="pt-BR">')
    assert html.index("Erstens.", body) > body
    assert html.index("</div>", html.index("Zweitens.")) < html.index(">Sources</h2>")
    assert '<ol lang="pt-BR" style=' in html


def test_no_language_marks_nothing() -> None:
    web = render("web", ANSWER, RenderContext())["html"]
    mail = render("email", ANSWER, RenderContext())["html"]
    assert " lang=" not in web
    assert mail.count(" lang=") == 1  # the document's own <html lang="en">
