"""Signed file links and uploads as a forum post needs them (``discourse.file_link_ttl_days``,
``discourse.upload_private_files``).

A forum post is read for months, so its ``/files/`` links last ``file_link_ttl_days`` (0: as
the web's); :mod:`bot.connectors.link_lifetime` says why a long lifetime is safe.

An upload is different: it is the forum's copy, fetchable by URL (unless the forum has
"secure uploads") and outside citecast's audience rules, so a file that is not public is
linked or named instead unless the operator opts in.
"""

from __future__ import annotations

from bot.config_channels import DiscourseSettings
from bot.connectors.link_lifetime import services_with_link_days
from bot.models import Source
from bot.runtime import Services


def forum_services(services: Services) -> Services:
    """``services`` whose signer signs links for ``discourse.file_link_ttl_days`` (see
    :func:`bot.connectors.link_lifetime.services_with_link_days`)."""
    return services_with_link_days(services, services.settings.discourse.file_link_ttl_days)


def may_upload(settings: DiscourseSettings, source: Source | None) -> bool:
    """Whether the cited ``source``'s file may be uploaded to the forum: a public file, or any
    file when ``upload_private_files`` is on (None: a citation the answer no longer has)."""
    if source is None:
        return False
    return settings.upload_private_files or "public" in source.audience
