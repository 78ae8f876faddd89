"""A record whose label is only bidi controls and spaces is named by its title.

Found by the bidi-controls property (it replayed from the example database): a label of
``"\\u202a "`` lost its control and became ``" "``, a blank name for the record and its button,
while the same record without the control was named by its title.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, RecordAction, Source
from renderers import render


@pytest.mark.parametrize("label", ["\u202a ", " ", "\u2066\u2069", "\t"])
def test_a_blank_label_falls_back_to_the_records_title(label: str) -> None:
    source = Source(
        id="products/CC-TEAM",
        title="Team plan",
        kind="record",
        label=label,
        columns={"price": "19"},
        action=RecordAction("See plan", "https://shop.example/team"),
    )
    answer = Answer(
        text="It costs 19.[^1]",
        citations=(Citation(n=1, source=source, source_number=1, columns=("price",)),),
    )
    [citation] = render("web", answer)["citations"]
    assert citation["record"]["label"] == "Team plan"
    slack = render("slack", answer)
    assert "Team plan" in str(slack["messages"])


@pytest.mark.parametrize("title", ["\u202a ", "\u2066\u2069", "\u202e"])
def test_a_title_of_only_bidi_controls_names_nothing(title: str) -> None:
    # (the property's next example): such a title showed as " " where none shows the URL
    source = Source(id="s8", title=title, url="https://docs.example/a")
    answer = Answer(
        text="It is so.[^1]", citations=(Citation(n=1, source=source, source_number=1),)
    )
    [citation] = render("web", answer)["citations"]
    assert citation["title"] == "https://docs.example/a"
