"""Tool calls written as text in Mistral's form (``[TOOL_CALLS]``), Llama 3.x's
(``<|python_tag|>`` or a whole message of bare JSON) and Qwen3-Coder's ``<function=`` form
without ``<tool_call>``: run as structured calls would be, numbered the same way, never shown;
a result the model made up after them is dropped; prose, code fences and JSON that is not a
call stay as written.

Driven by the real ``openai`` client against the loopback fake (streamed in 5-character
pieces, so every marker arrives cut).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import first_cites, run, searched_twice, sent_assistant, sent_calls
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import Completion, FakeOpenAI, ToolCallSpec, text, tools


def call(name: str, key: str = "arguments", **arguments: str) -> dict[str, Any]:
    return {"name": name, key: arguments}


def mistral_list(*calls: dict[str, Any]) -> str:
    """Calls as Mistral's tokenizers before v11 have the model write them."""
    return "[TOOL_CALLS] " + json.dumps(list(calls))


def mistral_args(*calls: dict[str, Any]) -> str:
    """Calls as Mistral's tokenizers from v11 (v13 with ``[ARGS]``) have it write them."""
    return "".join(f"[TOOL_CALLS]{c['name']}[ARGS]{json.dumps(c['arguments'])}" for c in calls)


def llama(*calls: dict[str, Any]) -> str:
    """Calls as Llama 3.x writes them (``parameters``, ``;`` between calls)."""
    return "; ".join(json.dumps(c) for c in calls)


def bare_function(name: str, **parameters: str) -> str:
    """A call in Qwen3-Coder's form without the ``<tool_call>`` around it."""
    lines = [f"<parameter={key}>\n{value}\n</parameter>" for key, value in parameters.items()]
    return "\n".join([f"<function={name}>", *lines, "</function>"])


RETRY = call("search_docs", query="retry policy")
BACKUPS = call("search_docs", query="backups")
RETRY_L = call("search_docs", "parameters", query="retry policy")
BACKUPS_L = call("search_docs", "parameters", query="backups")

# what each form looks like with a preamble (where it can have one) and two calls
TWO_CALLS = {
    "mistral-list": f"Let me check both.{mistral_list(RETRY, BACKUPS)}",
    "mistral-args": f"Let me check both.\n\n{mistral_args(RETRY, BACKUPS)}</s>",
    "mistral-v11": 'Let me check both.[TOOL_CALLS]search_docs{"query": "retry policy"}'
    '[TOOL_CALLS]search_docs[CALL_ID]a1b2c3d4e[ARGS]{"query": "backups"}',
    "python-tag": f"Let me check both.\n<|python_tag|>{llama(RETRY_L, BACKUPS_L)}<|eom_id|>",
    "bare-json": llama(RETRY_L, BACKUPS_L),
    "bare-json-list": json.dumps([RETRY, BACKUPS]),
    "bare-function": "Let me check both.\n"
    + bare_function("search_docs", query="retry policy")
    + "\n"
    + bare_function("search_docs", query="backups"),
}


@pytest.mark.parametrize("form", list(TWO_CALLS))
@pytest.mark.parametrize("stream", [True, False])
async def test_calls_in_each_form_are_run_in_order_and_never_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, form: str, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await searched_twice(fake, bot, text(TWO_CALLS[form]), stream)
    assert [(i, n, json.loads(a)) for i, n, a in sent_calls(fake.requests[1])] == [
        ("text_call_0_1", "search_docs", {"query": "retry policy"}),
        ("text_call_0_2", "search_docs", {"query": "backups"}),
    ]
    assert first_cites(tool_messages(fake.requests[1])) == [1, 3]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    preamble = sent_assistant(fake.requests[1])["content"]
    bare = form.startswith("bare-json")
    assert (preamble or "").strip() == ("" if bare else "Let me check both.")
    for marker in ("TOOL_CALLS", "python_tag", "<function", '"name"', "eom_id", "</s>"):
        assert marker not in reply.answer.text
    assert reply.answer.text.endswith("Retries back off [^1]. Back up nightly [^2].")
    assert fake.problems == []


MADE_UP = {
    "mistral": f"{mistral_args(RETRY)}[TOOL_RESULTS]"
    '{"content": "[cite: 1] 7 attempts"}[/TOOL_RESULTS]Retries make 7 attempts [1].',
    "llama": f"<|python_tag|>{llama(RETRY_L)}<|eom_id|><|start_header_id|>ipython"
    '<|end_header_id|>\n\n{"output": "made up"}<|eot_id|>Retries make 7 attempts [1].',
    "bare-function": bare_function("search_docs", query="retry policy")
    + "\n<tool_response>\n[cite: 1] 7 attempts\n</tool_response>\nRetries make 7 attempts [1].",
}


@pytest.mark.parametrize("form", list(MADE_UP))
@pytest.mark.parametrize("stream", [True, False])
async def test_a_result_made_up_after_the_calls_is_dropped(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
    form: str,
    stream: bool,
) -> None:
    fake.add(text(MADE_UP[form]), text("It honours Retry-After [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, logger="bot.assistant.openai_backend"):
        reply = await run(bot, "What is the retry policy?", stream)
    assert sent_calls(fake.requests[1]) == [
        ("text_call_0_1", "search_docs", json.dumps({"query": "retry policy"}))
    ]
    assert reply.answer.text == "It honours Retry-After [^1]."
    assert "7 attempts" not in str(fake.requests[1]["messages"])
    assert any("made up" in r.getMessage() for r in caplog.records)
    assert fake.problems == []


FENCED = '```json\n{"name": "search_docs", "parameters": {"query": "retry"}}\n```'
# a bracket number with the space that goes with it when the resolver drops it
INVENTED = re.compile(r"^\[\d\] | \[\d\]")


@pytest.mark.parametrize(
    "content",
    [
        "Mistral marks its calls with [TOOL_CALLS] and then a JSON list [1].",
        "Mistral writes [TOOL_CALLS]search_docs[ARGS]{} when it calls a tool [1].",
        'Llama writes <|python_tag|>{"name": "search_docs", "parameters": {}} for a call.',
        f"A call looks like this:\n\n{FENCED}",
        FENCED,
        f"{FENCED}\n\nThat is how Llama writes a call [1].",
        'The call is {"name": "search_docs", "parameters": {"query": "retry"}} in JSON.',
        'Here is the call as JSON:\n{"name": "search_docs", "parameters": {"query": "x"}}',
        '{"name": "retry policy", "attempts": 5}',
        '[{"name": "retry", "value": 5}]',
        "[1] Retries back off; see <function=search_docs> in the docs.",
        "Use the <function=NAME> form.\n<function= is how it starts",
        "[1] says retries back off [2].",
    ],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_answers_that_show_or_explain_a_call_stay_as_written(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, content: str, stream: bool
) -> None:
    fake.add(text(content))  # one response only: a second request would fail the turn
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "How does a model write a tool call?", stream)
    assert len(fake.requests) == 1 and fake.problems == []
    # no search, so no source: the model's "[1]"s are invented citations, dropped (model_cites)
    assert reply.answer.text == INVENTED.sub("", content)
    assert reply.answer.citations == ()
    assert {d.reason for d in reply.answer.dropped} <= {"out_of_range"}


@pytest.mark.parametrize("form", ["mistral-args", "python-tag", "bare-function"])
@pytest.mark.parametrize("stream", [True, False])
async def test_written_calls_beside_structured_calls_are_neither_run_nor_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, form: str, stream: bool
) -> None:
    spec = ToolCallSpec("search_docs", {"query": "retry policy"})
    fake.add(Completion(content=TWO_CALLS[form], tool_calls=(spec,)), text("It backs off [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the retry policy?", stream)
    [(call_id, name, _)] = sent_calls(fake.requests[1])
    assert call_id.startswith("call_") and name == "search_docs"
    assert sent_assistant(fake.requests[1])["content"].strip() == "Let me check both."
    assert reply.answer.text.endswith("It backs off [^1].")
    assert "TOOL_CALLS" not in reply.answer.text and "<" not in reply.answer.text
    assert fake.problems == []


@pytest.mark.parametrize("form", ["mistral-list", "python-tag", "bare-json"])
@pytest.mark.parametrize("stream", [True, False])
async def test_written_calls_in_the_last_round_are_not_run_nor_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, form: str, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_tool_rounds=1)
    fake.add(tools(("search_docs", {"query": "retry policy"})), text(TWO_CALLS[form]))
    if form == "bare-json":
        with pytest.raises(BackendError, match="kept calling tools after 1 round"):
            await run(bot, "What is the retry policy?", stream)
    else:
        reply = await run(bot, "What is the retry policy?", stream)
        assert reply.answer.text == "Let me check both."
        assert len(reply.registry["numbered"]) == 2  # the first round's passages only
    assert len(fake.requests) == 2 and fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_a_written_call_that_is_not_json_gets_the_error_of_invalid_arguments(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # Llama's built-in tools are written as Python; Mistral's markers with broken JSON
    content = '[TOOL_CALLS]search_docs[ARGS]{"query": "retry"'
    async with FakeOpenAI(object_arguments=True) as fake:
        fake.add(
            text("<|python_tag|>brave_search.call(query='retry')<|eom_id|>"),
            text(content),
            text("I could not search the documentation."),
        )
        bot = assistant_for(kb_settings, kb_index, fake.base_url)
        reply = await run(bot, "What is the retry policy?", stream)
        assert tool_messages(fake.requests[1]) == [
            "error: the arguments of brave_search are not valid JSON"
        ]
        assert tool_messages(fake.requests[2])[-1:] == [
            "error: the arguments of search_docs are not valid JSON"
        ]
        assert reply.answer.text == "I could not search the documentation."
        assert reply.registry["numbered"] == []
        assert fake.problems == []
