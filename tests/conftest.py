"""Suite-wide test settings: hypothesis profiles for a shared, noisy 2-core machine."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# No per-example deadline: timing on shared machines is noise; speed lives in bench/.
settings.register_profile(
    "default",
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
