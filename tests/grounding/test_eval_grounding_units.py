"""A number's unit must match the passage's: weeks are not days, gigabytes are not megabytes."""

from __future__ import annotations

import pytest

from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support, hard_checks_pass


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("Share links expire after 30 days.", "Share links expire after 30 weeks."),
        ("Backups are kept for 3 months.", "Backups are kept for 3 years."),
        ("Backups are kept for 3 months.", "Backups are kept for 3 wks."),
        ("Uploads of up to 25 MB are accepted.", "Uploads of up to 25 GB are accepted."),
        ("The index may grow to 2 GB.", "The index may grow to 2 TB."),
        ("Attachments over 512 KB are linked.", "Attachments over 512 MB are linked."),
        ("A message holds at most 4000 bytes.", "A message holds at most 4000 KB."),
        ("The job runs for 6 hours.", "The job runs for 6 days."),
        ("A link expires after one hour.", "Signed links expire after one week."),
        ("Keep Two Days of logs.", "Keep two months of logs."),
    ],
)
def test_a_claim_with_another_unit_is_capped(passage: str, claim: str) -> None:
    # these units were not compared at all, so "30 weeks" passed for "30 days" (score 1.0)
    assert not hard_checks_pass(passage, claim)
    scorer = LexicalScorer([passage, "Unrelated text about the chat widget."])
    assert best_support(scorer, passage, claim).score <= HARD_CHECK_CAP


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("Share links expire after 30 days.", "Share links expire after 30d."),
        ("The job runs for 6 hours.", "The job runs for 6 hrs."),
        ("Backups are kept for 2 years.", "Backups are kept for 2 yrs."),
        ("Uploads of up to 10 MiB are accepted.", "Uploads of up to 10 MB are accepted."),
        ("Uploads of up to 10MB are accepted.", "Uploads of up to 10 megabytes are accepted."),
        ("Backups are kept for 3 weeks.", "Backups are kept for 3 weeks."),
        ("A link expires after one hour.", "Links expire after one hour."),
        ("Retry after a second attempt failed.", "A second attempt follows an hour later."),
    ],
)
def test_the_same_unit_written_another_way_still_passes(passage: str, claim: str) -> None:
    assert hard_checks_pass(passage, claim)
