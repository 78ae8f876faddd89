"""A ``web.cors_origins`` entry with a space around it fails at start, like the other entries
no browser sends: ``Origin`` is compared exactly, so ``"http://127.0.0.1:8891 "`` was accepted
but never matched (the site got 403s, and the log's advice was to add what was already there).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import ConfigError
from tests.connectors.web.conftest import make_settings


@pytest.mark.parametrize(
    ("entry", "written"),
    [
        ("http://127.0.0.1:8891 ", "http://127.0.0.1:8891"),
        (" https://shop.example", "https://shop.example"),
        ("\thttps://shop.example\n", "https://shop.example"),
        # more than one thing to mend: the form to write says all of it
        (" https://Shop.example/ ", "https://shop.example"),
    ],
)
def test_an_entry_with_spaces_around_it_fails_at_start_with_what_to_write(
    tmp_path: Path, entry: str, written: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        make_settings(tmp_path, cors_origins=["https://ok.example", entry])
    message = str(caught.value)
    assert "web.cors_origins" in message
    assert f"{entry!r} is not an origin as browsers send it: write {written!r}" in message


def test_entries_as_browsers_send_them_still_load(tmp_path: Path) -> None:
    origins = ["http://127.0.0.1:8891", "https://shop.example"]
    assert make_settings(tmp_path, cors_origins=origins).web.cors_origins == origins
