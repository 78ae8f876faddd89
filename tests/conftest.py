"""Suite-wide test settings: hypothesis profiles for a shared, noisy 2-core machine, and the
checkout's own `.citecast/` kept out of the tests' configs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import bot.config_file
from bot.config import Settings
from bot.config_left_behind import refuse_left_behind

ROOT = Path(__file__).resolve().parents[1]

# No per-example deadline: timing on shared machines is noise; speed lives in bench/.
settings.register_profile(
    "default",
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _checkout_data_is_not_left_behind() -> Iterator[None]:
    """`make serve` leaves `.citecast/` in the checkout, the tests' working directory: it is not
    an older release's data beside every temporary config.yaml (bot.config_left_behind). Tests
    of that check run from a folder of their own, where it applies. A patch of its own, so a
    test's ``monkeypatch.undo()`` leaves it in place."""

    def unless_in_checkout(settings: Settings, folder: Path, origin: str) -> None:
        if Path.cwd() != ROOT:
            refuse_left_behind(settings, folder, origin)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bot.config_file, "refuse_left_behind", unless_in_checkout)
        yield
