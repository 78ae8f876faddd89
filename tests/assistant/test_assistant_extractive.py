"""The default, model-free backend: cited sentences from the sample knowledge base."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.assistant.assistant import Assistant
from bot.assistant.base import Reply
from bot.assistant.cited_lines import escape_markers, with_marker
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_sentences import sentences_of
from bot.assistant.extractive_small_talk import small_talk_reply
from bot.config import Settings
from bot.config_file import load_settings
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex
from bot.models import Answer, CitationAdded, Exchange, TextDelta
from tests.assistant.conftest import ROOT

PUBLIC = frozenset({"public"})
MARKED_END = re.compile(r"(?:\[\^\d+\])+[.!?]")


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


def every_sentence_is_cited(answer: Answer) -> bool:
    """The answer is a run of sentences that each end with markers and punctuation."""
    *sentences, tail = MARKED_END.split(answer.text.strip())
    return bool(sentences) and tail == "" and all(s.strip() for s in sentences)


async def test_install_question_gets_cited_install_sentences(assistant: Assistant) -> None:
    answer = await assistant.answer("How do I install citecast?", PUBLIC)
    assert "`pip install citecast`" in answer.text
    assert answer.citations and every_sentence_is_cited(answer)
    assert answer.citations[0].source.filename == "getting-started.md"
    assert "Install" in (answer.citations[0].source.section or "")
    assert [c.n for c in answer.citations] == list(range(1, len(answer.citations) + 1))
    assert not answer.dropped


async def test_a_question_naming_a_section_topic_leads_with_that_section(
    assistant: Assistant,
) -> None:
    answer = await assistant.answer("How do I install citecast on Linux?", PUBLIC)
    assert answer.text.startswith("On Debian and Ubuntu, install the `python3-venv` package")
    assert answer.citations[0].source.section == "Getting started with citecast > Install > Linux"
    assert every_sentence_is_cited(answer)
    mac = await assistant.answer("How do I install citecast on macOS?", PUBLIC)
    assert mac.citations[0].source.section == "Getting started with citecast > Install > macOS"


async def test_a_sibling_section_on_another_topic_is_not_borrowed(assistant: Assistant) -> None:
    # "connect citecast to Slack?" shares two of the three words, and its page names Discord
    answer = await assistant.answer("How do I connect citecast to Discord?", PUBLIC)
    sections = {c.source.section for c in answer.citations}
    assert sections == {
        "Slack and Discord integration FAQ > Discord > How do I connect citecast to Discord?"
    }
    assert "Discord developer portal" in answer.text and "Slack app" not in answer.text
    assert every_sentence_is_cited(answer)


async def test_a_subsection_question_also_gets_the_steps_of_its_parent_section(
    assistant: Assistant,
) -> None:
    # "Install > Linux" only adds to what "Install" says: the install step used to be left
    # out (its heading names "install", not "linux") and the macOS sibling's text came instead
    answer = await assistant.answer("How do I install citecast on Linux?", PUBLIC)
    assert answer.text.startswith("On Debian and Ubuntu, install the `python3-venv` package")
    assert "`pip install citecast`" in answer.text and "`make serve`" in answer.text
    assert "Homebrew" not in answer.text
    assert [c.source.section for c in answer.citations] == [
        "Getting started with citecast > Install > Linux",
        "Getting started with citecast > Install",
    ]
    assert every_sentence_is_cited(answer)
    mac = await assistant.answer("How do I install citecast on macOS?", PUBLIC)
    assert mac.text.startswith("On macOS, install Python 3.11")
    assert "`pip install citecast`" in mac.text and "python3-venv" not in mac.text


async def test_retry_policy_question_cites_the_retry_policy_section(assistant: Assistant) -> None:
    answer = await assistant.answer("What does the retry policy do?", PUBLIC)
    first = answer.citations[0].source
    assert first.section == "Administration guide > Delivery and retries > Retry policy"
    assert "Retry-After" in answer.text and "exponential backoff" in answer.text
    assert every_sentence_is_cited(answer)


async def test_pdf_answer_cites_the_page(assistant: Assistant) -> None:
    answer = await assistant.answer("How often should I back up the store?", PUBLIC)
    pdf = [c.source for c in answer.citations if c.source.filename == "operations-handbook.pdf"]
    assert pdf and pdf[0].page == 2


async def test_nothing_relevant_says_so_and_cites_nothing(assistant: Assistant) -> None:
    for question in ("What is the capital of France?", "zxqv plorb", "", "???"):
        answer = await assistant.answer(question, PUBLIC)
        assert answer.text == NOT_FOUND and answer.citations == ()


async def test_sharing_only_the_common_word_is_not_finding_the_answer(
    assistant: Assistant,
) -> None:
    # "citecast" is in most sentences of any passage found; the rest of the question is not
    # in the knowledge base, so the install guide that answered these before is not an answer
    for question in ("What does citecast cost?", "Who wrote citecast?"):
        answer = await assistant.answer(question, PUBLIC)
        assert answer.text == NOT_FOUND and answer.citations == ()
    # a specific word found is enough for half the question ("data" is only in markup)
    stored = await assistant.answer("Where is the data stored?", PUBLIC)
    assert stored.citations and every_sentence_is_cited(stored)


async def test_private_documents_only_reach_their_audience(assistant: Assistant) -> None:
    public = await assistant.answer("What is the walrus salary band?", PUBLIC)
    assert public.text == NOT_FOUND
    staff = await assistant.answer("What is the walrus salary band?", frozenset({"staff"}))
    assert [c.source.filename for c in staff.citations] == ["salaries.md"]
    assert "confidential" in staff.text


async def test_a_group_viewer_also_gets_public_documents(assistant: Assistant) -> None:
    reply = await assistant.reply("How do I install citecast?", frozenset({"staff"}))
    assert reply.answer.citations[0].source.filename == "getting-started.md"
    assert reply.registry["audience"] == ["public", "staff"]


FAQ = "Web, email and Discourse FAQ"


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("How do I connect citecast to email?",
         f"{FAQ} > Email > How do I connect citecast to email?"),
        ("How do I connect citecast to Discourse?",
         f"{FAQ} > Discourse > How do I connect citecast to Discourse?"),
        ("How do I embed the chat in my site?",
         f"{FAQ} > Web chat > How do I embed the chat in my site?"),
        ("Can I use my own LLM?", "Administration guide > Language models > Using your own model"),
        # used to lead with the "Priority support add-on" record ("supported")
        ("Which integrations are supported?", "Slack and Discord integration FAQ"),
        # "own" is a content word: without it "model" alone found the security model page
        ("Can I use my own model?",
         "Administration guide > Language models > Using your own model"),
    ],
)  # fmt: skip
async def test_the_sample_knowledge_base_answers_for_every_channel(
    assistant: Assistant, question: str, section: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.citations[0].source.section == section
    assert every_sentence_is_cited(answer)


async def test_which_python_version_leads_with_the_requirement(assistant: Assistant) -> None:
    # used to lead with "After an upgrade, citecast may refuse an old index" (its heading says
    # "older version"), and the requirement came last
    answer = await assistant.answer("Which Python version do I need?", PUBLIC)
    assert answer.text.startswith("citecast needs Python version 3.11 or newer")


async def test_what_is_asks_for_the_sentence_that_defines_it(assistant: Assistant) -> None:
    # Every sentence mentions citecast; the opening sentence of the guide that is about it wins.
    answer = await assistant.answer("What is citecast?", PUBLIC)
    assert answer.text.startswith("citecast answers questions from your own documents")
    assert answer.citations[0].source.section == "Getting started with citecast"


async def test_a_sentence_pointing_at_a_guide_does_not_lead_the_answer(
    assistant: Assistant,
) -> None:
    # "Read the administration guide to … restrict private documents to an audience" names
    # more of the question's words than the sentences that say how
    answer = await assistant.answer("How do I restrict a document to staff?", PUBLIC)
    assert answer.text.startswith("Each document has an audience")
    assert "`audience: [staff]`" in answer.text.split("[^1]")[1]


async def test_words_of_markup_in_code_are_not_matched(assistant: Assistant) -> None:
    # the widget's `<script … data-citecast>` used to answer a question about data
    answer = await assistant.answer("Where is the data stored?", PUBLIC)
    assert answer.text.startswith("`index.path` sets where the SQLite search index is stored")
    assert "widget" not in answer.text


async def test_how_long_asks_for_a_duration_not_about_length(assistant: Assistant) -> None:
    # "long" used to match "Longer answers are split" in the Discord section
    answer = await assistant.answer("How long do download links last?", PUBLIC)
    assert "expires after one hour" in answer.text
    assert answer.citations[0].source.section == "Security model > Signed file downloads"


async def test_how_does_it_work_is_about_its_subject_not_anything_that_works(
    assistant: Assistant,
) -> None:
    # "work" used to lead with the Linux note that `python3 -m venv` "works"
    answer = await assistant.answer("How do audiences work?", PUBLIC)
    # either guide's own account of audiences leads (the security model's, or the
    # administration guide's "Audience rules", which "audiences" also finds)
    assert answer.text.startswith(
        ("Every source carries an audience", "Each document has an audience")
    )
    assert "python3-venv" not in answer.text


async def test_a_record_named_in_passing_does_not_lead_an_answer_the_docs_give(
    assistant: Assistant,
) -> None:
    # "support" names the "Priority support add-on", but the docs explain every word
    answer = await assistant.answer("Does citecast support email?", PUBLIC)
    assert answer.citations and all(c.source.kind != "record" for c in answer.citations)
    assert "email" in answer.text.split("[^1]")[0]


async def test_stream_and_reply_agree(assistant: Assistant) -> None:
    question = "What does the retry policy do?"
    events = [event async for event in assistant.stream(question, PUBLIC)]
    assert isinstance(events[-1], Reply)
    streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
    added = [e.citation.n for e in events if isinstance(e, CitationAdded)]
    reply = await assistant.reply(question, PUBLIC)
    assert events[-1].answer == reply.answer
    assert streamed == reply.answer.text
    assert added == [c.n for c in reply.answer.citations]
    assert reply.registry["audience"] == ["public"]


async def test_follow_up_borrows_the_previous_question(assistant: Assistant) -> None:
    history = [Exchange("How do I install citecast?", "Use pip [^1].")]
    answer = await assistant.answer("And on macOS?", PUBLIC, history)
    assert any("macOS" in (c.source.section or "") for c in answer.citations)


def test_document_text_never_becomes_a_marker() -> None:
    assert escape_markers("see [1] and <CIT 3 /> but `x[1]`") == (
        "see \\[1\\] and \\<CIT 3 /> but `x[1]`"
    )
    assert with_marker("Costs rose in [2023]:", 4) == "Costs rose in \\[2023\\] [4]."
    assert with_marker("Done!", 2) == "Done [2]!"


async def test_bracketed_numbers_in_documents_stay_text(
    kb_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from bot.knowledge import ingest

    base = tmp_path_factory.mktemp("brackets")
    # "items[1]" indexes (a reference mark such as "report [1]" is left out: reference_marks)
    (base / "notes.md").write_text(
        "# Notes\n\nThe ocelot report items[1] was published in [2023].\n"
    )
    settings = kb_settings.model_copy(
        update={"index": kb_settings.index.model_copy(update={"path": str(base / "i.db")})}
    )
    ingest([base / "notes.md"], settings.index)
    answer = await Assistant(settings, settings.index.path).answer("ocelot report", PUBLIC)
    assert [c.n for c in answer.citations] == [1] and not answer.dropped
    assert "\\[2023\\]" in answer.text and "items\\[1\\]" in answer.text


def test_a_short_paragraph_is_a_fragment_but_a_short_stub_is_not() -> None:
    assert sentences_of("zebra text") == ["zebra text"]
    assert sentences_of("# Notes\n\nzebra text\n\nThe quagga text is here.") == [
        "zebra text",
        "The quagga text is here.",
    ]
    # a stub before the sentence that explains it, or a paragraph without a word, is not
    assert sentences_of("Yes. Set `slack.mode: socket` to use it.") == [
        "Set `slack.mode: socket` to use it."
    ]
    assert sentences_of("---\n\n...") == []


async def test_a_short_note_without_a_full_sentence_can_answer(
    kb_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from bot.knowledge import ingest

    base = tmp_path_factory.mktemp("fragments")
    (base / "notes3.md").write_text("# Notes3\n\nzebra text\n")
    (base / "notes4.md").write_text("# Notes4\n\nThe quagga text is here.\n")
    settings = kb_settings.model_copy(
        update={"index": kb_settings.index.model_copy(update={"path": str(base / "i.db")})}
    )
    ingest([base], settings.index)
    assistant = Assistant(settings, settings.index.path)
    for question in ("zebra", "zebra text", "Notes3"):
        answer = await assistant.answer(question, PUBLIC)
        assert answer.text == "zebra text [^1].", question
        assert [c.source.filename for c in answer.citations] == ["notes3.md"]
    quagga = await assistant.answer("quagga", PUBLIC)
    assert [c.source.filename for c in quagga.citations] == ["notes4.md"]


def test_sentences_skip_code_and_unwrap_lists() -> None:
    text = "Intro line\ncontinues here.\n\n```sh\nrm -rf /\n```\n\n- First item is long enough.\n"
    text += "- Second, e.g. this one, too."
    assert sentences_of(text) == [
        "Intro line continues here.",
        "First item is long enough.",
        "Second, e.g. this one, too.",
    ]


async def test_missing_index_is_not_set_up_rather_than_not_found(
    kb_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # nothing at all to answer from: "not found" would blame the documents
    absent = tmp_path_factory.mktemp("none") / "index.db"
    settings = Settings.model_validate({"index": {"path": str(absent)}})
    with pytest.raises(KnowledgeIndexError, match="no knowledge index has been built"):
        await Assistant(settings, absent).answer("How do I install citecast?", PUBLIC)
    # with record tables configured there is something to answer from: not found stands
    answer = await Assistant(kb_settings, absent).answer("How do I install citecast?", PUBLIC)
    assert answer.text == NOT_FOUND and not answer.citations


KB_WORDS = (
    "install",
    "retry",
    "policy",
    "backup",
    "audience",
    "slack",
    "discord",
    "pdf",
    "index",
    "citecast",
    "outbox",
    "signed",
    "links",
    "records",
    "python",
    "macOS",
    "troubleshooting",
    "walrus",
    "what",
    "how",
    "does",
    "the",
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(KB_WORDS) | st.text(max_size=8), max_size=6))
@example(["OK"])  # small talk: answered without sources, and not "could not find"
async def test_any_question_is_either_fully_cited_or_not_found(
    assistant: Assistant, words: list[str]
) -> None:
    question = " ".join(words)
    answer = await assistant.answer(question, PUBLIC)
    if answer.citations:
        assert every_sentence_is_cited(answer)
        assert all(c.source.visible_to(PUBLIC) for c in answer.citations)
    else:
        assert answer.text == (small_talk_reply(question) or NOT_FOUND)
    assert not answer.dropped


async def test_the_suggested_prompts_of_the_shipped_config_are_answered_with_citations(
    assistant: Assistant,
) -> None:
    # make serve shows these on the empty chat: each must answer from the sample knowledge base
    prompts = load_settings(ROOT / "config.yaml").web.suggested_prompts
    assert len(prompts) == 4
    for prompt in prompts:
        answer = await assistant.answer(prompt, PUBLIC)
        assert answer.text != NOT_FOUND and answer.citations, prompt


async def test_reply_closes_its_event_stream_instead_of_leaving_it_to_the_loop(
    assistant: Assistant,
) -> None:
    # An async generator abandoned at a yield is finalized later by a task of the event loop's
    # own; one that outlives the loop is logged as "Task was destroyed but it is pending".
    import sys

    hooks = sys.get_asyncgen_hooks()
    abandoned: list[object] = []
    sys.set_asyncgen_hooks(firstiter=hooks.firstiter, finalizer=abandoned.append)
    try:
        reply = await assistant.reply("How do I install citecast?", frozenset({"public"}))
    finally:
        sys.set_asyncgen_hooks(*hooks)
    assert reply.answer.citations
    assert abandoned == []
