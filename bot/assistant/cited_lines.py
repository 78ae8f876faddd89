"""Lines of an extractive answer: document text that can never become a marker, plus its own.

Document text is quoted into the answer, which the resolver then reads for markers; so every
``[``, ``]``, ``<`` and backtick outside code spans is escaped, and the one marker a line carries
is the ``[n]`` written here. Code spans are the ones CommonMark reads (``code_spans``): a
backtick escaped with a backslash opens none.
"""

from __future__ import annotations

import re

from bot.knowledge.document import code_spans
from bot.sentence_rules import SCRIPT_STOPS

# what may close a sentence after its full stop: quotes, a parenthesis, emphasis
_CLOSERS = "\"'”’»)*_"
_GREEK_END = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]$")


def escape_markers(text: str) -> str:
    """Escape ``[``, ``]``, ``<`` and backticks outside code spans so document text is never a
    marker, and the code spans of the result are the document's own."""
    return "".join(piece if is_code else _escape(piece) for is_code, piece in code_spans(text))


def _escape(text: str) -> str:
    # Backslashes are doubled, so an escaped backtick of the document ("\\`") would come out
    # live ("\\\\`") and pair with a backtick further on, hiding an "[n]" or turning quoted
    # text into code: a backtick outside code spans is escaped like a bracket.
    for char in "\\[]<`":
        text = text.replace(char, "\\" + char)
    return text


def with_marker(sentence: str, number: int) -> str:
    """``sentence`` with `` [n]`` before its final punctuation (a period added if none; a
    Chinese or Japanese full stop keeps its place, with ``[n]`` right before it). An end that
    is more than one mark (``...``, ``?!``), inside closing quotes, a parenthesis or emphasis
    (``Click "Save."``) or closes a Spanish ``¡…!`` / ``¿…?`` is kept as written, with ``[n]``
    right after it."""
    body = escape_markers(sentence.rstrip())
    if body and body[-1] in "。！？":
        # Chinese and Japanese put no space before a note mark: "…です[1]。"
        return f"{body[:-1].rstrip()}[{number}]{body[-1]}"
    core = body.rstrip(_CLOSERS)
    ends = len(core) - len(core.rstrip(".!?…"))
    # Spanish encloses a question or an exclamation in a pair ("¡Gracias por su paciencia!"):
    # the marker goes after the pair, never inside it
    paired = core[-1:] in ("!", "?") and {"!": "¡", "?": "¿"}[core[-1]] in core
    if ends and (ends > 1 or core != body or paired):
        # moving or adding a mark would change the quoted text ("Save.".) or repeat its end;
        # with no space, the marker stays with this sentence (bot.claims), not the next
        return f"{body}[{number}]"
    end = ""
    if body and body[-1] in ".!?:;" + SCRIPT_STOPS:
        body, end = body[:-1].rstrip(), body[-1]
    # other scripts' stops (the Hindi danda, the Arabic question mark, the Urdu full stop …)
    # stay as written, and so does a Greek question mark (";" after a Greek word)
    if (end == ";" and not _GREEK_END.search(body)) or end == ":" or not end:
        end = "."
    return f"{body} [{number}]{end}"


def with_code(line: str, code: str) -> str:
    """A cited ``line`` (:func:`with_marker`) and the fenced ``code`` block its sentence
    introduces, the sentence's colon kept: "… as shown [1]:" and the block under it."""
    if line.endswith("."):
        line = line[:-1] + ":"
    return f"{line}\n\n{code.strip()}\n"


def joiner(previous: str, line: str) -> str:
    """What goes between two lines: items of one list break lines, a list ends with a blank
    line, sentences share a paragraph (a CJK one after a CJK full stop with no space)."""
    if previous.endswith("\n"):
        return "\n"  # after a code block (with_code): the next sentence is a new paragraph
    items = previous.startswith("- "), line.startswith("- ")
    if all(items):
        return "\n"
    if any(items):
        return "\n\n"
    # Chinese and Japanese run sentences on with no space after their full stop, also before
    # one that opens with a number or a Latin word ("…です[1]。5000円…")
    return "" if previous.endswith(("。", "！", "？")) else " "
