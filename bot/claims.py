"""Split a resolved answer into claims: the sentence or clause each ``[^n]`` marker closes.

Grounding (``bot.grounding``) and evaluation (``bot.evaluation``) both read answers this way, so
a claim means the same thing when it is checked and when it is measured.

Rules:
- Code (fenced blocks, indented blocks, code spans) is never a claim and its ``[^n]`` text is
  not a citation; headings, table separators and blank lines are skipped. A code span inside a
  prose sentence is part of its claim, kept verbatim with its backticks (a command is often
  the whole claim); ``sentences`` leaves it out.
- Sentences end at ``.``, ``!`` or ``?`` followed by whitespace, or at the CJK ``。``, ``！``,
  ``？`` (no space follows those), and where the knowledge reader ends them in other scripts
  (:mod:`bot.text_sentences`: the Hindi ``।``, the Arabic ``؟``, the Urdu ``۔``, a Greek ``;``,
  a full stop before ``”’»``); a ``.`` that closes an abbreviation, an initial or a date's
  ordinal (``Dr. Weber``, ``J. Smith``, ``am 3. Oktober``) ends none, by the rule the built-in
  answerer quotes sentences with (:func:`bot.sentence_rules.stop_ends_sentence`); markers
  written after the punctuation, with or without spaces (``Fact.[^1]``, ``Fact. [^1]``,
  ``事実。[^1]``, ``है।[^1]``), belong to the sentence before.
- Inside a sentence, a marker closes the clause since the previous marker group; when that clause
  is too short to be checked on its own (fewer than three content words) it extends back to the
  start of the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.knowledge.document import code_spans
from bot.marker_code_lines import CODE, GOES_ON, RAW, line_kinds
from bot.sentence_rules import SCRIPT_STOPS, stop_ends_sentence
from bot.text_sentences import script_cuts
from bot.text_terms import content_terms, has_cjk_sentence_end

CITATION_RE = re.compile(r"\[\^(\d{1,6})\]")
# Chinese, Japanese and Korean end a sentence at 。！？ (or half-width ｡) with no space after it,
# so there the punctuation alone ends it; closing quotes and brackets stay with the sentence.
# Markers after the punctuation belong to the sentence before, with or without a space between
# ("Fact. [^1] Next."): a model told to cite after each sentence writes both, and a sentence
# never opens with its citation.
_END_MARKERS = r"((?:[ \t]*\[\^\d{1,6}\])*)"
_SENTENCE_END_RE = re.compile(r"[.!?][\"')\]*_]*" + _END_MARKERS + r"(?=\s|$)")
_CJK_SENTENCE_END_RE = re.compile(
    _SENTENCE_END_RE.pattern + r"|[。！？｡][」』）〕】\"'”’)\]*_]*" + _END_MARKERS
)
_MARKERS_AT_RE = re.compile(r"(?:[ \t]*\[\^\d{1,6}\])*")
_LIST_PREFIX_RE = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+")
# a code span closes only at a backtick run of exactly its opening length
_MIN_CLAUSE_TERMS = 3
# Emphasis markers, not the text they mark: a ``*`` run anywhere (CommonMark lets it emphasise
# inside a word), an ``_`` run only where a word does not go on at both ends of it, since
# CommonMark reads ``price_usd`` and ``snake__case`` as literal text. Stripping those made
# "priceusd", a word no passage holds, and cost the claim its support.
_EMPHASIS_RE = re.compile(r"\*+|(?<!\w)_++|_++(?!\w)")
_MARKER_GROUP_RE = re.compile(r"(?:\[\^\d{1,6}\])+")
_LINK_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SPACES_RE = re.compile(r"\s+")
# (and before the full stops of other scripts: "है [^1]।" reads "है।")
_SPACE_PUNCT_RE = re.compile(rf" ([.,;:!?{SCRIPT_STOPS}])")


@dataclass(frozen=True)
class Claim:
    """One checkable statement and the display numbers of the citations that close it."""

    text: str
    sentence: str
    numbers: tuple[int, ...]
    offset: int
    # where each of ``numbers``' markers starts in the answer text, in the same order
    marks: tuple[int, ...] = ()


@dataclass(frozen=True)
class Sentence:
    """A sentence of the answer (markers removed) and every citation number inside it."""

    text: str
    numbers: tuple[int, ...]
    offset: int


def mask_code(text: str) -> str:
    """``text`` with every code region (fences, indented blocks, spans) blanked to spaces.

    Offsets stay the same, so a ``[^n]`` found in the result is a real citation at that offset
    of the original text. Which lines are code, and which lines go on one paragraph, is the
    resolver's scanner's decision (:func:`bot.marker_code_lines.line_kinds`), so grounding
    reads code where the scanner did; code spans are read within a paragraph, across its line
    ends as mistune reads them (none in an HTML block, which mistune reads raw).
    """
    lines = text.split("\n")
    kinds = line_kinds(text)
    count = len(kinds)
    out: list[str] = []
    at = 0
    while at < count:
        kind = kinds[at]
        line = lines[at]
        at += 1
        if kind == CODE:
            body = line.rstrip("\r")
            out.append(" " * len(body) + line[len(body) :])
            continue
        if kind != RAW and at < count and kinds[at] == GOES_ON:
            start = at - 1
            while at < count and kinds[at] == GOES_ON:
                at += 1
            line = "\n".join(lines[start:at])  # a paragraph's lines: a span may cross them
        if kind == RAW or "`" not in line:  # (most lines: no code span to look for)
            out.append(line)
        else:
            out.append(
                "".join(_blank(piece) if span else piece for span, piece in code_spans(line))
            )
    # (a text ending in "\n" has an empty last piece and no line of it)
    out += lines[len(kinds) :]
    return "\n".join(out)


def _blank(code: str) -> str:
    """A code span's text as spaces, its line ends kept (so the lines keep their offsets)."""
    if "\n" not in code:  # (most spans: one line)
        return " " * len(code)
    return re.sub(r"[^\r\n]", " ", code)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The answer's prose lines (code blanked) with their offsets: no headings or rules."""
    out: list[tuple[int, str]] = []
    offset = 0
    for line in mask_code(text).splitlines(keepends=True):
        start = offset
        offset += len(line)
        stripped = line.rstrip("\r\n")
        if not stripped.strip() or stripped.lstrip().startswith("#"):
            continue
        if set(stripped.strip()) <= set("|-: "):
            continue
        out.append((start, stripped))
    return out


def sentences(text: str) -> list[Sentence]:
    """Every prose sentence of the answer, with the citation numbers it contains."""
    return read_answer(text)[1]


def claims(text: str) -> list[Claim]:
    """Each marker group with the clause it closes (see the module rules).

    A code span inside the clause stays in its text, backticks and all: "Run `sudo rm -rf /`"
    claims the command, and a check that saw only "Run" found it in any passage.
    """
    return read_answer(text)[0]


def read_answer(text: str) -> tuple[list[Claim], list[Sentence]]:
    """``(claims(text), sentences(text))`` from one reading of the answer: ``verify`` needs
    both, and read apart the answer was split into sentences, and each cleaned, twice."""
    found: list[Claim] = []
    read: list[Sentence] = []
    for offset, raw in _raw_sentences(text):
        # the same characters with the code spans the masked reading blanked
        spans = text[offset : offset + len(raw)]
        whole = _plain_with_code(raw, spans)
        # (without a code span the sentence's plain text is the claim's whole sentence)
        plain = whole if raw == spans else _plain(raw)
        if plain:
            numbers = tuple(int(n) for n in CITATION_RE.findall(raw))
            read.append(Sentence(plain, numbers, offset))
        found.extend(_sentence_claims(raw, spans, whole, offset))
    return found, read


def _sentence_claims(raw: str, spans: str, whole: str, offset: int) -> list[Claim]:
    """The claims of one sentence (``raw`` masked, ``spans`` as written, at ``offset``)."""
    out: list[Claim] = []
    previous_end = 0
    if "[^" not in raw:  # (no marker group to find)
        return out
    for group in _MARKER_GROUP_RE.finditer(raw):
        start = group.start()
        clause = _plain_with_code(raw[previous_end:start], spans[previous_end:start])
        if len(content_terms(clause)) < _MIN_CLAUSE_TERMS:
            clause = _plain_with_code(raw[:start], spans[:start]) or whole
        found = list(CITATION_RE.finditer(group.group(0)))
        numbers = tuple(int(m.group(1)) for m in found)
        marks = tuple(offset + start + m.start() for m in found)
        out.append(Claim(clause, whole, numbers, offset + start, marks))
        previous_end = group.end()
    return out


def _plain_with_code(masked: str, original: str) -> str:
    """``_plain`` of a chunk, its code spans (blanked in ``masked``) put back verbatim."""
    if masked == original:
        return _plain(masked)
    spans: list[str] = []
    pieces: list[str] = []
    for match in re.finditer(r"\s+|\S+", masked):
        piece = original[match.start() : match.end()]
        core = piece.strip()
        # only code is blanked in a prose line (a list marker is too, but is no code span)
        if match.group(0) == piece or not core.startswith("`"):
            pieces.append(match.group(0))
            continue
        spans.append(" ".join(core.split()))
        lead = piece[: len(piece) - len(piece.lstrip())]
        trail = piece[len(piece.rstrip()) :]
        pieces.append(f"{lead}\x00{len(spans) - 1}\x00{trail}")
    plain = _plain("".join(pieces))
    return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], plain)


def _raw_sentences(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for line_offset, line in prose_lines(text):
        body = _LIST_PREFIX_RE.sub(lambda m: " " * len(m.group(0)), line)
        for cell_start, cell in _cells(body):
            for start, chunk in _split_sentences(cell):
                out.append((line_offset + cell_start + start, chunk))
    return out


def _cells(line: str) -> list[tuple[int, str]]:
    if "|" not in line.strip().strip("|"):
        return [(0, line)]
    cells: list[tuple[int, str]] = []
    position = 0
    for part in line.split("|"):
        if part.strip():
            cells.append((position, part))
        position += len(part) + 1
    return cells


def _split_sentences(line: str) -> list[tuple[int, str]]:
    pieces: list[tuple[int, str]] = []
    start = 0
    # the CJK-aware pattern only where it can matter: English splits as fast as before
    pattern = _CJK_SENTENCE_END_RE if has_cjk_sentence_end(line) else _SENTENCE_END_RE
    # (a stop before markers ends its sentence: "Dr. [^1]" is no title before a name)
    ends = [
        match.end()
        for match in pattern.finditer(line)
        if any(match.groups()) or stop_ends_sentence(line, match.start())
    ]
    if not line.isascii():
        ends = sorted(set(ends).union(_script_ends(line)))
    for end in ends:
        if line[start:end].strip():
            pieces.append((start, line[start:end]))
        start = end
    if line[start:].strip():
        pieces.append((start, line[start:]))
    return pieces


def _script_ends(line: str) -> list[int]:
    """Where the sentences of ``line`` end at a danda, ``؟``, a Greek ``;`` or a closing
    ``”’»`` (:func:`bot.text_sentences.script_cuts`), past the markers written after the mark
    ("है।[^1] अगला" ends after the marker, which belongs to the sentence before)."""
    masked = CITATION_RE.sub(lambda m: " " * len(m.group(0)), line) if "[^" in line else line
    ends: list[int] = []
    for end, _ in script_cuts(masked):
        markers = _MARKERS_AT_RE.match(line, end)
        ends.append(markers.end() if markers else end)
    return ends


def _plain(chunk: str) -> str:
    # (each pattern only where it can match: this runs for every clause of every answer)
    text = CITATION_RE.sub("", chunk) if "[^" in chunk else chunk
    if "](" in text:
        text = _LINK_RE.sub(r"\1", text)  # [label](url) -> label
    if "*" in text or "_" in text:
        text = _EMPHASIS_RE.sub("", text)
    text = _SPACES_RE.sub(" ", text)
    text = _SPACE_PUNCT_RE.sub(r"\1", text)
    return text.strip().lstrip(",;: ").strip()
