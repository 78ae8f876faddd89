"""``--audience`` refuses only what breaks a group name's line, not every character that does
not print on its own.

Found by the security review: ``isprintable()`` refused a Persian group name holding a
zero-width non-joiner (U+200C, part of its spelling), which a document's ``audience`` accepts,
as "a control character"; a no-break space and a soft hyphen likewise. A control character
(category Cc: a newline or tab read into ``"$GROUP"``) and a line or paragraph separator are
still refused, in words that say which.
"""

from __future__ import annotations

import pytest

from bot.commands.output import viewer_groups
from bot.errors import ValidationError
from bot.knowledge.audience import document_audience


@pytest.mark.parametrize(
    "group",
    ["منابع\u200cانسانی", "help\u00a0desk", "infra\u00adstructure"],
    ids=["zero-width-non-joiner", "no-break-space", "soft-hyphen"],
)
def test_a_group_a_document_may_carry_can_be_asked_for(group: str) -> None:
    assert document_audience(group) == (group,)
    assert viewer_groups([group]) == [group]


@pytest.mark.parametrize(
    "value", ["st\naff", "st\taff", "st\x1baff", "st\x85aff", "st\u2028aff", "st\u2029aff"]
)
def test_a_control_character_or_line_break_is_refused(value: str) -> None:
    with pytest.raises(ValidationError) as caught:
        viewer_groups([value])
    assert str(caught.value) == (
        f"a control character or line break in a group name in --audience {value!r}; "
        "write each group's name on one line, as its documents do"
    )
