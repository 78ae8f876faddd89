"""The fake Discourse forum's ``POST /uploads.json``: authorized extensions and a size limit.

:class:`ForumUploads` is the part of :class:`tests.fakes.discourse_api.FakeDiscourse` that takes
files, refusing them as the real forum does: 422 "not authorized" for an extension outside
``authorized_extensions``, 422 "too big" past ``max_attachment_bytes``. It names a file as Rack
(under Discourse) reads its multipart ``filename``: :func:`rack_file_name`.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import unquote

from aiohttp import web

from tests.fakes.discourse_wire import RecordedUpload, base62, error_response

# what Rack's multipart parser looks at after each "%": the two characters an escape needs
_PERCENT_RUN = re.compile(r"%.?.?")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def rack_file_name(sent: str) -> str:
    """The name Rack gives a file whose multipart ``filename`` parameter reads ``sent``: decoded
    from percent escapes when every ``%`` starts a valid one (rack/rack#1772: ``100%25.pdf`` is
    stored as ``100%.pdf``, ``a%0Ab.pdf`` with a line break), with invalid UTF-8 replaced (Ruby's
    ``scrub``); otherwise as sent (``100%.pdf`` stays ``100%.pdf``)."""
    if all(_ESCAPE.fullmatch(run) for run in _PERCENT_RUN.findall(sent)):
        return unquote(sent, errors="replace")
    return sent


class ForumUploads:
    """Uploads' side of the fake forum (state lives in FakeDiscourse)."""

    authorized_extensions: tuple[str, ...]
    max_attachment_bytes: int
    uploads: list[RecordedUpload]
    _next_upload_id: int

    def _check(self, request: web.Request) -> web.Response | None:
        raise NotImplementedError  # FakeDiscourse's: the key, and injected answers

    async def _upload(self, request: web.Request) -> web.Response:
        denied = self._check(request)
        if denied is not None:
            return denied
        form = await request.post()
        upload = form.get("file")
        if not isinstance(upload, web.FileField):
            return error_response(422, ["You must provide a file to upload."], "invalid_parameters")
        if form.get("type") != "composer":
            return error_response(422, ["Invalid upload type."], "invalid_parameters")
        filename = rack_file_name(upload.filename or "file")
        extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
        if extension not in self.authorized_extensions:
            allowed = ", ".join(self.authorized_extensions)
            message = (
                "Sorry, the file you are trying to upload is not authorized "
                f"(authorized extensions: {allowed})."
            )
            return error_response(422, [message], None)
        data = upload.file.read()
        if len(data) > self.max_attachment_bytes:
            limit_mb = self.max_attachment_bytes // (1024 * 1024)
            message = (
                f"The file you are trying to upload is too big (maximum size is {limit_mb} MB)."
            )
            return error_response(422, [message], None)
        sha1 = hashlib.sha1(data).hexdigest()
        short_url = f"upload://{base62(int(sha1, 16))}.{extension}"
        record = RecordedUpload(
            self._next_upload_id, filename, data, short_url, request.headers["Api-Username"]
        )
        self._next_upload_id += 1
        self.uploads.append(record)
        return web.json_response(
            {
                "id": record.id,
                "url": f"/uploads/default/original/1X/{sha1}.{extension}",
                "original_filename": filename,
                "filesize": len(data),
                "width": None,
                "height": None,
                "extension": extension,
                "short_url": short_url,
                "short_path": f"/uploads/short-url/{short_url[len('upload://') :]}",
                "retain_hours": None,
                "human_filesize": f"{len(data)} Bytes",
            }
        )
