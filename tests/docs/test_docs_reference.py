"""The README as a reference a newcomer can navigate: links that land, tables that render, and a
key table for every Slack and store setting.

Found in a newcomer QA pass: the README had no table of contents, a `store.` and a `slack.` key
table were missing (``slack.feedback_buttons``, ``store.path``'s default were never stated), and
one `index.` table row split into four cells on GitHub because of a bare ``|`` in a code span.
"""

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mistune
import pytest

from bot.config import RetentionSettings, StoreSettings
from bot.config_channels import SlackSettings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["README.md", "DEVELOPERS.md", "CHANGELOG.md", "bench/README.md"]
_parse = mistune.create_markdown(renderer=None, plugins=["table", "footnotes", "strikethrough"])


def _nodes(nodes: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for node in nodes:
        yield node
        yield from _nodes(node.get("children") or [])


def _text(node: dict[str, Any]) -> str:
    if "raw" in node:
        return str(node["raw"])
    return "".join(_text(child) for child in node.get("children") or [])


def _anchors(path: Path) -> set[str]:
    """The ids GitHub gives the headings: lower case, punctuation dropped, spaces as hyphens,
    a repeated one numbered -1, -2, ..."""
    seen: dict[str, int] = {}
    anchors = set()
    for node in _nodes(_parse(path.read_text(encoding="utf-8"))):  # type: ignore[arg-type]
        if node["type"] == "heading":
            slug = re.sub(r"[^\w\- ]", "", _text(node).strip().lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(path: Path) -> list[str]:
    tree = _parse(path.read_text(encoding="utf-8"))
    return [n["attrs"]["url"] for n in _nodes(tree) if n["type"] in ("link", "image")]  # type: ignore[arg-type]


@pytest.mark.parametrize("name", DOCS)
def test_every_relative_link_and_anchor_lands(name: str) -> None:
    path = ROOT / name
    broken = []
    for url in _links(path):
        if url.startswith(("http://", "https://", "mailto:")):
            continue
        file, _, fragment = url.partition("#")
        target = (path.parent / file) if file else path
        if not target.exists() or (fragment and fragment not in _anchors(target)):
            broken.append(url)
    assert broken == []


def test_readme_opens_with_a_table_of_contents() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    contents = text.index("**Contents**")
    assert contents < text.index("## Quickstart")
    for anchor in ("#quickstart", "#use-your-documents", "#answering", "#configuration"):
        assert f"]({anchor})" in text[contents : text.index("## Quickstart")]


def _cells(row: str) -> int:
    # GitHub splits a row at every | not escaped, code spans included
    return row.strip().strip("|").replace("\\|", "").count("|") + 1


@pytest.mark.parametrize("name", DOCS)
def test_every_table_row_has_the_header_column_count(name: str) -> None:
    lines = (ROOT / name).read_text(encoding="utf-8").split("\n")
    bad = []
    for i, line in enumerate(lines[:-1]):
        if line.startswith("|") and re.fullmatch(r"\|[-:| ]+\|", lines[i + 1]):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                if _cells(lines[j]) != _cells(line):
                    bad.append(j + 1)
                j += 1
    assert bad == []


def _key_table_rows(prefix: str) -> list[str]:
    """The first cells of the README table headed `prefix.` key."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| `{prefix}.` key |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line.split(" | ")[0])
    return rows


def test_every_slack_setting_is_in_the_slack_key_table() -> None:
    documented = " ".join(_key_table_rows("slack"))
    missing = [key for key in SlackSettings.model_fields if f"`{key}`" not in documented]
    assert missing == []


def test_every_store_setting_is_in_the_store_key_table() -> None:
    documented = " ".join(_key_table_rows("store"))
    keys = [key for key in StoreSettings.model_fields if key != "retention"]
    keys += [f"retention.{key}" for key in RetentionSettings.model_fields]
    assert [key for key in keys if f"`{key}`" not in documented] == []
    assert "| `path` | `.citecast/citecast.db` |" in (ROOT / "README.md").read_text(
        encoding="utf-8"
    )
