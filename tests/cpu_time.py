"""The CPU time a piece of work takes, for the linear-time checks.

Those checks compare two sizes of one input by a wide ratio (a quadratic path costs about 64
times at 8 times the size, a linear one about 8): CPU time of this process, the best of five
runs, so other work on a shared machine barely moves it.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def best_cpu_seconds(work: Callable[[], object]) -> float:
    """The least CPU time of five runs of ``work``."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best
