"""A pluggable scorer, as a team would configure with ``grounding.backend: module:factory``."""

from __future__ import annotations

from collections.abc import Sequence


class HalfScorer:
    """Scores every pair 0.5 (stands in for an NLI model in the plug-in test)."""

    def entails(self, premise: str, hypothesis: str) -> float:
        """Always 0.5."""
        return 0.5


def make_scorer(evidence: Sequence[str]) -> HalfScorer:
    """The factory named in config."""
    return HalfScorer()
