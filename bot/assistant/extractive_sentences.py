"""Sentences of a passage, as the extractive answerer quotes them.

Code blocks are dropped (a sentence that introduces one with a colon can bring it along:
:func:`paragraphs_with_code`), list items and wrapped lines joined, and a paragraph is cut
after each full stop that ends a sentence (not after an abbreviation, nor inside a code span).
Each row of a pipe table is one sentence that names its columns (see
:mod:`bot.assistant.extractive_tables`). The document's own reference marks ("yearly [1].")
are left out of the prose before it is cut (:mod:`bot.reference_marks`): quoted
beside citecast's markers they would read as citations of other sources.
"""

from __future__ import annotations

import re

from bot.assistant.extractive_tables import is_table_line, row_sentences
from bot.code_span_bounds import code_span_bounds
from bot.knowledge.cjk import CJK_RUN, has_cjk
from bot.knowledge.terms import words
from bot.reference_marks import without_reference_marks
from bot.sentence_rules import FULL_STOPS, stop_ends_sentence

# A full stop of Chinese or Japanese (。！？) ends a sentence with no space after it; closing
# quotes, a parenthesis or emphasis after a full stop stay with its sentence (as bot.claims reads
# an answer: 'Press "Save." Then …' is two sentences there, so it must be two here). The full
# stops of other scripts (the Hindi danda ।, the Arabic ؟, the Urdu ۔: bot.sentence_rules) end
# one as a full stop does, and so does the Greek question mark, ";" once normalised, between
# Greek words; a Spanish sentence may open with "¿" or "¡" ("… la compra. ¿Necesita una
# factura?" is two sentences). Whether a "." ends its sentence at all ("Dr.", "am 3. Oktober",
# "J. Smith") is bot.sentence_rules' decision, which bot.claims shares.
_GREEK = "\u0370-\u03ff\u1f00-\u1fff"
_STOPS = f"[{re.escape(FULL_STOPS)}]"
_SENTENCE_END = re.compile(
    rf"(?:(?<={_STOPS})|(?<={_STOPS}[\"'”’»)*_])"
    rf"|(?<={_STOPS}[\"'”’»)*_]{{2}}))\s+(?=[\"'“«(\[`*¿¡]?\w)"
    rf"|(?<=[{_GREEK}];)\s+(?=[\"'“«(]?[\u0386-\u03ab\u1f08-\u1f0f\u1f18-\u1f1d])"
    r"|(?<=[。！？])\s*(?=[「『（\"'(\[`*]?\w)"
)
_FENCED = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.M | re.S)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# where a fenced block stood while the paragraphs are split (no document text holds U+0000)
_HELD = "\x00"
_HELD_BLOCK = re.compile(r"\x00(\d+)\x00")


def sentences_of(text: str) -> list[str]:
    """Prose sentences of a passage: code blocks dropped, list items and lines unwrapped.

    A stub of 12 characters or fewer ("Yes." before the sentence that explains) is left out,
    unless it is the whole paragraph: a short note such as "zebra text" is all its passage says.
    A table's rows follow the paragraph's prose, one sentence each, with their column names.
    """
    return [sentence for paragraph in paragraph_sentences(text) for sentence in paragraph]


def paragraph_sentences(text: str) -> list[list[str]]:
    """The sentences of :func:`sentences_of`, paragraph by paragraph (a paragraph with none,
    such as one that was a code block, is an empty list)."""
    return [sentences for sentences, _ in paragraphs_with_code(text)]


def paragraphs_with_code(text: str) -> list[tuple[list[str], str]]:
    """:func:`paragraph_sentences`, each paragraph with the fenced code block that follows it
    right after its blank lines (as written, fences and all), else "": "write this unit file:"
    means the block under it, and quoted without it the sentence points at nothing."""
    blocks: list[str] = []

    def hold(match: re.Match[str]) -> str:
        blocks.append(match.group(0))
        return f"\n\n{_HELD}{len(blocks) - 1}{_HELD}\n\n"

    if "```" in text or "~~~" in text:
        text = _FENCED.sub(hold, text)
    out: list[tuple[list[str], str]] = []
    for paragraph in re.split(r"\n\s*\n", text):
        held = _HELD_BLOCK.fullmatch(paragraph.strip())
        if held is not None:
            if out and not out[-1][1]:
                out[-1] = (out[-1][0], blocks[int(held.group(1))])
            out.append(([], ""))
            continue
        lines = [_LIST_MARK.sub("", line).strip() for line in paragraph.split("\n")]
        items = [line for line in lines if line and not line.startswith(("|", "#", "    "))]
        pieces = _split_sentences(_prose(items))
        whole = len(pieces) == 1 and bool(words(pieces[0]))
        kept = [s for s in pieces if _length(s) > 12 or whole]
        # a row is not cut at its full stops, nor left out when short: its cells belong together
        out.append((kept + row_sentences([line for line in lines if is_table_line(line)]), ""))
    return out


def _prose(lines: list[str]) -> str:
    """``lines`` joined into one paragraph, without their reference marks (a mark that opens
    a line before text is a label and stays: a bibliography's "[1] Smith, J. …")."""
    starts: list[int] = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    return without_reference_marks(" ".join(lines), starts)


def _length(sentence: str) -> int:
    """Characters of ``sentence``, a CJK character counting twice: "東京は大きい。" says as
    much as a sentence of a dozen Latin letters."""
    if not has_cjk(sentence):
        return len(sentence)
    return len(sentence) + sum(len(run) for run in CJK_RUN.findall(sentence))


def _split_sentences(text: str) -> list[str]:
    """Split after ., ! or ? and a space, but not after an abbreviation, an initial or a
    date's ordinal (:func:`bot.sentence_rules.stop_ends_sentence`), nor inside code."""
    pieces: list[str] = []
    start = 0
    code_spans = code_span_bounds(text)
    for match in _SENTENCE_END.finditer(text):
        cut = match.start()
        if any(a < cut < b for a, b in code_spans) or not stop_ends_sentence(text, cut - 1):
            continue
        pieces.append(text[start:cut].strip())
        start = match.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]
