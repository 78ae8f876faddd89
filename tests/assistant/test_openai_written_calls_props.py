"""Properties of reading calls written in Mistral's, Llama's and the bare ``<function=`` form:
no text crashes the reader, how the text is chunked changes nothing, and a call that is read
is never shown, whatever its arguments hold and whatever prose comes before it."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.assistant.openai_written_calls import written_calls
from tests.assistant.step_reading import chunked, read

FRAGMENTS = [
    "[TOOL_CALLS]",
    "[TOOL_",
    "[ARGS]",
    "[CALL_ID]abc123def",
    "[TOOL_RESULTS]",
    "<|python_tag|>",
    "<|python",
    "<|eom_id|>",
    "<|start_header_id|>ipython<|end_header_id|>",
    "</s>",
    "<function=search_docs>",
    "<parameter=query>",
    "</parameter>",
    "</function>",
    "<function=",
    "<tool_call>",
    "<tool_response>",
    "search_docs",
    '{"query": "retry"}',
    '{"name": "search_docs", "parameters": {"query": "x"}}',
    '[{"name": "search_docs", "arguments": {"query": "x"}}]',
    '{"name": "search_docs", "arguments": {"query": "[TOOL_CALLS]"}}',
    '{"query": "re',
    "{",
    "}",
    "[",
    "]",
    ";",
    "```json",
    "```",
    "Answer [1].",
    "made up",
    "\n",
    "\n\n",
    " ",
]


@given(parts=st.lists(st.sampled_from(FRAGMENTS), max_size=20), data=st.data())
def test_no_text_crashes_the_reader_or_depends_on_chunking(
    parts: list[str], data: st.DataObject
) -> None:
    sample = "".join(parts)
    shown, calls = read(chunked(sample, data))
    assert (shown, calls) == read([sample])
    assert [i for i, _, _ in calls] == [f"text_call_0_{n}" for n in range(1, len(calls) + 1)]
    # nothing shown still ends with a call in these forms: it was read, or left out
    assert written_calls(shown, whole=False) is None


PROSE = st.lists(
    st.sampled_from(
        [
            "Let me check.",
            "Mistral writes [TOOL_CALLS] first.",
            'It looks like {"name": 1}.',
            "See <function= in a sentence.",
            "[1] says so",
            "\n",
            " ",
        ]
    ),
    min_size=1,
    max_size=6,
).map("".join)


def mistral_list(query: str) -> str:
    return "[TOOL_CALLS]" + json.dumps([{"name": "search_docs", "arguments": {"query": query}}])


def mistral_args(query: str) -> str:
    return "[TOOL_CALLS]search_docs[ARGS]" + json.dumps({"query": query})


def python_tag(query: str) -> str:
    return "\n<|python_tag|>" + json.dumps({"name": "search_docs", "parameters": {"query": query}})


def bare_function(query: str) -> str:
    # the template puts a value on lines of its own; a tag inside one would be markup
    return f"\n<function=search_docs>\n<parameter=query>\n{plain(query)}\n</parameter>\n</function>"


def plain(query: str) -> str:
    return query.replace("<", "")


@given(
    prose=PROSE,
    form=st.sampled_from([mistral_list, mistral_args, python_tag, bare_function]),
    query=st.text(max_size=30),
    after=st.sampled_from(
        ["", "\n", "</s>", "[TOOL_RESULTS]made up [1]", "\n<tool_response>\nmade up"]
    ),
    data=st.data(),
)
def test_a_call_after_any_prose_is_read_and_not_shown(
    prose: str, form: Callable[[str], str], query: str, after: str, data: st.DataObject
) -> None:
    sample = f"{prose}{form(query)}{after}"
    shown, calls = read(chunked(sample, data))
    assert (shown, calls) == read([sample])
    [(call_id, name, arguments)] = calls
    assert (call_id, name) == ("text_call_0_1", "search_docs")
    value = plain(query) if form is bare_function else query
    assert json.loads(arguments) == {"query": value}
    assert shown.strip() == prose.strip()
    assert "made up" not in shown


@pytest.mark.parametrize(
    "sample",
    [
        # found by the property above: markup is no function name, and a call of one form
        # after the opening of another must not leave the shown text ending in a call
        "<function=<|python_tag|>\n<|python_tag|>",
        '<|python_tag|>[TOOL_CALLS][{"name": "search_docs", "arguments": {"query": "x"}}]',
        "<|python_tag|>[TOOL_CALLS]",
        # an unclosed <function=> with no parameter before a <tool_call> block was shown, and
        # read alone it was a call
        '<function=search_docs>\n<tool_call>{"query": "retry"}',
        # calls of another form before a <tool_call> block are read with it, first
        '<function=search_docs>\n<parameter=query>\n<tool_call>{"query": "retry"}',
        '<function=search_docs>\n</function>\n<tool_call>{"query": "retry"}',
        '<|python_tag|>search_docs\n<tool_call>{"query": "retry"}',
        '[TOOL_CALLS]search_docs{}\n<tool_call>{"query": "retry"}',
    ],
)
def test_what_is_shown_never_ends_in_a_call(sample: str) -> None:
    shown, _ = read([sample])
    assert written_calls(shown, whole=False) is None


def test_a_python_tag_before_another_forms_tag_is_no_call() -> None:
    # found by the property above: "<|python_tag|>[TOOL_CALLS]" was read as a call named ""
    # after a Mistral call, which was then shown as text, raw markup and all
    sample = mistral_list("x") + "\n<|python_tag|>[TOOL_CALLS]"
    shown, calls = read([sample])
    assert calls == []
    assert written_calls(shown, whole=False) is None


def test_an_unclosed_function_tag_with_no_parameter_is_no_call() -> None:
    # found by the property above: the <tool_call> block after it was read, and what was
    # shown before it, "<function=search_docs>", was itself a call
    assert written_calls("<function=search_docs>\n", whole=False) is None
    shown, calls = read(['<function=search_docs>\n<tool_call>{"query": "retry"}'])
    assert (shown, calls) == (
        "<function=search_docs>\n",
        [("text_call_0_1", "", '{"query": "retry"}')],
    )


def test_calls_of_two_forms_that_end_the_text_are_both_read() -> None:
    # a Mistral call before a Llama one was shown as text, and read alone it was a call
    sample = '[TOOL_CALLS]search_docs{}\n<|python_tag|>{"name": "search_docs", "parameters": {}}'
    shown, calls = read([sample])
    assert shown == ""
    assert calls == [("text_call_0_1", "search_docs", "{}"), ("text_call_0_2", "search_docs", "{}")]


def test_calls_after_a_made_up_result_are_dropped_with_it() -> None:
    sample = (
        "[TOOL_CALLS]search_docs{}[TOOL_RESULTS]made up\n"
        '<|python_tag|>{"name": "search_docs", "parameters": {}}'
    )
    shown, calls = read([sample])
    assert (shown, calls) == ("", [("text_call_0_1", "search_docs", "{}")])
