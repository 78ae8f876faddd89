"""The light stemmer: the forms of one word meet, different words stay apart."""

from __future__ import annotations

import pytest

from bot.knowledge.stemmer import strip_possessive
from bot.knowledge.terms import query_terms, stem


@pytest.mark.parametrize(
    "forms",
    [
        # possessives, with either apostrophe, and the plural possessive
        ("document", "document's", "document’s", "documents", "documents'"),
        ("user", "users", "user's", "users'", "users’"),
        # -e / -es / -ed / -ing
        ("approve", "approves", "approved", "approving"),
        ("use", "uses", "used", "using"),
        ("change", "changes", "changed", "changing"),
        ("make", "makes", "making"),
        ("release", "releases", "released", "releasing"),
        ("store", "stores", "stored", "storing"),
        ("configure", "configures", "configured", "configuring", "configuration"),
        ("close", "closes", "closed", "closing"),
        ("type", "types", "typed", "typing"),
        ("create", "creates", "created", "creating"),
        # a doubled consonant, and words that end in one
        ("run", "runs", "running"),
        ("plan", "plans", "planned", "planning"),
        ("install", "installs", "installed", "installing"),
        ("add", "adds", "added", "adding"),
        # -ss, -x, -ies
        ("class", "classes"),
        ("process", "processes", "processed"),
        ("box", "boxes"),
        ("apply", "applies", "applied", "applying"),
        # "-eed" words are not "-ed" forms
        ("need", "needs", "needed"),
        ("speed", "speeds"),
        ("string", "strings"),
        # a final "e" after no syllable stays
        ("see", "sees", "seeing"),
        ("blue", "blues"),
        ("value", "values", "valued"),
        # "-eed" after a syllable is "-ee" + "d"; a stem of no syllable keeps its "ue"
        ("agree", "agrees", "agreed", "agreeing"),
        ("guarantee", "guarantees", "guaranteed"),
        ("proceed", "proceeds", "proceeding"),
        ("queue", "queues", "queued", "queuing", "queueing"),
        ("glue", "glues", "glued"),
        # Latin singulars in "-us" keep their "s"; an acronym's or a "-u" noun's plural does not
        ("status", "statuses", "status'"),
        ("focus", "focuses", "focused"),
        ("bonus", "bonuses"),
        ("cpu", "cpus"),
        ("sku", "skus"),
        ("menu", "menus"),
        # listed: singulars that end like a plural, short "-es" plurals, "goes", "embed"
        ("bus", "buses", "busses", "bus's"),
        ("gas", "gases"),
        ("alias", "aliases"),
        ("lens", "lenses"),
        ("go", "goes"),
        ("embed", "embeds", "embedded", "embedding"),
    ],
)
def test_the_forms_of_a_word_share_one_stem(forms: tuple[str, ...]) -> None:
    assert {stem(form) for form in forms} == {stem(forms[0])}, {f: stem(f) for f in forms}


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("news", "new"),
        ("bus", "bust"),
        ("is", "as"),
        ("us", "as"),
        ("us", "use"),
        ("us", "using"),
        ("hope", "hop"),
        ("hoping", "hopping"),
        ("note", "not"),
        ("care", "car"),
        ("stare", "starred"),
        ("plan", "plane"),
        ("bus", "bu"),
        ("buses", "fuses"),
        ("is", "i"),
        ("status", "statue"),
        ("need", "ne"),
        ("speed", "sped"),
        ("feed", "fee"),
        ("goes", "toes"),
    ],
)
def test_different_words_keep_different_stems(one: str, other: str) -> None:
    assert stem(one) != stem(other)


@pytest.mark.parametrize(
    "word",
    [
        "is",
        "as",
        "us",
        "2",
        "2024",
        "0x1f",
        "web",
        "東京",
        "ファイル",
        "o'clock",
        "don't",
        "the",
        "blue",
    ],
)
def test_numbers_short_words_and_cjk_terms_are_left_alone(word: str) -> None:
    assert stem(word) == word


def test_possessives_reduce_to_their_word() -> None:
    assert strip_possessive("document's") == "document"
    assert strip_possessive("document’s") == "document"
    assert strip_possessive("users'") == "users"
    assert strip_possessive("don't") == "don't"
    assert strip_possessive("'s") == "'s"


def test_a_question_searches_the_word_of_a_possessive() -> None:
    assert query_terms("What is the document's audience?") == ["document", "audience"]
    assert query_terms("What’s the users’ limit?") == ["users", "limit"]
    # "it's" is "it", a stop word
    assert query_terms("it's the kettle's lid") == ["kettle", "lid"]
    # a compound and a version are read as before
    assert query_terms("web.file_roots in 2.4.1") == ["web", "file", "roots", "2", "4", "1"]
