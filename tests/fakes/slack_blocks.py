"""Block Kit and message limits as Slack enforces them, for the fake Slack Web API.

Each check returns the list of problems in Slack's own wording style (``must be less than 3001
characters [json-pointer:/blocks/0/text/text]``); an empty list means Slack would accept the
payload. The limits are the documented ones: 50 blocks per message, 3,000 characters of section
text, 10 section fields of 2,000, 10 context elements of 2,000 (as the README and the renderer's
``SLACK_MAX_CONTEXT_TEXT`` hold them), header text 150, 25 action elements, button
text 75, block ids 255 and unique, 12,000 characters of ``markdown`` block text per payload.

Slack also refuses a message whose blocks hold too much text in total (``msg_blocks_too_long``),
a limit it does not document: "12,000 text characters with a buffer for block containers"
(bolt-js#2509), and 11,341 characters summed over every ``text`` was refused (bolt-js#2867).
The fake counts the same way and refuses more than 11,000, below the smallest refusal reported,
so a message near the real limit fails here first.
"""

from __future__ import annotations

from typing import Any

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_SECTION_FIELDS = 10
MAX_FIELD_TEXT = 2000
MAX_CONTEXT_ELEMENTS = 10
MAX_CONTEXT_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_ACTION_ELEMENTS = 25
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_URL = 3000
MAX_BLOCK_ID = 255
MAX_MARKDOWN_TEXT = 12000
MAX_BLOCKS_TEXT = 11000
TOO_MUCH_TEXT = "msg_blocks_too_long"
MAX_MESSAGE_TEXT = 40000
MAX_UPDATE_TEXT = 4000
MAX_STREAM_TEXT = 12000

KNOWN_BLOCKS = frozenset(
    {"section", "context", "header", "divider", "actions", "image", "markdown", "rich_text"}
)


def _too_long(limit: int, pointer: str) -> str:
    return f"must be less than {limit + 1} characters [json-pointer:{pointer}]"


def _text_object(obj: Any, pointer: str, limit: int, *, plain_only: bool = False) -> list[str]:
    if not isinstance(obj, dict):
        return [f"must be an object [json-pointer:{pointer}]"]
    kinds = ("plain_text",) if plain_only else ("plain_text", "mrkdwn")
    if obj.get("type") not in kinds:
        return [f"must be one of {list(kinds)} [json-pointer:{pointer}/type]"]
    text = obj.get("text")
    if not isinstance(text, str) or not text:
        return [f"must be more than 0 characters [json-pointer:{pointer}/text]"]
    if len(text) > limit:
        return [_too_long(limit, f"{pointer}/text")]
    return []


def _section(block: dict[str, Any], at: str) -> list[str]:
    problems: list[str] = []
    if "text" not in block and "fields" not in block:
        problems.append(f"must provide either text or fields [json-pointer:{at}]")
    if "text" in block:
        problems += _text_object(block["text"], f"{at}/text", MAX_SECTION_TEXT)
    fields = block.get("fields")
    if fields is not None:
        if not isinstance(fields, list) or len(fields) > MAX_SECTION_FIELDS:
            problems.append(f"must provide at most {MAX_SECTION_FIELDS} items [json-pointer:{at}]")
        else:
            for i, item in enumerate(fields):
                problems += _text_object(item, f"{at}/fields/{i}", MAX_FIELD_TEXT)
    return problems


def _context(block: dict[str, Any], at: str) -> list[str]:
    elements = block.get("elements")
    if not isinstance(elements, list) or not elements:
        return [f"must provide at least 1 item [json-pointer:{at}/elements]"]
    if len(elements) > MAX_CONTEXT_ELEMENTS:
        return [f"must provide at most {MAX_CONTEXT_ELEMENTS} items [json-pointer:{at}/elements]"]
    problems: list[str] = []
    for i, element in enumerate(elements):
        where = f"{at}/elements/{i}"
        if isinstance(element, dict) and element.get("type") == "image":
            if not element.get("image_url") or not element.get("alt_text"):
                problems.append(f"image needs image_url and alt_text [json-pointer:{where}]")
        else:
            problems += _text_object(element, where, MAX_CONTEXT_TEXT)
    return problems


def _button(element: dict[str, Any], at: str) -> list[str]:
    problems = _text_object(element.get("text"), f"{at}/text", MAX_BUTTON_TEXT, plain_only=True)
    action_id = element.get("action_id", "")
    if not isinstance(action_id, str) or len(action_id) > MAX_BLOCK_ID:
        problems.append(_too_long(MAX_BLOCK_ID, f"{at}/action_id"))
    value = element.get("value", "")
    if not isinstance(value, str) or len(value) > MAX_BUTTON_VALUE:
        problems.append(_too_long(MAX_BUTTON_VALUE, f"{at}/value"))
    url = element.get("url")
    if url is not None and (not isinstance(url, str) or len(url) > MAX_URL):
        problems.append(_too_long(MAX_URL, f"{at}/url"))
    if element.get("style") not in (None, "primary", "danger"):
        problems.append(f"must be one of primary, danger [json-pointer:{at}/style]")
    return problems


def _actions(block: dict[str, Any], at: str) -> list[str]:
    elements = block.get("elements")
    if not isinstance(elements, list) or not elements:
        return [f"must provide at least 1 item [json-pointer:{at}/elements]"]
    if len(elements) > MAX_ACTION_ELEMENTS:
        return [f"must provide at most {MAX_ACTION_ELEMENTS} items [json-pointer:{at}/elements]"]
    problems: list[str] = []
    for i, element in enumerate(elements):
        if not isinstance(element, dict):
            problems.append(f"must be an object [json-pointer:{at}/elements/{i}]")
        elif element.get("type") == "button":
            problems += _button(element, f"{at}/elements/{i}")
    return problems


def text_chars(value: Any) -> int:
    """Characters of every ``text`` string in ``value`` (blocks, text objects, elements)."""
    if isinstance(value, list):
        return sum(text_chars(item) for item in value)
    if not isinstance(value, dict):
        return 0
    own = value.get("text")
    return (len(own) if isinstance(own, str) else 0) + sum(
        text_chars(item) for item in value.values() if isinstance(item, dict | list)
    )


def validate_blocks(blocks: Any) -> list[str]:
    """Every reason Slack would answer ``invalid_blocks`` for this ``blocks`` array."""
    if not isinstance(blocks, list):
        return ["must be an array [json-pointer:/blocks]"]
    if len(blocks) > MAX_BLOCKS:
        return [f"must provide an array with at most {MAX_BLOCKS} items [json-pointer:/blocks]"]
    problems: list[str] = []
    seen_ids: set[str] = set()
    markdown_chars = 0
    for index, block in enumerate(blocks):
        at = f"/blocks/{index}"
        if not isinstance(block, dict) or block.get("type") not in KNOWN_BLOCKS:
            problems.append(f"unsupported type [json-pointer:{at}/type]")
            continue
        block_id = block.get("block_id")
        if block_id is not None:
            if not isinstance(block_id, str) or len(block_id) > MAX_BLOCK_ID:
                problems.append(_too_long(MAX_BLOCK_ID, f"{at}/block_id"))
            elif block_id in seen_ids:
                problems.append(f"duplicate block_id [json-pointer:{at}/block_id]")
            else:
                seen_ids.add(block_id)
        kind = block["type"]
        if kind == "section":
            problems += _section(block, at)
        elif kind == "context":
            problems += _context(block, at)
        elif kind == "header":
            problems += _text_object(
                block.get("text"), f"{at}/text", MAX_HEADER_TEXT, plain_only=True
            )
        elif kind == "actions":
            problems += _actions(block, at)
        elif kind == "markdown":
            text = block.get("text")
            if not isinstance(text, str) or not text:
                problems.append(f"must be more than 0 characters [json-pointer:{at}/text]")
            else:
                markdown_chars += len(text)
    if markdown_chars > MAX_MARKDOWN_TEXT:
        problems.append(_too_long(MAX_MARKDOWN_TEXT, "/blocks (markdown text, cumulative)"))
    total = text_chars(blocks)
    if total > MAX_BLOCKS_TEXT:
        problems.append(
            f"{TOO_MUCH_TEXT}: {total} characters of text in blocks, more than "
            f"{MAX_BLOCKS_TEXT} [json-pointer:/blocks]"
        )
    return problems
