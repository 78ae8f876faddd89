"""A small ingested knowledge base whose files link each other, and a ``/files/`` app over it.

``kb/docs/guide.md`` links a sibling, an HTML file in another folder, a private file, a missing
one, an image and a set of hostile targets; a file outside the served roots is indexed too, so
the roots check is seen apart from the index check. The app's one route is the web channel's
``/files/{token}`` handler (:func:`bot.connectors.web_files.file_response`) given the index.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.config import IndexSettings
from bot.connectors.web_files import file_response
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.knowledge.ingest import ingest
from bot.models import Source

SECRET = b"viewer-links-secret-0123456789ab"
PUBLIC = frozenset({"public"})
STAFF = frozenset({"public", "staff"})

GUIDE = """\
# Guide

Read [the setup](setup.md#linux) and [the policy](../policies/policy.html#retention).

Staff read [the private notes](private.md); old readers [the gone page](gone.md).

Hostile: [up and out](../../outside/secret.md), [encoded](%2e%2e/%2e%2e/outside/secret.md),
[absolute](/etc/passwd), [file scheme](file:///etc/passwd), [a folder](../policies),
[with a query](setup.md?download=1), [backslashes](..\\policies\\policy.html),
[nul](setup.md%00.png), [double encoded](%252e%252e/policies/policy.html),
[script](javascript:alert(1)), [a symlink out](escape.md).

Kept: [this page](#guide), [the site](https://docs.example/guide), [its host](//docs.example/).

![the diagram](diagram.png) ![far away](../../outside/pixel.png)
"""
SETUP = "# Setup\n\n## Linux\n\nInstall the package and run the setup wizard.\n"
PRIVATE = "---\naudience: staff\n---\n# Private notes\n\nThe staff-only runbook.\n"
POLICY = """\
<!DOCTYPE html>
<!-- <html lang="fr"> in a comment is not the root -->
<html lang="de"><head><title>Richtlinie</title></head><body>
<h1>Richtlinie</h1>
<p>Back to <a href="../docs/guide.md">the guide</a>.</p>
INTRO
<h2 id="retention">Aufbewahrung</h2>
<p>Protokolle werden dreißig Tage aufbewahrt.</p>
</body></html>
""".replace("INTRO", "<p>Eine lange Einleitung, Absatz um Absatz.</p>\n" * 60)


@dataclass(frozen=True)
class LinkedKb:
    """The knowledge base's folders, its index and the signer serving only ``kb``."""

    kb: Path
    outside: Path
    files: IndexedFiles
    signer: FileSigner

    def token(self, relative: str, audience: frozenset[str] = PUBLIC) -> str:
        """A token for the file at ``kb/relative``, as a citation of it would carry."""
        path = self.kb / relative
        source = Source(id=relative, path=str(path), filename=path.name, kind="file")
        issued = self.signer.token_for(source, audience)
        assert issued is not None
        return issued


def build_linked_kb(tmp_path: Path) -> LinkedKb:
    """Write, ingest and serve the knowledge base under ``tmp_path``."""
    kb, outside = tmp_path / "kb", tmp_path / "outside"
    (kb / "docs").mkdir(parents=True)
    (kb / "policies").mkdir()
    outside.mkdir()
    (kb / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (kb / "docs" / "setup.md").write_text(SETUP, encoding="utf-8")
    (kb / "docs" / "private.md").write_text(PRIVATE, encoding="utf-8")
    (kb / "docs" / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (kb / "policies" / "policy.html").write_text(POLICY, encoding="utf-8")
    (outside / "secret.md").write_text("# Secret\n\nOutside the served roots.\n")
    (outside / "pixel.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (kb / "docs" / "escape.md").symlink_to(outside / "secret.md")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb, outside / "secret.md"], settings)
    signer = FileSigner(SECRET, "", 600, roots=[kb])
    return LinkedKb(kb, outside, IndexedFiles(settings.path), signer)


def viewer_app(linked: LinkedKb) -> Starlette:
    """``GET /files/{token}`` as the web channel answers it, with the index's files."""

    async def files(request: Request) -> Response:
        return file_response(
            linked.signer,
            str(request.path_params["token"]),
            download=request.query_params.get("download") == "1",
            files=linked.files,
        )

    return Starlette(routes=[Route("/files/{token}", files)])
