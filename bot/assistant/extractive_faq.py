"""Questions a document asks itself, as in a FAQ written without question headings.

A FAQ's question is often a plain line ("Can I bring my dog to work?" with its answer on the
next line), a bold line ("**How do I reset my VPN token?**") or an HTML ``<summary>`` (a
paragraph of its own, its answer the next one). Such a question line holds every word of the
user's question and would be quoted as its own answer ("Can I bring my dog to work [1]?"). So a
sentence of a document that ends with a question mark is never quoted (:func:`read_sentences`
marks it ``asks``), and the sentences that answer it take its words as a heading's: the rest of
its paragraph, or the next paragraph when the question is the last sentence of its own (a
``<summary>``, a question line followed by a blank line). Consecutive question lines ("Can I
park here? Is it free?") frame one answer together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from bot.assistant.extractive_sentences import paragraphs_with_code

# a question mark at the end, perhaps before closing emphasis or a bracket ("**… token?**");
# not before a closing quote: 'Try asking "What is citecast?"' quotes a question, asks none
# the Arabic "؟" too, and the Greek question mark (";" once normalised) after a Greek word
_ASKS = re.compile(r"(?:[?？\u061f]|(?<=[\u0370-\u03ff\u1f00-\u1fff]);)[\s*_)\]]*$")


@dataclass(frozen=True)
class ReadSentence:
    """A sentence of a passage, whether it is a question the document asks (``asks``), and
    the question lines it answers (``question``, empty for most sentences)."""

    text: str
    asks: bool
    question: str
    # the fenced block the sentence introduces ("… as shown:" right above it), else ""
    code: str = ""


def asks(sentence: str) -> bool:
    """Whether ``sentence`` is a question (it ends with a question mark, perhaps in bold)."""
    return bool(_ASKS.search(sentence)) and bool(re.search(r"\w", sentence))


def read_sentences(text: str) -> list[ReadSentence]:
    """The sentences of a passage (as :func:`bot.assistant.extractive_sentences.sentences_of`
    cuts them, in the same order), each with the question lines it answers."""
    out: list[ReadSentence] = []
    question = ""
    for paragraph, code in paragraphs_with_code(text):
        read = _answered(paragraph, question)
        if code and read and read[-1].text.endswith(":") and not read[-1].asks:
            read[-1] = replace(read[-1], code=code)
        out.extend(read)
        # an answer ends with its paragraph; a question that ends one is answered by the next
        question = _trailing_question(paragraph) if paragraph else question
    return out


def _answered(paragraph: Sequence[str], question: str) -> list[ReadSentence]:
    out: list[ReadSentence] = []
    asking = False
    for sentence in paragraph:
        if asks(sentence):
            question = f"{question} {sentence}".strip() if asking else sentence
            asking = True
            out.append(ReadSentence(sentence, True, ""))
        else:
            asking = False
            out.append(ReadSentence(sentence, False, question))
    return out


def _trailing_question(paragraph: Sequence[str]) -> str:
    """The question lines that end ``paragraph`` (nothing after them answers them), else ""."""
    lines: list[str] = []
    for sentence in reversed(paragraph):
        if not asks(sentence):
            break
        lines.insert(0, sentence)
    return " ".join(lines)


class _Asking(Protocol):
    @property
    def asks(self) -> bool: ...


def unasked(group: list[int] | None, candidates: Sequence[_Asking]) -> list[int] | None:
    """The sentences a sentence is quoted with (its ``group``, in reading order and ending with
    it: see :func:`bot.assistant.extractive_precision.read_with`), from after the last question
    line among them: "It costs 5 EUR" after "What does it cost?" points back to the question,
    which frames it and is not quoted. None when the sentence is a question line itself."""
    if group is None or candidates[group[-1]].asks:
        return None
    after = [n for n, i in enumerate(group) if candidates[i].asks]
    return group[after[-1] + 1 :] if after else group
