"""Claims lose Markdown emphasis markers but keep the underscores inside words (CommonMark
reads an intra-word ``_`` as a literal character, so ``price_usd`` is one column name)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.claims import claims, sentences
from bot.grounding import verify
from bot.models import Answer, Citation, Source


def test_intra_word_underscores_stay_in_claims() -> None:
    (claim,) = claims("citecast Team: price_usd: 19; max__retries: 5 [^1].")
    assert claim.text == "citecast Team: price_usd: 19; max__retries: 5"
    (sentence,) = sentences("The snake_case_name key is read first [^1].")
    assert sentence.text == "The snake_case_name key is read first."


def test_emphasis_markers_are_still_stripped() -> None:
    (claim,) = claims("Backups run *nightly* and __never__ pause, _even_ on ***holidays*** [^1].")
    assert claim.text == "Backups run nightly and never pause, even on holidays"
    (claim,) = claims("It is **_really_** fast, un*frigging*believably [^1].")
    assert claim.text == "It is really fast, unfriggingbelievably"


def test_a_column_name_claim_keeps_its_support() -> None:
    team = Source(
        id="products/CC-TEAM",
        kind="record",
        label="citecast Team (CC-TEAM)",
        columns={"price_usd": "19", "seats": "up to 50"},
        text="citecast Team (CC-TEAM). price_usd: 19. seats: up to 50",
    )
    answer = Answer(
        text="citecast Team (CC-TEAM): price_usd: 19; seats: up to 50 [^1].",
        citations=(Citation(n=1, source=team, source_number=1),),
    )
    (citation,) = verify(answer).citations
    assert citation.claim is not None and "price_usd" in citation.claim
    assert citation.support is not None and citation.support >= 0.85


@given(
    st.from_regex(r"[a-z]{1,6}(_{1,2}[a-z]{1,6}){1,3}", fullmatch=True),
    st.sampled_from(["*", "**", "_", "__", "***"]),
)
def test_an_emphasised_identifier_keeps_its_inner_underscores(word: str, mark: str) -> None:
    (claim,) = claims(f"Set the {mark}{word}{mark} key in config.yaml today [^1].")
    assert claim.text == f"Set the {word} key in config.yaml today"
