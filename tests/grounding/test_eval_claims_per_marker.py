"""citecast eval's "claims in source" scores each marker's own clause, as ``verify`` does.

A sentence citing one source per clause was measured as a whole against each source, and
neither holds the whole sentence: eval said "not in source" where live grounding, which checks
each clause against its own source, found both claims backed.
"""

from __future__ import annotations

from bot.evaluation.metrics import answer_metrics
from bot.grounding import verify
from bot.models import Answer, Citation, Source
from bot.support import LexicalScorer

THRESHOLD = 0.35
OUTBOX = Source(
    id="administration.md#7",
    title="Outbox",
    text="The outbox lives in SQLite and keeps every reply until the platform confirms delivery.",
)
SOCKET = Source(
    id="integrations-faq.md#3",
    title="Socket Mode",
    text="Socket Mode opens an outgoing WebSocket to Slack, so no public URL is needed.",
)
ANSWER = Answer(
    "Socket Mode opens an outgoing WebSocket to Slack [^1], and the outbox lives in SQLite [^2].",
    (
        Citation(n=1, source=SOCKET, source_number=1),
        Citation(n=2, source=OUTBOX, source_number=2),
    ),
)


def test_each_clause_is_in_source_in_eval_as_in_live_grounding() -> None:
    live = verify(ANSWER).citations
    assert all(c.support is not None and c.support >= THRESHOLD for c in live)
    scorer = LexicalScorer([SOCKET.text or "", OUTBOX.text or ""])
    metrics = answer_metrics(ANSWER, scorer, THRESHOLD)
    assert metrics.claims_in_source == 1.0
    # ALCE recall and precision stay sentence-level: the sentence is the statement
    assert metrics.recall == 1.0
    (statement,) = metrics.statements
    assert statement.cited == (1, 2)


def test_a_clause_its_source_does_not_hold_is_not_in_source() -> None:
    answer = Answer(
        "Socket Mode opens an outgoing WebSocket to Slack [^1], and the outbox lives in a "
        "Redis cluster with three replicas [^2].",
        ANSWER.citations,
    )
    scorer = LexicalScorer([SOCKET.text or "", OUTBOX.text or ""])
    live = {c.n: c.support for c in verify(answer).citations}
    metrics = answer_metrics(answer, scorer, THRESHOLD)
    in_source = sum(s is not None and s >= THRESHOLD for s in live.values()) / len(live)
    assert metrics.claims_in_source == in_source == 0.5
