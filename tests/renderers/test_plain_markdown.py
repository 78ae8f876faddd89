"""An answer's Markdown as plain text (``citecast ask``, the chat's *Copy answer*): Markdown's
backslash escapes are removed where CommonMark reads them, and only there (found in a QA pass:
``ask`` printed ``replaced yearly \\[1\\] [2]`` and ``arr\\[1\\] returns``).

The cases are a JSON file because the chat's copy (``plainMarkdown`` in ``answer_actions.js``)
must pass the same ones: ``tests/connectors/browser/test_web_copy_answer_escapes_browser.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.markdown import parse
from bot.markdown import plain_text as markdown_plain_text
from renderers.plain_markdown import plain_markdown

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "plain_markdown_cases.json").read_text(encoding="utf-8")
)


def numbered(n: int) -> str:
    return f"[{n}]"


@pytest.mark.parametrize("case", CASES, ids=[case["why"] for case in CASES])
def test_each_case_reads_as_commonmark_reads_it(case: dict[str, Any]) -> None:
    assert plain_markdown(case["markdown"], numbered) == case["plain"]


@pytest.mark.parametrize("char", [chr(c) for c in range(0x21, 0x7F)] + ["é", "→", "。"])
def test_a_backslash_goes_where_the_renderers_parser_drops_it(char: str) -> None:
    # what every channel shows of "a\\Xb" (mistune, CommonMark): the plain text agrees
    tokens = parse(f"a\\{char}b")[0]["children"]
    assert plain_markdown(f"a\\{char}b", numbered) == markdown_plain_text(tokens)


def test_each_marker_is_written_as_the_caller_says() -> None:
    assert plain_markdown("Yes.[^1] Maybe.[^2] `[^2]`", lambda n: f"[{n}?]") == (
        "Yes.[1?] Maybe.[2?] `[^2]`"
    )
