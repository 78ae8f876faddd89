"""Discourse settings: ``audience_by_category`` cannot hand private sources to everyone.

The groups of a category are its readers' together: a reader in ``staff`` sees staff sources.
A category mapped to ``[public, staff]`` would give every reader of that public category the
staff sources, so it is refused at start with the key named.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.connectors.discourse_settings import check_settings
from bot.errors import ConfigError
from tests.connectors.discourse_harness import forum, settings_for
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]


@pytest.mark.parametrize("groups", [["public", "staff"], ["staff", "public"]])
def test_a_category_mapped_to_public_and_a_private_group_is_refused(
    forum: FakeDiscourse, tmp_path: Path, groups: list[str]
) -> None:
    settings = settings_for(forum, tmp_path, audience_by_category={"5": groups})
    message = "discourse.audience_by_category.5: a category everyone reads is public"
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_settings(settings.discourse)


@pytest.mark.parametrize("groups", [["public"], ["staff"], ["staff", "admins"]])
def test_a_public_or_private_mapping_is_accepted(
    forum: FakeDiscourse, tmp_path: Path, groups: list[str]
) -> None:
    settings = settings_for(forum, tmp_path, audience_by_category={"5": groups})
    check_settings(settings.discourse)
    assert settings.discourse.audience_by_category == {"5": groups}
