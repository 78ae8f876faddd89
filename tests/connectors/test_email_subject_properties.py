"""Property tests for the mail rules added with small talk: a subject's prefixes
(bot/connectors/email_subject.py), bodies of only pleasantries or only thanks, and the subject
of an automatic reply (bot/connectors/email_policy.py).

Any text: no exception; a question mark keeps a body a question; the auto-reply subject rule
matches only a subject that starts with one of its phrases (after bracketed tags).
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.email_policy import _AUTO_REPLY_SUBJECT
from bot.connectors.email_subject import (
    asks_subject,
    only_pleasantries,
    only_thanks,
    quotes_history,
    subject_question,
)

_LINES = st.sampled_from(
    [
        "Hi,", "Hello team", "Dear support team,", "Thanks,", "Thanks, Anna", "Anna", "Anna Smith",
        "Best regards", "Mit freundlichen Grüßen", "see subject", "siehe Betreff", "Got it",
        "Great, thank you!", "ACME Corp", "+49 30 1234", "how do I install it", "question",
        "> quoted", "On Mon, Anna wrote:", "", " ", "Re: x", "?", "Cheers", "se ämne", "br",
    ]
)  # fmt: skip
_BODY = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(_LINES, st.text(max_size=12)), max_size=12).map("\n".join),
)
_NAME = st.one_of(st.just(""), st.just("Anna Smith"), st.text(max_size=20))


@given(_BODY, _NAME)
def test_body_rules_take_any_text(body: str, name: str) -> None:
    pleasantries = only_pleasantries(body, name)
    thanks = only_thanks(body, name)
    assert isinstance(pleasantries, bool) and isinstance(thanks, bool)
    assert isinstance(asks_subject(body, name, body, None), bool)
    assert isinstance(quotes_history(body, body), bool)


@given(_BODY, _BODY, _NAME)
def test_a_question_mark_keeps_a_body_a_question(before: str, after: str, name: str) -> None:
    for mark in ("?", "\uff1f"):
        body = f"{before}{mark}{after}"
        assert not only_pleasantries(body, name)
        assert not only_thanks(body, name)


@given(st.text(max_size=200))
def test_subject_question_is_idempotent_and_a_suffix(subject: str) -> None:
    question = subject_question(subject)
    assert subject_question(question) == question
    assert question in subject


_PREFIXES = st.sampled_from(["Re:", "RE :", "AW: ", "Fwd:", "SV:", "Re[2]:", "wg:", "Odp: "])


@given(st.lists(_PREFIXES, max_size=5), st.text(max_size=50))
def test_subject_question_removes_the_prefixes_only(prefixes: list[str], rest: str) -> None:
    subject = " ".join([*prefixes, f"[x] {rest}"])
    assert subject_question(subject) == f"[x] {rest}".strip()


# Every phrase the rule knows, written out (the regex's optional parts expanded).
_PHRASES = tuple(
    phrase.casefold()
    for phrase in (
        "automatic reply", "autoreply", "auto-reply", "auto reply", "automatic response",
        "autoresponse", "auto-response", "auto response", "autoresponder", "out of office",
        "out of the office", "abwesenheitsnotiz", "automatische antwort",
        "ich bin nicht im büro", "réponse automatique", "respuesta automática",
        "risposta automatica", "automatisch antwoord", "resposta automática",
        "automatiskt svar", "autosvar", "odpowiedź automatyczna", "自动回复", "自動回覆",
        "自動応答", "自動返信", "자동 회신", "fuera de la oficina", "fora do escritório",
        "absent du bureau", "poza biurem",
    )
)  # fmt: skip
_TAGS = re.compile(r"^\s*(?:\[[^\]]{1,30}\]\s*)*")
_SUBJECT_PIECES = st.sampled_from(
    [*_PHRASES, "Automatic Reply", "OUT OF OFFICE", ":", "：", " ", "[EXT]", "[", "]", "Re:",
     "How do I set up an ", "?", "!", ".", "\t", "x"]
)  # fmt: skip
_SUBJECTS = st.one_of(st.text(max_size=80), st.lists(_SUBJECT_PIECES, max_size=8).map("".join))


@given(_SUBJECTS)
def test_an_auto_reply_subject_starts_with_a_phrase(subject: str) -> None:
    if _AUTO_REPLY_SUBJECT.match(subject):
        start = _TAGS.sub("", subject, count=1).casefold()
        assert start.startswith(_PHRASES), subject


@given(st.sampled_from(_PHRASES), st.text(min_size=1, max_size=40))
def test_a_phrase_inside_a_subject_is_no_auto_reply(phrase: str, before: str) -> None:
    subject = f"{before} {phrase}: x"
    if not _TAGS.sub("", subject, count=1).casefold().startswith(_PHRASES):
        assert _AUTO_REPLY_SUBJECT.match(subject) is None


@given(st.lists(_LINES, max_size=8).map("\n".join), _NAME)
def test_a_body_that_only_thanks_holds_only_pleasantries(body: str, name: str) -> None:
    if only_thanks(body, name):
        assert only_pleasantries(body, name)
