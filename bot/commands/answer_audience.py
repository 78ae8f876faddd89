"""Refusing to render an answer for a viewer it was not resolved for (``render``, ``preview``).

An answer resolved for staff (``citecast resolve --audience staff``) can cite a staff-only
source. Rendered for the public, the renderers hide that source's entry ("restricted source")
but the sentence it backs is part of the answer's text and is printed with its marker: the
claim reaches the viewer, and the gap in the list tells them a hidden source was cited. No
channel ever renders that way (a connector resolves and renders for one audience, and the web
server refuses such an answer outright), so the commands that show what a channel would send
refuse it too, instead of showing a payload no channel sends.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from bot.errors import ValidationError
from bot.models import Answer


def add_audience_argument(parser: argparse.ArgumentParser) -> None:
    """``--audience GROUP...``: whom the command renders for (default: the public)."""
    parser.add_argument(
        "--audience",
        nargs="+",
        action="extend",
        metavar="GROUP",
        help="groups the viewer belongs to (default: public); an answer citing a source they "
        "may not see is refused: resolve it with the same --audience",
    )


def hidden_citations(answer: Answer, viewer: Iterable[str]) -> list[int]:
    """The numbers of ``answer``'s citations whose source a viewer in ``viewer`` may not see."""
    groups = frozenset(viewer)
    return [c.n for c in answer.citations if not c.source.visible_to(groups)]


def check_answer_audience(answer: Answer, viewer: Iterable[str], shown_as: str) -> None:
    """Raise a one-line ValidationError when ``answer`` cites a source ``viewer`` may not see.

    ``shown_as`` says whom the command renders for, as its user asked ("--audience public").
    The line names the citations by number only: a title is the document's
    text, which a terminal should not be handed unchecked.
    """
    numbers = hidden_citations(answer, viewer)
    if not numbers:
        return
    groups = ",".join(sorted(set(viewer)))
    cited = ", ".join(f"[{n}]" for n in numbers)
    what = "a source" if len(numbers) == 1 else "sources"
    raise ValidationError(
        f"the answer cites {cited}, {what} {shown_as} may not see (it was resolved for a wider "
        f"audience); resolve it again for this one: citecast resolve --audience {groups}"
    )
