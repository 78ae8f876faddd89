"""``citecast eval``'s pass/fail gates for CI: ``--min-recall 95`` and the like.

A gate is a floor, in percent as the table prints it (``--min-recall 95`` passes at 95.0%),
under one metric of the all row. The command prints its results first and then, when a gate
is missed, exits with :data:`GATE_FAILED` (1), distinct from a usage or data error (2) and
Ctrl-C (130), naming every gate it missed. A gate on a metric the run has no value for (no
statement was cited, no case has gold citations) is missed too: a gate that cannot be checked
must not pass a build silently.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from bot.errors import ValidationError

GATE_FAILED = 1
"""The exit status when a gate is missed (2 stays for usage and data errors)."""

GATES = {
    "min_recall": ("--min-recall", "recall"),
    "min_precision": ("--min-precision", "precision"),
    "min_in_source": ("--min-in-source", "claims_in_source"),
    "min_gold_recall": ("--min-gold-recall", "gold_recall"),
}
"""argparse dest -> (option, the all row's metric it holds a floor under)."""

_NAMES = {
    "recall": "recall",
    "precision": "precision",
    "claims_in_source": "in source",
    "gold_recall": "gold recall",
}


@dataclass(frozen=True)
class Gate:
    """A floor of ``percent`` under the all row's ``metric``, given as ``option``."""

    option: str
    metric: str
    percent: float


def parse_gates(values: Mapping[str, float | None]) -> tuple[Gate, ...]:
    """The gates given (``values``: argparse dest -> percent, None when not given).

    ValidationError for a value outside 0..100, and for one between 0 and 1: gates are
    percent, and ``--min-recall 0.95`` (a fraction) would gate at 0.95% and pass anything.
    """
    gates: list[Gate] = []
    for dest, (option, metric) in GATES.items():
        value = values.get(dest)
        if value is None:
            continue
        if not math.isfinite(value) or not 0 <= value <= 100:
            raise ValidationError(
                f"{option} takes a percentage from 0 to 100, not {value:g}"
                " (see citecast eval --help)"
            )
        if 0 < value < 1:
            raise ValidationError(
                f"{option} takes a percentage: {value:g} would be {value:g}%; write"
                f" {value * 100:g} for {value * 100:g}% (see citecast eval --help)"
            )
        gates.append(Gate(option, metric, value))
    return tuple(gates)


def missed(gates: tuple[Gate, ...], overall: Mapping[str, float | None]) -> list[str]:
    """What each missed gate says (``recall 3.8% is below --min-recall 95``), in option order.

    Compared as the table shows a share (rounded, so 0.29 is 29%, not 28.999…%)."""
    out: list[str] = []
    for gate in gates:
        value = overall.get(gate.metric)
        name = _NAMES[gate.metric]
        if value is None:
            out.append(f"{name} has no value in this run ({gate.option} {gate.percent:g})")
        elif round(value * 100, 9) < gate.percent:
            shown = _shown(value * 100, gate.percent)
            out.append(f"{name} {shown}% is below {gate.option} {gate.percent:g}")
    return out


def _shown(percent: float, floor: float) -> str:
    """``percent`` as the table shows it (``94.9``), with more digits when that would round up to
    the floor it missed (``94.96``, not ``95.0``)."""
    for digits in range(1, 7):
        text = f"{percent:.{digits}f}"
        if float(text) < floor:
            return text
    return f"{percent!r}"
